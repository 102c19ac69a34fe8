package io.chronix.api.lifecycle;

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
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The rollup endpoints, every status they answer, and their materialisation through compaction, against a real PostgreSQL. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class RollupEndpointTest {

    static final String OPERATOR = "operator-token-for-rollup-tests";
    static final AtomicInteger TENANTS = new AtomicInteger();
    static final long SECOND = 1_000_000_000L;
    static final long HOUR = 3600 * SECOND;

    @TempDir
    static Path data;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        ServiceTestProperties.register(registry, data, OPERATOR);
        registry.add("chronix.engine.retention-interval", () -> "PT1H");
    }

    @Value("${local.server.port}")
    int port;

    record Tenant(UUID id, String admin, String writer) {
    }

    private Tenant tenant() {
        TestHttp http = new TestHttp(port);
        String name = "r" + TENANTS.incrementAndGet() + "-" + UUID.randomUUID().toString().substring(0, 6);
        JsonNode t = http.send("POST", "/api/v1/tenants", OPERATOR, "{\"name\":\"" + name + "\",\"adminEmail\":\"" + name
                + "@example.com\",\"adminPassword\":\"correct horse battery\"}").json();
        String admin = t.get("adminToken").asString();
        assertThat(http.send("POST", "/api/v1/namespaces", admin, "{\"name\":\"metrics\",\"retention\":\"P30D\"}").status()).isEqualTo(201);
        String writer = http.send("POST", "/api/v1/tokens", admin, "{\"description\":\"w\",\"scopes\":[\"write:metrics\",\"read:metrics\"]}")
                .json().get("token").asString();
        return new Tenant(UUID.fromString(t.get("id").asString()), admin, writer);
    }

    private TestHttp.Answer send(String method, String path, String token, String body) {
        return new TestHttp(port).send(method, "/api/v1/namespaces/metrics" + path, token, body);
    }

    private TestHttp.Answer create(Tenant t, String body) {
        return send("POST", "/rollups", t.admin(), body);
    }

    private TestHttp.Answer write(Tenant t, String query, String lines) {
        return new TestHttp(port).send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/api/v1/namespaces/metrics/write" + query))
                .header("Authorization", "Bearer " + t.writer()).header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString(lines)).build());
    }

    private JsonNode sql(Tenant t, String statement) {
        TestHttp.Answer a = send("POST", "/query", t.admin(), "{\"sql\":" + TestHttp.JSON.writeValueAsString(statement) + "}");
        assertThat(a.status()).as(a.body()).isEqualTo(200);
        return a.json().get("rows");
    }

    private static String field(TestHttp.Answer a) {
        assertThat(a.status()).as(a.body()).isEqualTo(400);
        assertThat(a.json().get("errorId").asString()).as(a.body()).isIn("invalid-field", "unknown-field");
        return a.json().get("errors").get(0).get("field").asString();
    }

    @Test
    void createListGetRefreshDeleteAndTheirNotFounds() {
        Tenant t = tenant();
        TestHttp.Answer created = create(t, """
                {"name": "cpu_1h", "source": "cpu", "target": "cpu_1h", "every": "1h", "timezone": "UTC", "origin": null,
                 "aggregates": ["avg", "min", "max", "count", "sum", "first", "last"]}""");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        assertThat(created.header("Location")).isEqualTo("/api/v1/namespaces/metrics/rollups/cpu_1h");
        JsonNode c = created.json();
        assertThat(c.get("name").asString()).isEqualTo("cpu_1h");
        assertThat(c.get("source").asString()).isEqualTo("cpu");
        assertThat(c.get("every").asString()).isEqualTo("1h");
        assertThat(c.get("timezone").asString()).isEqualTo("UTC");
        assertThat(c.get("origin").isNull()).isTrue();
        assertThat(c.get("materialisedUntil").isNull()).isTrue();
        assertThat(c.get("pendingInvalid").size()).isZero();
        assertThat(c.get("aggregates").toString()).isEqualTo("[\"avg\",\"min\",\"max\",\"first\",\"last\",\"sum\",\"count\"]");

        // a calendar tier over the first, target defaulting to its name, every aggregate by default
        TestHttp.Answer daily = create(t, "{\"name\":\"cpu_1d\",\"source\":\"cpu_1h\",\"every\":\"1d\",\"timezone\":\"Europe/Berlin\","
                + "\"origin\":\"2026-01-01\"}");
        assertThat(daily.status()).as(daily.body()).isEqualTo(201);
        assertThat(daily.json().get("target").asString()).isEqualTo("cpu_1d");
        assertThat(daily.json().get("origin").asString()).isEqualTo("2026-01-01T00:00");
        assertThat(daily.json().get("aggregates").size()).isEqualTo(7);

        TestHttp.Answer list = send("GET", "/rollups", t.admin(), null);
        assertThat(list.status()).isEqualTo(200);
        assertThat(list.json().size()).isEqualTo(2);
        assertThat(list.json().get(0).get("name").asString()).isEqualTo("cpu_1h"); // sources before their tiers
        assertThat(send("GET", "/rollups/cpu_1d", t.admin(), null).json().get("timezone").asString()).isEqualTo("Europe/Berlin");

        TestHttp.Answer duplicate = create(t, "{\"name\":\"cpu_1h\",\"source\":\"mem\",\"target\":\"mem_1h\",\"every\":\"1h\"}");
        assertThat(duplicate.status()).as(duplicate.body()).isEqualTo(409);
        assertThat(duplicate.json().get("errorId").asString()).isEqualTo("name-taken");
        assertThat(duplicate.json().get("errors").get(0).get("field").asString()).isEqualTo("name");

        TestHttp.Answer missing = send("GET", "/rollups/nope", t.admin(), null);
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.json().get("errorId").asString()).isEqualTo("rollup-not-found");
        assertThat(send("POST", "/rollups/nope/refresh", t.admin(), "{\"start\":\"2026-01-01T00:00:00Z\",\"end\":\"2026-01-02T00:00:00Z\"}")
                .status()).isEqualTo(404);
        assertThat(send("DELETE", "/rollups/nope", t.admin(), null).status()).isEqualTo(404);

        TestHttp.Answer refreshed = send("POST", "/rollups/cpu_1h/refresh", t.admin(),
                "{\"start\":\"2026-01-01T00:00:00Z\",\"end\":\"2026-01-02T00:00:00Z\"}");
        assertThat(refreshed.status()).as(refreshed.body()).isEqualTo(200);
        assertThat(refreshed.json().get("name").asString()).isEqualTo("cpu_1h");
        assertThat(field(send("POST", "/rollups/cpu_1h/refresh", t.admin(), "{\"start\":\"2026-01-02T00:00:00Z\",\"end\":\"2026-01-01T00:00:00Z\"}")))
                .isEqualTo("end");
        assertThat(field(send("POST", "/rollups/cpu_1h/refresh", t.admin(), "{\"start\":\"yesterday\",\"end\":\"2026-01-01T00:00:00Z\"}")))
                .isEqualTo("start");
        assertThat(field(send("POST", "/rollups/cpu_1h/refresh", t.admin(), "{\"end\":\"2026-01-01T00:00:00Z\"}"))).isEqualTo("start");

        assertThat(send("DELETE", "/rollups/cpu_1d", t.admin(), null).status()).isEqualTo(204);
        assertThat(send("GET", "/rollups/cpu_1d", t.admin(), null).status()).isEqualTo(404);
        assertThat(send("DELETE", "/rollups/cpu_1d", t.admin(), null).status()).isEqualTo(404);
        assertThat(send("GET", "/rollups", t.admin(), null).json().size()).isEqualTo(1);
    }

    @Test
    void everyBadFieldIs400NamingIt() {
        Tenant t = tenant();
        String ok = "\"name\":\"r\",\"source\":\"cpu\",\"target\":\"cpu_r\"";
        assertThat(field(create(t, "{" + ok + ",\"every\":\"7x\"}"))).isEqualTo("every");
        assertThat(field(create(t, "{" + ok + ",\"every\":\"0h\"}"))).isEqualTo("every");
        assertThat(field(create(t, "{" + ok + ",\"every\":\"1d\",\"timezone\":\"Mars/Olympus\"}"))).isEqualTo("timezone");
        assertThat(field(create(t, "{" + ok + ",\"every\":\"1d\",\"origin\":\"not a time\"}"))).isEqualTo("origin");
        assertThat(field(create(t, "{" + ok + ",\"every\":\"1h\",\"aggregates\":[\"avg\",\"median\"]}"))).isEqualTo("aggregates[1]");
        assertThat(field(create(t, "{" + ok + ",\"every\":\"1h\",\"aggregates\":[]}"))).isEqualTo("aggregates");
        assertThat(field(create(t, "{\"name\":\"bad name!\",\"source\":\"cpu\",\"every\":\"1h\"}"))).isEqualTo("name");
        assertThat(field(create(t, "{\"name\":\"r\",\"every\":\"1h\"}"))).isEqualTo("source");
        assertThat(field(create(t, "{\"name\":\"r\",\"source\":\"cpu\"}"))).isEqualTo("every");
        assertThat(field(create(t, "{\"name\":\"r\",\"source\":\"cpu\",\"target\":\"cpu\",\"every\":\"1h\"}"))).isEqualTo("target");
        assertThat(field(create(t, "{" + ok + ",\"every\":\"1h\",\"stop\":1}"))).isEqualTo("stop");
        TestHttp.Answer several = create(t, "{\"every\":\"1h\",\"aggregates\":[\"mode\"]}");
        assertThat(several.status()).isEqualTo(400);
        assertThat(several.json().get("errors").findValuesAsString("field")).containsExactly("name", "source", "aggregates[0]");

        // a cycle: a -> b, then b -> a
        assertThat(create(t, "{\"name\":\"ab\",\"source\":\"a\",\"target\":\"b\",\"every\":\"1m\"}").status()).isEqualTo(201);
        TestHttp.Answer cycle = create(t, "{\"name\":\"ba\",\"source\":\"b\",\"target\":\"a\",\"every\":\"1h\"}");
        assertThat(field(cycle)).isEqualTo("target");
        assertThat(cycle.json().get("detail").asString()).contains("feed itself");
        // a target another rollup writes
        assertThat(field(create(t, "{\"name\":\"cb\",\"source\":\"c\",\"target\":\"b\",\"every\":\"1h\"}"))).isEqualTo("target");
        assertThat(send("GET", "/rollups", t.admin(), null).json().size()).isEqualTo(1);
    }

    @Test
    void scopesAndTenantsAreEnforced() {
        Tenant t = tenant();
        Tenant other = tenant();
        String body = "{\"name\":\"cpu_1h\",\"source\":\"cpu\",\"every\":\"1h\"}";
        assertThat(create(t, body).status()).isEqualTo(201);
        TestHttp.Answer noScope = send("GET", "/rollups", t.writer(), null);
        assertThat(noScope.status()).isEqualTo(403);
        assertThat(noScope.json().get("errorId").asString()).isEqualTo("missing-scope");
        assertThat(send("POST", "/rollups", t.writer(), body).status()).isEqualTo(403);
        assertThat(send("DELETE", "/rollups/cpu_1h", t.writer(), null).status()).isEqualTo(403);
        assertThat(send("GET", "/rollups", null, null).status()).isEqualTo(401);
        // the other tenant's "metrics" is its own: it has no rollup of this name
        assertThat(send("GET", "/rollups/cpu_1h", other.admin(), null).status()).isEqualTo(404);
        assertThat(send("GET", "/rollups", other.admin(), null).json().size()).isZero();
        TestHttp.Answer elsewhere = new TestHttp(port).send("GET", "/api/v1/namespaces/nope/rollups", t.admin(), null);
        assertThat(elsewhere.status()).isEqualTo(404);
        assertThat(elsewhere.json().get("errorId").asString()).isEqualTo("namespace-not-found");
    }

    @Test
    void compactionMaterialisesAndABackfillBelowTheWatermarkIsRepaired() {
        Tenant t = tenant();
        assertThat(create(t, "{\"name\":\"cpu_1h\",\"source\":\"cpu\",\"every\":\"1h\",\"aggregates\":[\"avg\",\"min\",\"max\",\"count\",\"sum\"]}")
                .status()).isEqualTo(201);
        long now = System.currentTimeMillis() * 1_000_000L;
        long first = (now / HOUR - 12) * HOUR;
        StringBuilder lines = new StringBuilder();
        TreeMap<Long, List<Double>> expected = new TreeMap<>();
        for (int i = 0; i < 36; i++) { // every 10 minutes for 6 hours: more than the out-of-order window
            long ts = first + i * 600 * SECOND;
            double v = (i * 7) % 11 + 0.5;
            lines.append("cpu,host=a usage=").append(v).append(' ').append(ts).append('\n');
            expected.computeIfAbsent(ts / HOUR * HOUR, k -> new ArrayList<>()).add(v);
        }
        // a new, empty namespace accepts any span of history; the flag then rewrites the same points
        assertThat(write(t, "", lines.toString()).status()).isEqualTo(204);
        assertThat(write(t, "?backfill=true", lines.toString()).status()).isEqualTo(204);

        TestHttp.Answer compact = send("POST", "/compact", t.admin(), null);
        assertThat(compact.status()).as(compact.body()).isEqualTo(200);
        JsonNode after = compact.json().get("rollups").get(0);
        assertThat(after.get("name").asString()).isEqualTo("cpu_1h");
        assertThat(after.get("previouslyMaterialisedUntil").isNull()).isTrue();
        long watermark = nanos(after.get("materialisedUntil").asString());
        // final: every bucket before the oldest shard the out-of-order window still admits (2 shards of 1 h behind the newest point)
        assertThat(watermark).isBetween(first + 3 * HOUR, first + 5 * HOUR);
        assertThat(send("GET", "/rollups/cpu_1h", t.admin(), null).json().get("materialisedUntil").asString())
                .isEqualTo(after.get("materialisedUntil").asString());
        assertBuckets(t, expected); // materialised buckets, then the live half computed from the source

        // a backfill below the watermark: pending until the next pass, then repaired
        long late = first + 2 * HOUR + 5 * 60 * SECOND;
        assertThat(write(t, "", "cpu,host=a usage=100 " + late).status()).isEqualTo(422);
        TestHttp.Answer backfill = write(t, "?backfill=true", "cpu,host=a usage=100 " + late);
        assertThat(backfill.status()).as(backfill.body()).isEqualTo(204);
        expected.get(first + 2 * HOUR).add(100.0);
        JsonNode pending = send("GET", "/rollups/cpu_1h", t.admin(), null).json().get("pendingInvalid");
        assertThat(pending.size()).isEqualTo(1);
        assertThat(nanos(pending.get(0).get("start").asString())).isEqualTo(first + 2 * HOUR);
        assertThat(nanos(pending.get(0).get("end").asString())).isEqualTo(first + 3 * HOUR);
        assertThat(send("POST", "/compact", t.admin(), null).json().get("rollups").get(0).get("pendingInvalid").asInt()).isZero();
        assertBuckets(t, expected);

        // a refresh recomputes at once
        JsonNode refreshed = send("POST", "/rollups/cpu_1h/refresh", t.admin(), "{\"start\":\"" + Instant.ofEpochSecond(first / SECOND)
                + "\",\"end\":\"" + Instant.ofEpochSecond(first / SECOND + 7200) + "\"}").json();
        assertThat(refreshed.get("pendingInvalid").size()).isZero();
        assertThat(refreshed.get("lastError").isNull()).isTrue();
        assertBuckets(t, expected);
    }

    private void assertBuckets(Tenant t, TreeMap<Long, List<Double>> expected) {
        JsonNode rows = sql(t, "SELECT time, usage_avg, usage_min, usage_max, usage_count, usage_sum FROM cpu_1h ORDER BY time");
        assertThat(rows.size()).isEqualTo(expected.size());
        int i = 0;
        for (var e : expected.entrySet()) {
            JsonNode r = rows.get(i++);
            List<Double> v = e.getValue();
            double sum = v.stream().mapToDouble(Double::doubleValue).sum();
            assertThat(nanos(r.get(0).asString())).isEqualTo(e.getKey());
            assertThat(r.get(1).asDouble()).isCloseTo(sum / v.size(), org.assertj.core.data.Offset.offset(1e-9));
            assertThat(r.get(2).asDouble()).isEqualTo(v.stream().mapToDouble(Double::doubleValue).min().orElseThrow());
            assertThat(r.get(3).asDouble()).isEqualTo(v.stream().mapToDouble(Double::doubleValue).max().orElseThrow());
            assertThat(r.get(4).asLong()).isEqualTo(v.size());
            assertThat(r.get(5).asDouble()).isCloseTo(sum, org.assertj.core.data.Offset.offset(1e-9));
        }
    }

    private static long nanos(String rfc3339) {
        Instant i = Instant.parse(rfc3339);
        return i.getEpochSecond() * SECOND + i.getNano();
    }
}
