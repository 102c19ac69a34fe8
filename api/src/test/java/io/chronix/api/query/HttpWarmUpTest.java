package io.chronix.api.query;

import io.chronix.api.config.DataDirectory;
import io.chronix.api.security.TestHttp;
import io.chronix.api.testing.ServiceTestProperties;
import io.chronix.tenancy.TenancyDirectory;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The HTTP warm-up in a started service: its queries went through the port as the warm-up tenant
 * and were answered, and once the service is up that tenant, its token and its namespace are gone;
 * a real tenant never reaches them.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"chronix.query.warm-up-queries=0", "chronix.query.warm-up-http-queries=" + HttpWarmUpTest.QUERIES})
class HttpWarmUpTest {

    static final int QUERIES = 40;
    static final String OPERATOR = "operator-token-for-http-warm-up-tests";

    @TempDir
    static Path data;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        ServiceTestProperties.register(registry, data, OPERATOR);
    }

    @Value("${local.server.port}")
    int port;

    @Autowired MeterRegistry meters;
    @Autowired DataDirectory dataDirectory;
    @Autowired TenancyDirectory directory;
    @Autowired WarmUpTenant warmUp;

    private final HttpClient client = HttpClient.newHttpClient();

    @Test
    void itsQueriesWentThroughThePortAndWereAnswered() {
        Timer ok = meters.find("chronix.query.requests").tag("namespace", QueryWarmUp.NAMESPACE_TAG).tag("outcome", "ok").timer();
        assertThat(ok).as("the warm-up's queries in the query metrics").isNotNull();
        assertThat(ok.count()).isEqualTo(QUERIES);
        Timer failed = meters.find("chronix.query.requests").tag("namespace", QueryWarmUp.NAMESPACE_TAG).tag("outcome", "error").timer();
        assertThat(failed == null ? 0 : failed.count()).as("no warm-up query failed").isZero();
        // observed as requests to the query endpoint, answered 200, by GET (the direct filter) and by
        // POST (the dispatcher): they came in through the connector
        var http = meters.find("http.server.requests").tag("uri", DirectQueryFilter.PATH_PATTERN).tag("status", "200").timers();
        assertThat(http.stream().mapToLong(Timer::count).sum()).isEqualTo(QUERIES);
        assertThat(http).extracting(t -> t.getId().getTag("method")).containsExactlyInAnyOrder("GET", "POST");
        assertThat(dataDirectory.warmUp()).as("the warm-up engine's directory").doesNotExist();
    }

    @Test
    void afterwardsItsTenantIsUnknownAndARealTenantCannotReachItsNamespace() throws Exception {
        // a session opened and closed again, as the warm-up's: its token no longer verifies
        WarmUpTenant.Session s = warmUp.open(WarmUpTenantTest.handle(), java.time.Duration.ofSeconds(5));
        String token = s.token();
        UUID warmUpTenant = s.verified().tenantId();
        assertThat(directory.verify(token)).isPresent();
        warmUp.close();
        assertThat(directory.verify(token)).isEmpty();
        assertThat(directory.namespace(warmUpTenant, WarmUpTenant.NAMESPACE)).isEmpty();
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/namespaces/"
                + WarmUpTenant.NAMESPACE + "/query?sql=" + URLEncoder.encode("SELECT 1", StandardCharsets.UTF_8)))
                .header("Authorization", "Bearer " + token).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("the closed session's token, whatever the resolver kept: %s", r.body()).isIn(401, 404);

        // a real tenant asking for a namespace of that name gets its own lookup: none
        TestHttp http = new TestHttp(port);
        JsonNode t = http.send("POST", "/api/v1/tenants", OPERATOR, "{\"name\":\"warm-up-probe\",\"adminEmail\":\"probe@example.com\","
                + "\"adminPassword\":\"correct horse battery\"}").json();
        String admin = t.get("adminToken").asString();
        r = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/namespaces/"
                        + WarmUpTenant.NAMESPACE + "/query?sql=" + URLEncoder.encode("SELECT 1", StandardCharsets.UTF_8)))
                .header("Authorization", "Bearer " + admin).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(404);
    }
}
