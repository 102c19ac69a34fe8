package io.chronix.api;

import io.chronix.api.testing.ServiceTestProperties;
import org.apache.catalina.connector.Connector;
import org.apache.coyote.AbstractProtocol;
import org.apache.tomcat.util.net.AbstractEndpoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The service's surfaces in process, against a real PostgreSQL: what is open, what needs the
 * operator token, and the shape of the errors.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ServiceSurfaceTest {

    static final String OPERATOR = "operator-token-for-surface-tests";

    @TempDir
    static Path data;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        ServiceTestProperties.register(registry, data, OPERATOR);
    }

    @Value("${local.server.port}")
    int port;

    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> get(String path, String token) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Autowired
    WebServerApplicationContext context;

    /**
     * Answers reach the socket in 64 KiB writes, not Tomcat's 8 KiB (see HttpServerConfiguration):
     * the value the running endpoint uses, read from it (its accessor is protected), not the setting.
     */
    @Test
    void theConnectorWritesToTheSocketIn64KiBBuffers() throws ReflectiveOperationException {
        Connector connector = ((TomcatWebServer) context.getWebServer()).getTomcat().getConnector();
        Method endpoint = AbstractProtocol.class.getDeclaredMethod("getEndpoint");
        endpoint.setAccessible(true);
        AbstractEndpoint<?, ?> running = (AbstractEndpoint<?, ?>) endpoint.invoke(connector.getProtocolHandler());
        assertThat(running.getSocketProperties().getAppWriteBufSize()).isEqualTo(64 * 1024);
    }

    @Test
    void healthIsOpenWithDatabaseAndColdStoreComponentsAndProbeGroups() throws Exception {
        HttpResponse<String> r = get("/actuator/health", null);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("\"status\":\"UP\"").contains("\"db\"").contains("\"coldStore\"");
        assertThat(get("/actuator/health/liveness", null).statusCode()).isEqualTo(200);
        assertThat(get("/actuator/health/readiness", null).statusCode()).isEqualTo(200);
    }

    @Test
    void prometheusNeedsTheOperatorToken() throws Exception {
        assertThat(get("/actuator/prometheus", null).statusCode()).isEqualTo(401);
        assertThat(get("/actuator/prometheus", "wrong-token").statusCode()).isEqualTo(401);
        HttpResponse<String> r = get("/actuator/prometheus", OPERATOR);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("jvm_memory_used_bytes");
    }

    @Test
    void requestsAreObservedOnceNotPerSecurityFilter() throws Exception {
        for (int i = 0; i < 3; i++) {
            assertThat(get("/api/v1/whoami", OPERATOR).statusCode()).isEqualTo(200);
        }
        String metrics = get("/actuator/prometheus", OPERATOR).body();
        assertThat(metrics).contains("http_server_requests_seconds_count");
        assertThat(metrics).doesNotContain("spring_security_");
    }

    @Test
    void whoamiAnswersTheOperatorAnd401IsAProblemDocument() throws Exception {
        HttpResponse<String> none = get("/api/v1/whoami", null);
        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(none.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
        assertThat(none.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("application/problem+json"));
        assertThat(none.body()).contains("\"status\":401").contains("\"errorId\":\"unauthenticated\"").contains("\"type\":\"urn:chronix:problem:unauthenticated\"");

        HttpResponse<String> bad = get("/api/v1/whoami", "cx_nope_nope");
        assertThat(bad.statusCode()).isEqualTo(401);
        assertThat(bad.body()).contains("invalid-credentials");

        HttpResponse<String> ok = get("/api/v1/whoami", OPERATOR);
        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(ok.body()).contains("\"kind\":\"operator\"");
    }

    @Test
    void openApiAndSwaggerAreOpenAndDescribeWhoami() throws Exception {
        HttpResponse<String> docs = get("/v3/api-docs", null);
        assertThat(docs.statusCode()).isEqualTo(200);
        assertThat(docs.body()).contains("/api/v1/whoami").contains("/ping");
        assertThat(get("/swagger-ui/index.html", null).statusCode()).isEqualTo(200);
    }

    @Test
    void pingAnswers204WithTheInfluxVersionHeader() throws Exception {
        HttpResponse<String> r = get("/ping", null);
        assertThat(r.statusCode()).isEqualTo(204);
        assertThat(r.headers().firstValue("X-Influxdb-Version")).isPresent();
    }

    @Test
    void unknownPathsSayNothingWithoutCredentials() throws Exception {
        assertThat(get("/secret-place", null).statusCode()).isEqualTo(401);
        assertThat(get("/api/v1/no-such-endpoint", OPERATOR).statusCode()).isEqualTo(404);
    }
}
