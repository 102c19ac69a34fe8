package io.chronix.it.rollup;

import io.chronix.it.support.ExternalServices;
import io.chronix.it.support.ServiceProcess;
import io.chronix.it.write.WriteClient;
import io.chronix.it.write.WriteClient.Tenant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

/**
 * API.md "Data lifecycle" rollups end to end: create a rollup, write raw points, compact (which
 * materialises), query the target with SQL and compare every aggregate with the values computed
 * here; a backfill below the watermark is pending until the next pass and then repaired; the
 * definition and watermark survive a restart; the rollup is removed.
 */
class RollupIT {

    static final String OPERATOR = "it-operator-token-rollup";
    static final long SECOND = 1_000_000_000L;
    static final long HOUR = 3600 * SECOND;
    static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path data;

    /** One raw point of the test's data. */
    record Point(long time, String host, double usage, long n) {
    }

    /** What the target must hold for one (host, bucket). */
    record Expected(double avg, double min, double max, long count, double sum, double first, double last, long nSum) {
        static Expected of(List<Point> in) {
            List<Point> p = in.stream().sorted(java.util.Comparator.comparingLong(Point::time)).toList();
            double sum = p.stream().mapToDouble(Point::usage).sum();
            return new Expected(sum / p.size(), p.stream().mapToDouble(Point::usage).min().orElseThrow(),
                    p.stream().mapToDouble(Point::usage).max().orElseThrow(), p.size(), sum, p.getFirst().usage(), p.getLast().usage(),
                    p.stream().mapToLong(Point::n).sum());
        }
    }

    @Test
    void aRollupMaterialisesIsRepairedAfterABackfillSurvivesARestartAndIsRemoved() throws Exception {
        ExternalServices services = ExternalServices.fresh();
        List<String> args = new ArrayList<>(services.args());
        args.add("--chronix.operator-token=" + OPERATOR);
        long now = System.currentTimeMillis() * 1_000_000L;
        long first = (now / HOUR - 14) * HOUR;
        List<Point> points = new ArrayList<>();
        java.util.Random random = new java.util.Random(Long.getLong("chronix.test.seed", 10L));
        for (int i = 0; i < 8 * 12; i++) { // every 5 minutes for 8 hours, two hosts
            for (String host : List.of("a", "b")) {
                points.add(new Point(first + i * 300 * SECOND + random.nextInt(1000) * 1_000_000L, host,
                        Math.round(random.nextDouble() * 10_000) / 100.0, random.nextInt(100)));
            }
        }
        Tenant t;
        String watermark;
        try (ServiceProcess service = ServiceProcess.start(data, args)) {
            WriteClient c = new WriteClient(service);
            t = c.tenant(OPERATOR, "rollups", null);
            c.namespace(t.admin(), "m");
            HttpResponse<String> created = c.json("POST", "/api/v1/namespaces/m/rollups", t.admin(), """
                    {"name": "cpu_1h", "source": "cpu", "target": "cpu_1h", "every": "1h", "timezone": "UTC", "origin": null,
                     "aggregates": ["avg", "min", "max", "count", "sum", "first", "last"]}""");
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            assertThat(WriteClient.body(created).get("materialisedUntil").isNull()).isTrue();

            // history older than the out-of-order window: loaded with backfill=true
            StringBuilder lines = new StringBuilder();
            for (Point p : points) {
                lines.append("cpu,host=").append(p.host()).append(" usage=").append(p.usage()).append(",n=").append(p.n()).append("i ")
                        .append(p.time()).append('\n');
            }
            assertThat(c.write(t.admin(), "m", "?backfill=true", lines.toString()).statusCode()).isEqualTo(204);

            HttpResponse<String> compact = c.json("POST", "/api/v1/namespaces/m/compact", t.admin(), null);
            assertThat(compact.statusCode()).as(compact.body()).isEqualTo(200);
            JsonNode after = WriteClient.body(compact).get("rollups").get(0);
            assertThat(after.get("name").asString()).isEqualTo("cpu_1h");
            assertThat(after.get("lastError").isNull()).isTrue();
            watermark = after.get("materialisedUntil").asString();
            long w = nanos(watermark);
            assertThat(w).as("materialised up to the out-of-order window behind the newest point").isBetween(first + 2 * HOUR, first + 8 * HOUR);
            assertTarget(c, t, points);

            // a late point below the watermark: refused without the flag, then backfilled; the bucket is pending, then repaired
            Point late = new Point(first + HOUR + 7 * 60 * SECOND, "a", 1_000_000.0, 5);
            String line = "cpu,host=a usage=" + late.usage() + ",n=" + late.n() + "i " + late.time();
            assertThat(c.write(t.admin(), "m", "", line).statusCode()).isEqualTo(422);
            assertThat(c.write(t.admin(), "m", "?backfill=true", line).statusCode()).isEqualTo(204);
            points.add(late);
            JsonNode pending = WriteClient.body(c.json("GET", "/api/v1/namespaces/m/rollups/cpu_1h", t.admin(), null)).get("pendingInvalid");
            assertThat(pending.size()).isEqualTo(1);
            assertThat(nanos(pending.get(0).get("start").asString())).isEqualTo(first + HOUR);
            assertThat(nanos(pending.get(0).get("end").asString())).isEqualTo(first + 2 * HOUR);
            JsonNode repaired = WriteClient.body(c.json("POST", "/api/v1/namespaces/m/compact", t.admin(), null)).get("rollups").get(0);
            assertThat(repaired.get("pendingInvalid").asInt()).isZero();
            assertThat(repaired.get("materialisedUntil").asString()).isEqualTo(watermark);
            assertTarget(c, t, points);
        }

        try (ServiceProcess service = ServiceProcess.start(data, args)) {
            WriteClient c = new WriteClient(service);
            JsonNode r = WriteClient.body(c.json("GET", "/api/v1/namespaces/m/rollups/cpu_1h", t.admin(), null));
            assertThat(r.get("materialisedUntil").asString()).isEqualTo(watermark);
            assertThat(r.get("pendingInvalid").size()).isZero();
            assertTarget(c, t, points);

            assertThat(c.json("DELETE", "/api/v1/namespaces/m/rollups/cpu_1h", t.admin(), null).statusCode()).isEqualTo(204);
            assertThat(c.json("GET", "/api/v1/namespaces/m/rollups/cpu_1h", t.admin(), null).statusCode()).isEqualTo(404);
            assertThat(WriteClient.body(c.json("GET", "/api/v1/namespaces/m/rollups", t.admin(), null)).size()).isZero();
            // the materialised points stay in the target (a delete removes them)
            JsonNode kept = query(c, t, "SELECT count(*) FROM cpu_1h WHERE time < TIMESTAMP_NS '" + watermark.replace("T", " ").replace("Z", "") + "'");
            assertThat(kept.get(0).get(0).asLong()).isEqualTo(2L * ((nanos(watermark) - first) / HOUR));
        }
    }

    /** Every (host, hour) of the target, read through SQL, equals the aggregates of the raw points computed here. */
    private static void assertTarget(WriteClient c, Tenant t, List<Point> points) throws Exception {
        Map<String, Expected> expected = new TreeMap<>();
        Map<String, List<Point>> groups = new TreeMap<>();
        for (Point p : points) {
            groups.computeIfAbsent(p.host() + "@" + Math.floorDiv(p.time(), HOUR) * HOUR, k -> new ArrayList<>()).add(p);
        }
        groups.forEach((k, v) -> expected.put(k, Expected.of(v)));
        JsonNode rows = query(c, t, "SELECT host, time, usage_avg, usage_min, usage_max, usage_count, usage_sum, usage_first, usage_last, "
                + "n_sum FROM cpu_1h ORDER BY host, time");
        assertThat(rows.size()).isEqualTo(expected.size());
        for (JsonNode r : rows) {
            String key = r.get(0).asString() + "@" + nanos(r.get(1).asString());
            Expected e = expected.get(key);
            assertThat(e).as("a bucket the raw data has: " + key).isNotNull();
            assertThat(r.get(2).asDouble()).as(key + " avg").isCloseTo(e.avg(), offset(1e-6));
            assertThat(r.get(3).asDouble()).as(key + " min").isEqualTo(e.min());
            assertThat(r.get(4).asDouble()).as(key + " max").isEqualTo(e.max());
            assertThat(r.get(5).asLong()).as(key + " count").isEqualTo(e.count());
            assertThat(r.get(6).asDouble()).as(key + " sum").isCloseTo(e.sum(), offset(1e-6));
            assertThat(r.get(7).asDouble()).as(key + " first").isEqualTo(e.first());
            assertThat(r.get(8).asDouble()).as(key + " last").isEqualTo(e.last());
            assertThat(r.get(9).asDouble()).as(key + " n sum").isEqualTo((double) e.nSum());
        }
    }

    private static JsonNode query(WriteClient c, Tenant t, String sql) throws Exception {
        HttpResponse<String> r = c.json("POST", "/api/v1/namespaces/m/query", t.admin(), "{\"sql\": " + JSON.writeValueAsString(sql) + "}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return WriteClient.body(r).get("rows");
    }

    private static long nanos(String rfc3339) {
        Instant i = Instant.parse(rfc3339);
        return i.getEpochSecond() * SECOND + i.getNano();
    }
}
