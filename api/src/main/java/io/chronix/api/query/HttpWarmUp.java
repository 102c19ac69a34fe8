package io.chronix.api.query;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContext;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;

/**
 * The second half of the startup warm-up: once the port is open, the service sends itself {@code
 * chronix.query.warm-up-http-queries} queries of {@link QueryWarmUp}'s shapes over a loopback HTTP
 * connection, as the {@link WarmUpTenant} (a tenant that exists only in memory for these requests)
 * over a private engine of the same synthetic data. {@link QueryWarmUp} compiles the query path
 * below {@link QueryService}; what it cannot reach is everything a request passes on its way there
 * and back: Tomcat's request parsing and response writes, the token check and its cache, the
 * namespace and quota lookups, {@link DirectQueryFilter} and the controller, the request
 * observation. Measured on the end-to-end benchmark (docs/benchmarks.md), the first kind of
 * queries after a start ran at about twice its steady median without this, and at it with it.
 *
 * <p>It runs in {@link #start}, just after the web server's start, so the application is not ready
 * until it is done: {@code /actuator/health} and its readiness group answer {@code OUT_OF_SERVICE}
 * (503) meanwhile, as they do for any start. A tenant request that comes in the meantime is served as
 * usual, beside the warm-up's. It stops at {@code chronix.query.warm-up-time}, and it is skipped when
 * the port speaks TLS. A failure is logged and startup goes on.
 */
@Component
class HttpWarmUp extends StartupWarmUp {

    private static final Logger log = LoggerFactory.getLogger(HttpWarmUp.class);
    /** Just after the web server's start ({@code WebServerStartStopLifecycle}, {@code Integer.MAX_VALUE - 2048}). */
    static final int PHASE = Integer.MAX_VALUE - 2048 + 1;

    private final QueryWarmUp warmUp;
    private final WarmUpTenant tenant;
    private final QueryProperties properties;
    private final ApplicationContext context;
    private final Environment environment;

    HttpWarmUp(QueryWarmUp warmUp, WarmUpTenant tenant, QueryProperties properties, ApplicationContext context, Environment environment) {
        super(PHASE);
        this.warmUp = warmUp;
        this.tenant = tenant;
        this.properties = properties;
        this.context = context;
        this.environment = environment;
    }

    @Override
    void warmUp() {
        if (properties.warmUpHttpQueries() == 0 || properties.warmUpTime().isZero()) {
            return;
        }
        if (!(context instanceof WebServerApplicationContext web) || web.getWebServer() == null || web.getWebServer().getPort() <= 0) {
            return; // no port of our own (a test's mock environment)
        }
        if (environment.getProperty("server.ssl.enabled", Boolean.class, false)
                || environment.containsProperty("server.ssl.bundle") || environment.containsProperty("server.ssl.key-store")) {
            log.info("HTTP warm-up skipped: the port speaks TLS");
            return;
        }
        long started = System.nanoTime();
        try {
            QueryWarmUp.Report r = warmUp.run(properties.warmUpHttpQueries(), properties.warmUpTime(), loopback(web.getWebServer()));
            log.info("HTTP query path warmed up [queries={}, ms={}]", r.queries(), (System.nanoTime() - started) / 1_000_000);
        } catch (IOException | RuntimeException e) {
            log.warn("HTTP warm-up failed; the first queries compile the HTTP side of the query path instead", e);
        }
    }

    /** The way to the warm-up engine over this service's port, as the warm-up tenant. */
    QueryWarmUp.Route loopback(WebServer server) {
        String address = environment.getProperty("server.address");
        String host = "127.0.0.1";
        if (address != null && !address.isBlank()) {
            try {
                InetAddress a = InetAddress.getByName(address.strip());
                if (!a.isAnyLocalAddress()) {
                    host = a.getHostAddress().contains(":") ? "[" + a.getHostAddress() + "]" : a.getHostAddress();
                }
            } catch (IOException e) {
                throw new IllegalStateException("server.address does not resolve: " + address, e);
            }
        }
        URI endpoint = URI.create("http://" + host + ":" + server.getPort() + "/api/v1/namespaces/" + WarmUpTenant.NAMESPACE + "/query");
        return engine -> {
            WarmUpTenant.Session session = tenant.open(engine, QueryWarmUp.QUERY_TIMEOUT);
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
            String authorization = "Bearer " + session.token();
            return new QueryWarmUp.Queries() {
                @Override
                public long execute(int n, String sql, ResultFormat format) throws IOException {
                    tenant.turn(); // the lookups' compiled calls: see WarmUpTenant
                    HttpRequest.Builder b;
                    if (n % 10 == 9) {
                        // now and then by POST with a JSON body, as the console and most clients send
                        // it (the dispatcher's way); the rest by GET, which the direct filter answers
                        String body = "{\"sql\":" + JsonMapper.shared().writeValueAsString(sql) + "}";
                        b = HttpRequest.newBuilder(endpoint).header(HttpHeaders.CONTENT_TYPE, "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(body));
                    } else {
                        b = HttpRequest.newBuilder(URI.create(endpoint + "?sql=" + URLEncoder.encode(sql, StandardCharsets.UTF_8))).GET();
                    }
                    HttpRequest request = b.timeout(QueryWarmUp.QUERY_TIMEOUT).header(HttpHeaders.AUTHORIZATION, authorization)
                            .header(HttpHeaders.ACCEPT, format.mediaType.toString()).build();
                    HttpResponse<byte[]> response;
                    try {
                        response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IOException("interrupted", e);
                    }
                    if (response.statusCode() != 200) {
                        throw new IOException("warm-up query answered " + response.statusCode() + " [sql=" + sql + ", body="
                                + new String(Arrays.copyOf(response.body(), Math.min(500, response.body().length)), StandardCharsets.UTF_8) + "]");
                    }
                    return 1;
                }

                /**
                 * Nine in ten the one-series aggregate: what this part compiles is per request, not
                 * per row, and the engine's side of the other shapes is compiled already.
                 */
                @Override
                public int shape(int n, int shapes) {
                    return n % 10 != 0 ? 0 : (n / 10) % shapes;
                }

                @Override
                public void close() {
                    tenant.close();
                    client.close();
                }
            };
        };
    }
}
