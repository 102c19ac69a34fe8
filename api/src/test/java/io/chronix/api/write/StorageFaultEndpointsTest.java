package io.chronix.api.write;

import io.chronix.api.security.TestHttp;
import io.chronix.api.testing.ServiceTestProperties;
import org.junit.jupiter.api.AfterAll;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Writes against a failing disk, in process, through the test-only fault switch
 * ({@code -Dchronix.test.inject-faults}): a full disk is 507 {@code insufficient-storage} and the
 * next write after it succeeds; a failed fsync is 503 {@code storage-unavailable} with {@code
 * Retry-After}, readiness DOWN on the {@code engine} component, and once the device works the
 * namespace is reopened by the service itself and writes succeed again with nothing refused
 * brought back. (Readiness on a really full disk: src-it's {@code DiskFullIT}.)
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class StorageFaultEndpointsTest {

    static final String OPERATOR = "operator-token-for-storage-fault-tests";

    @TempDir
    static Path data;
    static Path faults;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) throws Exception {
        ServiceTestProperties.register(registry, data, OPERATOR);
        registry.add("chronix.engine.storage-retry-interval", () -> "1s");
        // read when the engine registry is built, i.e. by this test's own context only
        faults = Files.createTempDirectory("chronix-faults");
        System.setProperty("chronix.test.inject-faults", faults.toString());
    }

    @AfterAll
    static void switchOff() {
        System.clearProperty("chronix.test.inject-faults");
    }

    @Value("${local.server.port}")
    int port;

    private final HttpClient client = HttpClient.newHttpClient();

    private HttpResponse<String> write(String path, String token, String lines) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Authorization", "Bearer " + token).header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString(lines)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private String tenant() {
        TestHttp http = new TestHttp(port);
        String name = "sf-" + UUID.randomUUID().toString().substring(0, 8);
        String admin = http.send("POST", "/api/v1/tenants", OPERATOR, "{\"name\":\"" + name + "\"}").json().get("adminToken").asString();
        assertThat(http.send("POST", "/api/v1/namespaces", admin, "{\"name\":\"m\",\"retention\":\"P30D\"}").status()).isEqualTo(201);
        return admin;
    }

    private static long now() {
        return System.currentTimeMillis() * 1_000_000L;
    }

    @Test
    void aFullDiskIs507AndTheNextWriteSucceedsOnceThereIsRoom() throws Exception {
        String token = tenant();
        assertThat(write("/api/v1/namespaces/m/write", token, "cpu v=1 " + now()).statusCode()).isEqualTo(204);
        Path trigger = Files.createFile(faults.resolve("disk-full"));
        try {
            HttpResponse<String> full = write("/api/v1/namespaces/m/write", token, "cpu v=2 " + now());
            assertThat(full.statusCode()).as(full.body()).isEqualTo(507);
            assertThat(full.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
            JsonNode p = TestHttp.JSON.readTree(full.body());
            assertThat(p.get("errorId").asString()).isEqualTo("insufficient-storage");
            assertThat(p.get("type").asString()).isEqualTo("urn:chronix:problem:insufficient-storage");
            assertThat(p.get("status").asInt()).isEqualTo(507);
            assertThat(p.get("written").asInt()).isZero();
            assertThat(p.get("detail").asString()).contains("disk is full");
            HttpResponse<String> influx = write("/api/v2/write?bucket=m&precision=ns", token, "cpu v=3 " + now());
            assertThat(influx.statusCode()).as("InfluxDB's endpoint, its own shape").isEqualTo(507);
            assertThat(TestHttp.JSON.readTree(influx.body()).get("errorId").asString()).isEqualTo("insufficient-storage");
        } finally {
            Files.delete(trigger);
        }
        assertThat(write("/api/v1/namespaces/m/write", token, "cpu v=4 " + now()).statusCode()).as("no restart needed").isEqualTo(204);
        JsonNode count = new TestHttp(port).get("/api/v1/namespaces/m/query?sql=SELECT%20count(*)%20FROM%20cpu", token).json();
        assertThat(count.get("rows").get(0).get(0).asLong()).as("the two acknowledged points").isEqualTo(2);
    }

    @Test
    void aFailedFsyncIs503UntilTheServiceHasReopenedTheNamespaceFromWhatWasSynced() throws Exception {
        String token = tenant();
        TestHttp http = new TestHttp(port);
        assertThat(write("/api/v1/namespaces/m/write", token, "cpu v=1 " + now()).statusCode()).isEqualTo(204);
        Path trigger = Files.createFile(faults.resolve("fail-fsync"));
        try {
            HttpResponse<String> failed = write("/api/v1/namespaces/m/write", token, "cpu v=2 " + now());
            assertThat(failed.statusCode()).as(failed.body()).isEqualTo(503);
            assertThat(failed.headers().firstValue("Retry-After")).isPresent();
            JsonNode p = TestHttp.JSON.readTree(failed.body());
            assertThat(p.get("errorId").asString()).isEqualTo("storage-unavailable");
            assertThat(p.get("fault").asString()).isEqualTo("fsync-failed");
            assertThat(write("/api/v1/namespaces/m/write", token, "cpu v=3 " + now()).statusCode())
                    .as("nothing after the failed fsync is acknowledged").isEqualTo(503);
            TestHttp.Answer ready = http.get("/actuator/health/readiness", null);
            assertThat(ready.status()).isEqualTo(503);
            JsonNode health = http.get("/actuator/health", OPERATOR).json();
            assertThat(health.get("components").get("engine").get("status").asString()).isEqualTo("DOWN");
            assertThat(health.get("components").get("engine").get("details").get("failingNamespaces").toString()).contains("SYNC_FAILED");
        } finally {
            Files.delete(trigger);
        }
        long deadline = System.nanoTime() + 30_000_000_000L;
        int status = 0;
        while (System.nanoTime() < deadline && (status = write("/api/v1/namespaces/m/write", token, "cpu v=5 " + now()).statusCode()) != 204) {
            Thread.sleep(200);
        }
        assertThat(status).as("the namespace reopened by the service itself").isEqualTo(204);
        assertThat(http.get("/actuator/health/readiness", null).status()).isEqualTo(200);
        JsonNode values = http.get("/api/v1/namespaces/m/query?sql=SELECT%20v%20FROM%20cpu%20ORDER%20BY%20time", token).json();
        assertThat(values.get("rows").toString()).as("acknowledged points only: the refused ones are not brought back")
                .isEqualTo("[[1.0],[5.0]]");
    }
}
