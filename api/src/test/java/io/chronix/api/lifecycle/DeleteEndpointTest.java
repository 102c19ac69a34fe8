package io.chronix.api.lifecycle;

import io.chronix.api.engine.EngineRegistry;
import io.chronix.api.security.TestHttp;
import io.chronix.api.testing.ServiceTestProperties;
import io.chronix.engine.read.ScanRequest;
import io.chronix.tenancy.TenancyDirectory;
import io.chronix.tenancy.namespace.Namespace;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The delete endpoint and the periodic retention pass, in process against a real PostgreSQL. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class DeleteEndpointTest {

    static final String OPERATOR = "operator-token-for-delete-tests";
    static final AtomicInteger TENANTS = new AtomicInteger();

    @TempDir
    static Path data;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        ServiceTestProperties.register(registry, data, OPERATOR);
        registry.add("chronix.engine.retention-interval", () -> "PT1H"); // the test runs the pass itself
    }

    @Value("${local.server.port}")
    int port;

    @Autowired
    EngineRegistry engines;

    @Autowired
    TenancyDirectory directory;

    @Autowired
    LifecycleMaintenance lifecycle;

    record Tenant(UUID id, String admin, String writer) {
    }

    private Tenant tenant(String retention) {
        TestHttp http = new TestHttp(port);
        String name = "d" + TENANTS.incrementAndGet() + "-" + UUID.randomUUID().toString().substring(0, 6);
        JsonNode t = http.send("POST", "/api/v1/tenants", OPERATOR, "{\"name\":\"" + name + "\",\"adminEmail\":\"" + name
                + "@example.com\",\"adminPassword\":\"correct horse battery\"}").json();
        String admin = t.get("adminToken").asString();
        assertThat(http.send("POST", "/api/v1/namespaces", admin, "{\"name\":\"metrics\",\"retention\":\"" + retention + "\"}").status())
                .isEqualTo(201);
        String writer = http.send("POST", "/api/v1/tokens", admin, "{\"description\":\"w\",\"scopes\":[\"write:metrics\"]}").json()
                .get("token").asString();
        return new Tenant(UUID.fromString(t.get("id").asString()), admin, writer);
    }

    private TestHttp.Answer write(Tenant t, String lines) {
        return new TestHttp(port).send(java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create("http://127.0.0.1:" + port + "/api/v1/namespaces/metrics/write?precision=s"))
                .header("Authorization", "Bearer " + t.writer()).header("Content-Type", "text/plain")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(lines)).build());
    }

    private TestHttp.Answer delete(String token, String body) {
        return new TestHttp(port).send("POST", "/api/v1/namespaces/metrics/delete", token, body);
    }

    private List<Long> times(Tenant t, String host) {
        Namespace ns = directory.namespace(t.id(), "metrics").orElseThrow();
        return engines.apply(ns, e -> {
            try (RootAllocator a = new RootAllocator(); var r = e.scan(new ScanRequest("cpu", List.of("time"), Long.MIN_VALUE,
                    Long.MAX_VALUE, List.of(new io.chronix.engine.read.TagPredicate.Eq("host", host))), a)) {
                List<Long> out = new java.util.ArrayList<>();
                for (var b : r.batches()) {
                    var v = (org.apache.arrow.vector.TimeStampVector) b.getVector("time");
                    for (int i = 0; i < b.getRowCount(); i++) {
                        out.add(v.get(i) / 1_000_000_000L);
                    }
                }
                return out;
            }
        });
    }

    @Test
    void aDeleteAnswersTheSeriesDeletedAndTheDryRunCountsFirst() {
        Tenant t = tenant("P30D");
        long now = Instant.now().truncatedTo(ChronoUnit.SECONDS).getEpochSecond();
        assertThat(write(t, "cpu,host=a v=1 " + (now - 30) + "\ncpu,host=a v=2 " + (now - 20) + "\ncpu,host=b v=3 " + (now - 20)
                + "\ncpu,host=a v=4 " + (now - 10) + "\n").status()).isEqualTo(204);
        String range = ",\"start\":\"" + Instant.ofEpochSecond(now - 25) + "\",\"end\":\"" + Instant.ofEpochSecond(now - 15) + "\"";

        TestHttp.Answer dry = delete(t.admin(), "{\"measurement\":\"cpu\",\"tags\":{\"host\":\"a\"}" + range + ",\"dryRun\":true}");
        assertThat(dry.status()).as(dry.body()).isEqualTo(200);
        assertThat(dry.json().get("dryRun").asBoolean()).isTrue();
        assertThat(dry.json().get("series").asLong()).isEqualTo(1);
        assertThat(dry.json().get("points").asLong()).isEqualTo(1);
        assertThat(times(t, "a")).containsExactly(now - 30, now - 20, now - 10);

        TestHttp.Answer real = delete(t.admin(), "{\"measurement\":\"cpu\",\"tags\":{\"host\":\"a\"}" + range + "}");
        assertThat(real.status()).as(real.body()).isEqualTo(200);
        assertThat(real.json().get("seriesDeleted").asLong()).isEqualTo(1);
        assertThat(real.json().get("pointsDeleted").asLong()).isEqualTo(1);
        assertThat(times(t, "a")).containsExactly(now - 30, now - 10);
        assertThat(times(t, "b")).containsExactly(now - 20);

        TestHttp.Answer all = delete(t.admin(), "{\"measurement\":\"cpu\"}");
        assertThat(all.json().get("seriesDeleted").asLong()).isEqualTo(2);
        assertThat(times(t, "a")).isEmpty();
        assertThat(times(t, "b")).isEmpty();
        assertThat(write(t, "cpu,host=a v=9 " + (now - 5) + "\n").status()).isEqualTo(204);
        assertThat(times(t, "a")).as("a later write of a deleted series is kept").containsExactly(now - 5);
    }

    @Test
    void invalidBodiesAre400NamingTheField() {
        Tenant t = tenant("P30D");
        TestHttp.Answer noMeasurement = delete(t.admin(), "{\"tags\":{\"host\":\"a\"}}");
        assertThat(noMeasurement.status()).isEqualTo(400);
        assertThat(noMeasurement.header("Content-Type")).startsWith("application/problem+json");
        assertThat(noMeasurement.json().get("errorId").asString()).isEqualTo("invalid-field");
        assertThat(noMeasurement.json().get("errors").get(0).get("field").asString()).isEqualTo("measurement");

        TestHttp.Answer badStart = delete(t.admin(), "{\"measurement\":\"cpu\",\"start\":\"yesterday\"}");
        assertThat(badStart.status()).isEqualTo(400);
        assertThat(badStart.json().get("errors").get(0).get("field").asString()).isEqualTo("start");

        TestHttp.Answer backwards = delete(t.admin(), "{\"measurement\":\"cpu\",\"start\":\"2026-12-02T00:00:00Z\",\"end\":\"2026-12-01T00:00:00Z\"}");
        assertThat(backwards.status()).isEqualTo(400);
        assertThat(backwards.json().get("errors").get(0).get("field").asString()).isEqualTo("end");

        TestHttp.Answer unknown = delete(t.admin(), "{\"measurement\":\"cpu\",\"stop\":\"2026-12-01T00:00:00Z\"}");
        assertThat(unknown.status()).isEqualTo(400);
        assertThat(unknown.body()).contains("stop");
    }

    @Test
    void anotherTenantsNamespaceIsNotFoundAndAWriteTokenIsForbidden() {
        Tenant owner = tenant("P30D");
        Tenant other = tenant("P30D");
        assertThat(write(owner, "cpu,host=a v=1 " + Instant.now().getEpochSecond() + "\n").status()).isEqualTo(204);
        TestHttp http = new TestHttp(port);
        assertThat(http.send("POST", "/api/v1/namespaces", owner.admin(), "{\"name\":\"owned\",\"retention\":\"P30D\"}").status())
                .isEqualTo(201);
        TestHttp.Answer foreign = http.send("POST", "/api/v1/namespaces/owned/delete", other.admin(), "{\"measurement\":\"cpu\"}");
        TestHttp.Answer missing = http.send("POST", "/api/v1/namespaces/nothing-here/delete", other.admin(), "{\"measurement\":\"cpu\"}");
        assertThat(foreign.status()).isEqualTo(404);
        assertThat(foreign.json().get("errorId").asString()).isEqualTo("namespace-not-found");
        assertThat(missing.status()).isEqualTo(404);
        assertThat(foreign.json().get("title").asString()).as("indistinguishable from a missing one").isEqualTo(missing.json().get("title").asString());
        assertThat(delete(other.admin(), "{\"measurement\":\"cpu\"}").json().get("seriesDeleted").asLong())
                .as("the other tenant's own namespace has nothing of the owner's").isZero();
        assertThat(times(owner, "a")).hasSize(1);
        assertThat(delete(owner.writer(), "{\"measurement\":\"cpu\"}").status()).isEqualTo(403);
        assertThat(delete(null, "{\"measurement\":\"cpu\"}").status()).isEqualTo(401);
        assertThat(times(owner, "a")).hasSize(1);
    }

    @Test
    void theLifecyclePassEnforcesTheNamespacesRetention() {
        Tenant t = tenant("P1D");
        long now = Instant.now().getEpochSecond();
        // an empty namespace accepts any start; then time order
        assertThat(write(t, "cpu,host=a v=1 " + (now - 3 * 86_400) + "\n").status()).isEqualTo(204);
        assertThat(write(t, "cpu,host=a v=2 " + (now - 60) + "\n").status()).isEqualTo(204);
        Namespace ns = directory.namespace(t.id(), "metrics").orElseThrow();
        engines.apply(ns, e -> {
            e.flush();
            return null;
        });
        lifecycle.runOnce();
        assertThat(times(t, "a")).as("the 3-day-old shard is past P1D").containsExactly(now - 60);
        long series = engines.apply(ns, e -> e.seriesCount());
        assertThat(series).isEqualTo(1);
    }
}
