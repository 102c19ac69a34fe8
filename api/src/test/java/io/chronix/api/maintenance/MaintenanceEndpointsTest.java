package io.chronix.api.maintenance;

import io.chronix.api.security.TestHttp;
import io.chronix.api.testing.ServiceTestProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code POST …/flush} and {@code …/compact} in process against a real PostgreSQL: answers, scopes, tenant isolation, metrics. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class MaintenanceEndpointsTest {

    static final String OPERATOR = "operator-token-for-maintenance-tests";

    @TempDir
    static Path data;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        ServiceTestProperties.register(registry, data, OPERATOR);
    }

    @Value("${local.server.port}")
    int port;

    private final HttpClient client = HttpClient.newHttpClient();

    /** A tenant's admin token and a write:metrics token, with namespace "metrics". */
    private String[] tenant() {
        TestHttp http = new TestHttp(port);
        String name = "m-" + UUID.randomUUID().toString().substring(0, 8);
        String admin = http.send("POST", "/api/v1/tenants", OPERATOR, "{\"name\":\"" + name + "\",\"adminEmail\":\"" + name
                + "@example.com\",\"adminPassword\":\"correct horse battery\"}").json().get("adminToken").asString();
        assertThat(http.send("POST", "/api/v1/namespaces", admin, "{\"name\":\"metrics\"}").status()).isEqualTo(201);
        String writer = http.send("POST", "/api/v1/tokens", admin, "{\"description\":\"w\",\"scopes\":[\"write:metrics\"]}").json()
                .get("token").asString();
        return new String[] {admin, writer};
    }

    private void write(String writer, String lines) throws Exception {
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/namespaces/metrics/write"))
                .header("Authorization", "Bearer " + writer).POST(HttpRequest.BodyPublishers.ofString(lines, StandardCharsets.UTF_8))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(204);
    }

    @Test
    void flushAndCompactAnswerWhatTheyDid() throws Exception {
        String[] t = tenant();
        TestHttp http = new TestHttp(port);
        long now = System.currentTimeMillis() * 1_000_000L;
        write(t[1], "cpu,host=a usage=1 " + now + "\ncpu,host=b usage=2 " + now + "\n");
        TestHttp.Answer flushed = http.post("/api/v1/namespaces/metrics/flush", t[0], "");
        assertThat(flushed.status()).as(flushed.body()).isEqualTo(200);
        assertThat(flushed.json().get("pointsFlushed").asLong()).isEqualTo(2);
        assertThat(flushed.json().get("segmentsWritten").asInt()).isEqualTo(1);
        write(t[1], "cpu,host=a usage=3 " + now + "\ncpu,host=a usage=4 " + (now + 1) + "\n");
        TestHttp.Answer compacted = http.post("/api/v1/namespaces/metrics/compact", t[0], "");
        assertThat(compacted.status()).as(compacted.body()).isEqualTo(200);
        JsonNode c = compacted.json();
        assertThat(c.get("groups").asInt()).isEqualTo(1);
        assertThat(c.get("segmentsIn").asInt()).as("compact flushed first, then merged both").isEqualTo(2);
        assertThat(c.get("segmentsOut").asInt()).isEqualTo(1);
        assertThat(c.get("rowsIn").asLong()).isEqualTo(4);
        assertThat(c.get("rowsOut").asLong()).as("the overwrite folded").isEqualTo(3);
        assertThat(c.get("bytesOut").asLong()).isPositive();
        TestHttp.Answer again = http.post("/api/v1/namespaces/metrics/compact", t[0], "");
        assertThat(again.json().get("groups").asInt()).as("nothing left to merge").isZero();
    }

    @Test
    void onlyTheTenantsAdminMayRunThem() throws Exception {
        String[] t = tenant();
        String[] other = tenant();
        TestHttp http = new TestHttp(port);
        assertThat(http.post("/api/v1/namespaces/metrics/compact", t[1], "").status()).as("write scope is not admin").isEqualTo(403);
        assertThat(http.post("/api/v1/namespaces/metrics/flush", null, "").status()).isEqualTo(401);
        assertThat(http.post("/api/v1/namespaces/nosuch/flush", t[0], "").status()).isEqualTo(404);
        // another tenant's "metrics" is its own namespace: both answer, neither sees the other's data
        write(other[1], "cpu,host=x usage=1 " + System.currentTimeMillis() * 1_000_000L + "\n");
        assertThat(http.post("/api/v1/namespaces/metrics/flush", t[0], "").json().get("pointsFlushed").asLong()).isZero();
        assertThat(http.post("/api/v1/namespaces/metrics/flush", other[0], "").json().get("pointsFlushed").asLong()).isEqualTo(1);
    }

    @Test
    void prometheusShowsBackpressure() {
        TestHttp.Answer r = new TestHttp(port).get("/actuator/prometheus", OPERATOR);
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body()).contains("chronix_backpressure_delay_seconds ").contains("chronix_backpressure_delayed_seconds_total ");
    }
}
