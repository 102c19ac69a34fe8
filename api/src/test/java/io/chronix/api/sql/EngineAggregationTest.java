package io.chronix.api.sql;

import io.chronix.engine.read.ScanHelpers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static io.chronix.api.sql.SqlFixture.SECOND;
import static io.chronix.api.sql.SqlFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Statements of the {@link AggregateShape} are answered by {@link EngineAggregation} without DuckDB.
 * On random data — NULL tags and fields, two tags, integer and float fields with negative values,
 * {@code -0.0}, {@code 0.0} and NaN, overwrites in memtables over flushed time, deletes, compaction,
 * several shards — each random statement of that shape must give what DuckDB gives over the same
 * scan — on the caller alone, or shared out with a helper thread and merged — the same column
 * names, types and rows in the same order, doubles to the bit but for sums
 * and means of doubles, whose order of addition is DuckDB's own ({@link #assertSameRows}). DuckDB's
 * answer comes from the same statement with {@code HAVING true} added, which changes no answer
 * but is outside the shape.
 */
class EngineAggregationTest {

    @TempDir Path dir;


    private static final String[] WIDTHS = {"3 microseconds", "250 milliseconds", "1 second", "7 seconds", "1 minute",
            "10 MINUTES", "1 hour", "90 minutes", " 2 hours "};

    @Test
    void answersAsDuckDbDoesOverTheSameScan() {
        long seed = Long.getLong("chronix.test.seed", System.nanoTime());
        Random r = new Random(seed);
        int taken = 0;
        java.util.concurrent.ExecutorService helperPool = java.util.concurrent.Executors.newFixedThreadPool(1);
        try (helperPool; SqlFixture f = new SqlFixture(dir, SqlFixture.config().withOooToleranceShards(100))) {
            // every column the statements name exists from the first write on (else every query is a binder error)
            f.write(b -> b.beginPoint("cpu", T0).tag("host", "a").tag("dc", "x").floatField("usage", 1).integerField("n", 1)
                    .stringField("state", "ok").endPoint());
            for (int step = 0; step < 10; step++) {
                int points = 1 + r.nextInt(300);
                f.write(b -> {
                    for (int p = 0; p < points; p++) {
                        b.beginPoint("cpu", T0 + r.nextInt(4 * 3600) * SECOND + r.nextInt(3)); // four hourly shards, overwrites
                        SqlModelTest.randomTags(r, b, true);
                        boolean any = false;
                        if (r.nextInt(4) > 0) {
                            b.floatField("usage", floatValue(r));
                            any = true;
                        }
                        if (r.nextInt(4) > 0) {
                            b.integerField("n", r.nextInt(2001) - 1000);
                            any = true;
                        }
                        if (!any || r.nextInt(5) == 0) {
                            b.stringField("state", r.nextBoolean() ? "ok" : "busy");
                        }
                        b.endPoint();
                    }
                });
                f.randomMaintenance(r);
                for (int q = 0; q < 15; q++) {
                    Statement s = randomStatement(r);
                    // every other statement shares its batches out between two threads, each with groups of its own
                    SqlFixture.Answer fast = q % 2 == 0 ? f.answer(s.sql(false))
                            : f.answer(s.sql(false), new EngineTables(f.engine, new ScanHelpers(helperPool, 1, 0)));
                    SqlFixture.Answer full = f.answer(s.sql(true));
                    assertThat(full.by()).isEqualTo(SqlQuery.AnsweredBy.DUCKDB);
                    assertThat(fast.columns()).as("seed %d: %s", seed, s.sql(false)).isEqualTo(full.columns());
                    List<String> fastRows = fast.rows();
                    List<String> fullRows = full.rows();
                    if (s.orders.isEmpty()) { // no ORDER BY: DuckDB's order is its own
                        fastRows = sorted(fastRows);
                        fullRows = sorted(fullRows);
                    }
                    assertSameRows(fast.columns(), fastRows, fullRows, q % 2 == 1, "seed " + seed + ": " + s.sql(false));
                    if (fast.by() == SqlQuery.AnsweredBy.ENGINE_AGGREGATE) {
                        taken++;
                    }
                }
            }
        }
        assertThat(taken).as("seed %d: the engine answered", seed).isGreaterThan(100);
    }

    @Test
    void leavesEverythingElseToDuckDb() {
        try (SqlFixture f = new SqlFixture(dir)) {
            f.write(b -> b.beginPoint("cpu", T0).tag("host", "a").floatField("usage", 1).integerField("n", 1).endPoint()
                    .beginPoint("cpu", T0 + SECOND).tag("host", "b").floatField("usage", 2).integerField("n", 2).endPoint());
            String window = " WHERE time >= TIMESTAMP '2026-01-01 00:00:00' AND time < TIMESTAMP '2026-01-01 01:00:00'";
            assertThat(f.answer("SELECT time_bucket(INTERVAL '1 minute', time) AS b, max(usage) AS m FROM cpu" + window
                    + " GROUP BY 1 ORDER BY 1").by()).isEqualTo(SqlQuery.AnsweredBy.ENGINE_AGGREGATE);
            for (String sql : List.of(
                    "SELECT max(usage) FROM cpu", // no alias: DuckDB names it
                    "SELECT sum(n) AS s FROM cpu", // a HUGEINT
                    "SELECT max(usage) AS m FROM cpu WHERE usage > 1", // a field predicate
                    "SELECT max(usage) AS m FROM cpu WHERE host = 'a' AND host = 'b'", // two predicates on one tag
                    "SELECT max(usage) AS m FROM cpu WHERE host = 'a' OR host = 'b'",
                    "SELECT host, max(usage) AS m FROM cpu GROUP BY 1 LIMIT 1", // LIMIT without ORDER BY
                    "SELECT host, max(usage) AS m FROM cpu GROUP BY 1 ORDER BY m", // ORDER BY an aggregate
                    "SELECT host, max(usage) AS m FROM cpu GROUP BY 1 ORDER BY 1 LIMIT 50 PERCENT", // a share, not a count
                    "SELECT max(usage) AS m FROM cpu GROUP BY host", // a group key not in the answer
                    "SELECT time_bucket(INTERVAL '1 day', time) AS b, max(usage) AS m FROM cpu GROUP BY 1",
                    "SELECT time_bucket(INTERVAL '1 month', time) AS b, max(usage) AS m FROM cpu GROUP BY 1",
                    "SELECT time_bucket(INTERVAL '1 hour', time, TIMESTAMP '2026-01-01 00:30:00') AS b, max(usage) AS m FROM cpu GROUP BY 1",
                    "SELECT time_bucket(INTERVAL '1 hour', time) AS a, time_bucket(INTERVAL '1 minute', time) AS b, max(usage) AS m FROM cpu GROUP BY 1, 2",
                    "SELECT host, max(usage) AS m FROM cpu GROUP BY ROLLUP (host)",
                    "SELECT DISTINCT host, max(usage) AS m FROM cpu GROUP BY 1",
                    "SELECT max(DISTINCT usage) AS m FROM cpu",
                    "SELECT max(usage) FILTER (WHERE n > 1) AS m FROM cpu",
                    "SELECT max(c.usage) AS m FROM cpu c, cpu d",
                    "WITH x AS (SELECT 1) SELECT max(usage) AS m FROM cpu",
                    "SELECT max(usage + 1) AS m FROM cpu",
                    "SELECT host, max(usage) AS m FROM cpu GROUP BY 1 HAVING max(usage) > 1")) {
                assertThat(f.answer(sql).by()).as(sql).isEqualTo(SqlQuery.AnsweredBy.DUCKDB);
            }
        }
    }

    @Test
    void signedZerosAndNaNAsInDuckDb() {
        try (SqlFixture f = new SqlFixture(dir)) {
            double[][] series = {{-0.0, 0.0}, {0.0, -0.0}, {1.0, Double.NaN, 2.0}, {Double.NaN, -1.0}, {-0.0, -0.0, 0.0, 0.0}};
            f.write(b -> {
                for (int s = 0; s < series.length; s++) {
                    for (int i = 0; i < series[s].length; i++) {
                        b.beginPoint("cpu", T0 + i * SECOND).tag("host", "h" + s).floatField("usage", series[s][i]).endPoint();
                    }
                }
            });
            for (boolean flushed : new boolean[]{false, true}) {
                String sql = "SELECT host, min(usage) AS lo, max(usage) AS hi, sum(usage) AS s, avg(usage) AS m FROM cpu GROUP BY 1 ORDER BY 1";
                SqlFixture.Answer fast = f.answer(sql);
                assertThat(fast.by()).isEqualTo(SqlQuery.AnsweredBy.ENGINE_AGGREGATE);
                assertThat(fast.rows()).as(flushed ? "segments" : "memtable")
                        .isEqualTo(f.answer(sql.replace(" ORDER BY", " HAVING true ORDER BY")).rows());
                f.engine.flush();
            }
        }
    }

    /**
     * A streamed scan on one thread hands its batches to two parts of the aggregate: the settled
     * segments' and then the row merge's (the memtable here). DuckDB, reading the same batches in
     * that order, keeps the later of two equal zeros, so merging the parts must keep the second's.
     */
    @Test
    void equalZerosInASegmentAndTheMemtableKeepTheLaterAsDuckDb() {
        try (SqlFixture f = new SqlFixture(dir)) {
            f.write(b -> b.beginPoint("cpu", T0).tag("host", "h0").floatField("usage", 0.0).endPoint()
                    .beginPoint("cpu", T0).tag("host", "h1").floatField("usage", -0.0).endPoint());
            f.engine.flush();
            long later = T0 + 2 * 3600 * SECOND; // another shard: the segment stays settled
            f.write(b -> b.beginPoint("cpu", later).tag("host", "h0").floatField("usage", -0.0).endPoint()
                    .beginPoint("cpu", later).tag("host", "h1").floatField("usage", 0.0).endPoint());
            for (String sql : List.of("SELECT host, min(usage) AS lo, max(usage) AS hi FROM cpu GROUP BY 1 ORDER BY 1",
                    "SELECT min(usage) AS lo, max(usage) AS hi FROM cpu WHERE host = 'h0'")) {
                SqlFixture.Answer fast = f.answer(sql);
                assertThat(fast.by()).as(sql).isEqualTo(SqlQuery.AnsweredBy.ENGINE_AGGREGATE);
                SqlFixture.Answer full = f.answer(sql.contains(" ORDER BY") ? sql.replace(" ORDER BY", " HAVING true ORDER BY") : sql + " HAVING true");
                assertThat(full.by()).as(sql).isEqualTo(SqlQuery.AnsweredBy.DUCKDB);
                assertThat(fast.rows()).as(sql).isEqualTo(full.rows());
            }
            assertThat(f.answer("SELECT host, min(usage) AS lo, max(usage) AS hi FROM cpu GROUP BY 1 ORDER BY 1").rows())
                    .containsExactly("h0|-0.0|-0.0", "h1|0.0|0.0");
        }
    }

    @Test
    void theNewestBucketsFirstReadOnlyAWindowBeforeTheEnd() {
        try (SqlFixture f = new SqlFixture(dir)) {
            // a point every 7 minutes for four hours, none in the last 40 minutes before the end asked for
            f.write(b -> {
                for (int m = 0; m < 200; m += 7) {
                    b.beginPoint("cpu", T0 + m * 60 * SECOND).tag("host", m % 2 == 0 ? "a" : "b").floatField("usage", m).endPoint();
                }
            });
            f.engine.flush();
            String end = "TIMESTAMP '2026-01-01 04:00:00'";
            for (String tail : List.of(" ORDER BY 1 DESC LIMIT 5", " ORDER BY 1 DESC LIMIT 3 OFFSET 4", " ORDER BY 1 DESC, 2 LIMIT 7",
                    " ORDER BY 1 DESC LIMIT 0", " ORDER BY 1 DESC LIMIT 100")) {
                boolean host = tail.contains(", 2");
                String sql = "SELECT time_bucket(INTERVAL '1 minute', time) AS b" + (host ? ", host" : "") + ", max(usage) AS m FROM cpu"
                        + " WHERE time < " + end + " GROUP BY 1" + (host ? ", 2" : "") + tail;
                SqlFixture.Answer fast = f.answer(sql);
                assertThat(fast.by()).as(sql).isEqualTo(SqlQuery.AnsweredBy.ENGINE_AGGREGATE);
                assertThat(fast.rows()).as(sql).isEqualTo(f.answer(sql.replace(" ORDER BY", " HAVING true ORDER BY")).rows());
            }
            try (SqlQuery q = SqlQuery.prepare(f.sandbox, f.tables(),
                    "SELECT time_bucket(INTERVAL '1 minute', time) AS b, max(usage) AS m FROM cpu WHERE time < " + end
                            + " GROUP BY 1 ORDER BY 1 DESC LIMIT 2", f.allocator)) {
                assertThat(SqlFixture.render(q.execute())).containsExactly("2026-01-01T03:16|196.0", "2026-01-01T03:09|189.0");
                // windows of 2, 8, 32 buckets back from 03:59 are empty; 128 reach back to 01:52: 13 of the 29 points
                assertThat(q.scans().getFirst().rows()).as("rows read: a window, not the whole range").isEqualTo(13);
            }
        }
    }

    @Test
    void moreGroupsThanTheHeapShouldHoldAreLeftToDuckDb() throws java.sql.SQLException {
        try (SqlFixture f = new SqlFixture(dir)) {
            f.write(b -> {
                for (int s = 0; s < 100; s++) {
                    b.beginPoint("cpu", T0 + s * SECOND).tag("host", "h" + (s % 7)).floatField("usage", s).endPoint();
                }
            });
            String sql = "SELECT time_bucket(INTERVAL '1 second', time) AS b, host, max(usage) AS m FROM cpu GROUP BY 1, 2 ORDER BY 1, 2";
            AggregateShape shape = StatementAnalysis.analyse(sql, f.sandbox.serialize(0, sql), java.util.Set.of("cpu"),
                    f.engine::schema, (text, type) -> java.util.OptionalLong.empty()).aggregate();
            try (io.chronix.engine.read.ScanResult scan = f.tables().scan(
                    new ScanPlan("cpu", Long.MIN_VALUE, Long.MAX_VALUE, List.of(), java.util.Set.of()).toRequest(), f.allocator)) {
                assertThat(EngineAggregation.answer(shape, scan, f.allocator, () -> false, null, 99)).as("100 groups, 99 allowed").isNull();
                try (io.chronix.engine.read.ScanResult answer = EngineAggregation.answer(shape, scan, f.allocator, () -> false, null, 100)) {
                    assertThat(answer.rowCount()).isEqualTo(100);
                }
            }
        }
    }

    /** {@link SqlQuery.Tables} over the engine that sees each batch its streamed scan hands over, before the aggregation does. */
    private record Watched(EngineTables inner, java.util.function.Consumer<org.apache.arrow.vector.VectorSchemaRoot> seen)
            implements SqlQuery.Tables {
        @Override
        public java.util.Set<String> measurements() {
            return inner.measurements();
        }

        @Override
        public java.util.Optional<io.chronix.engine.schema.MeasurementSchema> schema(String measurement) {
            return inner.schema(measurement);
        }

        @Override
        public io.chronix.engine.read.ScanResult scan(io.chronix.engine.read.ScanRequest request,
                org.apache.arrow.memory.BufferAllocator allocator) {
            return inner.scan(request, allocator);
        }

        @Override
        public io.chronix.engine.read.StreamedScan scanInto(io.chronix.engine.read.ScanRequest request,
                org.apache.arrow.memory.BufferAllocator allocator, io.chronix.engine.read.BatchSink sink) {
            return inner.scanInto(request, allocator, () -> {
                io.chronix.engine.read.BatchSink.Consumer c = sink.open();
                return batch -> {
                    seen.accept(batch);
                    return c.accept(batch);
                };
            });
        }
    }

    @Test
    void anAggregateIsAddedUpAsItsScanReadsWithinLessMemoryThanTheScanAndACancelStopsIt() {
        try (SqlFixture f = new SqlFixture(dir)) {
            for (int hour = 0; hour < 3; hour++) { // three hourly shards, a segment each: three batches
                long start = T0 + hour * 3600 * SECOND;
                f.write(b -> {
                    for (int s = 0; s < 50; s++) {
                        b.beginPoint("cpu", start + s * SECOND).tag("host", "h" + (s % 5)).integerField("n", s).endPoint();
                    }
                });
                f.engine.flush();
            }
            String sql = "SELECT host, avg(n) AS a, max(n) AS m, count(*) AS c FROM cpu GROUP BY 1 ORDER BY 1";
            java.util.concurrent.atomic.AtomicInteger handed = new java.util.concurrent.atomic.AtomicInteger();
            java.util.concurrent.atomic.AtomicLong heldAtMost = new java.util.concurrent.atomic.AtomicLong();
            SqlFixture.Answer a = f.answer(sql, new Watched(f.tables(), batch -> {
                handed.incrementAndGet();
                heldAtMost.accumulateAndGet(f.allocator.getAllocatedMemory(), Math::max);
            }));
            assertThat(a.by()).isEqualTo(SqlQuery.AnsweredBy.ENGINE_AGGREGATE);
            assertThat(a.rows()).containsExactly("h0|22.5|45|30", "h1|23.5|46|30", "h2|24.5|47|30", "h3|25.5|48|30", "h4|26.5|49|30");
            assertThat(handed.get()).as("each segment's batch handed over as it was read").isEqualTo(3);
            try (SqlQuery q = SqlQuery.prepare(f.sandbox, f.tables(), sql, f.allocator)) {
                assertThat(SqlFixture.render(q.execute())).hasSize(5);
                SqlQuery.TableScan scan = q.scans().getFirst();
                assertThat(q.scans()).hasSize(1);
                assertThat(scan.rows()).as("what the streamed scan read, for the diagnostics").isEqualTo(150);
                assertThat(scan.batches()).isEqualTo(3);
                assertThat(scan.bytes()).isPositive();
                assertThat(scan.statistics().segmentsRead()).isEqualTo(3);
                assertThat(scan.statistics().rowsRead()).isEqualTo(150);
            }
            try (io.chronix.engine.read.ScanResult whole = f.tables().scan(io.chronix.engine.read.ScanRequest.all("cpu"), f.allocator)) {
                assertThat(whole.batches()).hasSize(3);
                long oneBatch = whole.batches().getFirst().getFieldVectors().stream().mapToLong(v -> v.getBufferSize()).sum();
                assertThat(heldAtMost.get()).as("one batch held at a time, not the scan's three").isLessThan(2 * oneBatch);
            }

            // a scan-memory bound below what the whole scan holds: the streamed aggregate stays inside it
            long whole;
            try (io.chronix.engine.read.ScanResult all = f.tables().scan(io.chronix.engine.read.ScanRequest.all("cpu"), f.allocator)) {
                whole = f.allocator.getAllocatedMemory();
            }
            try (org.apache.arrow.memory.BufferAllocator bounded = f.allocator.newChildAllocator("bounded", 0, whole * 3 / 4)) {
                try (SqlQuery q = SqlQuery.prepare(f.sandbox, f.tables(), sql, bounded)) {
                    assertThat(SqlFixture.render(q.execute())).hasSize(5);
                    assertThat(q.answeredBy()).isEqualTo(SqlQuery.AnsweredBy.ENGINE_AGGREGATE);
                }
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> f.tables().scan(io.chronix.engine.read.ScanRequest.all("cpu"), bounded).close())
                        .as("the whole scan does not fit").isInstanceOf(org.apache.arrow.memory.OutOfMemoryException.class);
            }

            java.util.concurrent.atomic.AtomicReference<SqlQuery> query = new java.util.concurrent.atomic.AtomicReference<>();
            handed.set(0);
            try (SqlQuery q = SqlQuery.prepare(f.sandbox, new Watched(f.tables(), batch -> {
                handed.incrementAndGet();
                query.get().cancel(); // the timeout's watchdog, as the first batch arrives
            }), sql, f.allocator)) {
                query.set(q);
                org.assertj.core.api.Assertions.assertThatThrownBy(q::execute).isInstanceOf(QueryCancelledException.class);
            }
            assertThat(handed.get()).as("no batch read after the cancel").isEqualTo(1);
            assertThat(f.allocator.getAllocatedMemory()).isZero();
        }
    }

    @Test
    void integerSumsBeyondWhatADoubleHoldsExactlyAreLeftToDuckDb() {
        try (SqlFixture f = new SqlFixture(dir)) {
            f.write(b -> b.beginPoint("cpu", T0).tag("host", "a").integerField("n", Long.MAX_VALUE - 1).endPoint()
                    .beginPoint("cpu", T0 + SECOND).tag("host", "a").integerField("n", Long.MAX_VALUE - 3).endPoint()
                    .beginPoint("cpu", T0).tag("host", "b").integerField("n", (1L << 53) - 1).endPoint()
                    .beginPoint("cpu", T0 + SECOND).tag("host", "b").integerField("n", 3).endPoint()
                    .beginPoint("cpu", T0).tag("host", "c").integerField("n", -(1L << 52)).endPoint()
                    .beginPoint("cpu", T0 + SECOND).tag("host", "c").integerField("n", -(1L << 52)).endPoint());
            for (String host : List.of("a", "b")) { // overflows a long; beyond 2^53
                String sql = "SELECT avg(n) AS m FROM cpu WHERE host = '" + host + "'";
                SqlFixture.Answer a = f.answer(sql);
                assertThat(a.by()).as(sql).isEqualTo(SqlQuery.AnsweredBy.DUCKDB);
                assertThat(a.rows()).isEqualTo(f.answer(sql + " HAVING true").rows());
            }
            SqlFixture.Answer c = f.answer("SELECT avg(n) AS m, min(n) AS lo FROM cpu WHERE host = 'c'"); // -2^53: exact
            assertThat(c.by()).isEqualTo(SqlQuery.AnsweredBy.ENGINE_AGGREGATE);
            assertThat(c.rows()).containsExactly((double) -(1L << 52) + "|" + -(1L << 52));
        }
    }

    @Test
    void largeIntegersThatCancelAreSummedExactlyAndTheirExtremesKept() {
        try (SqlFixture f = new SqlFixture(dir)) {
            // each beyond the quick test's bound for a run of three (2^62 / 3), so the sum takes the
            // exact loop, which finds no overflow: the engine answers (the sum, 7, is exact in a double)
            long big = 1L << 61;
            f.write(b -> b.beginPoint("cpu", T0).tag("host", "d").integerField("n", big).endPoint()
                    .beginPoint("cpu", T0 + SECOND).tag("host", "d").integerField("n", -big).endPoint()
                    .beginPoint("cpu", T0 + 2 * SECOND).tag("host", "d").integerField("n", 7).endPoint()
                    .beginPoint("cpu", T0).tag("host", "e").integerField("n", -5).endPoint()
                    .beginPoint("cpu", T0 + SECOND).tag("host", "e").integerField("n", -9).endPoint()
                    .beginPoint("cpu", T0 + 2 * SECOND).tag("host", "e").integerField("n", -1).endPoint());
            for (String host : List.of("d", "e")) {
                String sql = "SELECT avg(n) AS m, min(n) AS lo, max(n) AS hi, count(n) AS c FROM cpu WHERE host = '" + host + "'";
                SqlFixture.Answer a = f.answer(sql);
                assertThat(a.by()).as(sql).isEqualTo(SqlQuery.AnsweredBy.ENGINE_AGGREGATE);
                assertThat(a.rows()).as(sql).containsExactly(host.equals("d") ? 7.0 / 3 + "|" + -big + "|" + big + "|3" : "-5.0|-9|-1|3");
                assertThat(a.rows()).isEqualTo(f.answer(sql + " HAVING true").rows());
            }
        }
    }

    @Test
    void hundredsOfTagCombinationsAreEachTheirOwnGroup() {
        try (SqlFixture f = new SqlFixture(dir)) {
            // hundreds of combinations, some with a NULL tag, some values the prefix of others
            // (host_1, host_10, host_100)
            f.write(b -> {
                for (int h = 0; h < 300; h++) {
                    for (int p = 0; p < 2; p++) {
                        b.beginPoint("cpu", T0 + p * SECOND).tag("host", "host_" + h);
                        if (h % 7 != 0) {
                            b.tag("dc", "dc" + h % 3);
                        }
                        b.integerField("n", h * 10L + p).endPoint();
                    }
                }
            });
            String sql = "SELECT host, dc, count(*) AS c, max(n) AS m FROM cpu GROUP BY host, dc ORDER BY 1, 2";
            SqlFixture.Answer a = f.answer(sql);
            assertThat(a.by()).isEqualTo(SqlQuery.AnsweredBy.ENGINE_AGGREGATE);
            assertThat(a.rows()).hasSize(300).contains("host_7|null|2|71", "host_10|dc1|2|101", "host_100|dc1|2|1001");
            assertThat(a.rows()).isEqualTo(f.answer(sql.replace(" ORDER BY", " HAVING true ORDER BY")).rows());
        }
    }

    /** The parts of one statement of the shape. */
    private record Statement(List<String> select, List<String> groupBy, String where, List<String> orders, String limit) {
        String sql(boolean duckDb) {
            StringBuilder sb = new StringBuilder("SELECT ").append(String.join(", ", select)).append(" FROM cpu").append(where);
            if (!groupBy.isEmpty()) {
                sb.append(" GROUP BY ").append(String.join(", ", groupBy));
            }
            if (duckDb) {
                sb.append(" HAVING true");
            }
            if (!orders.isEmpty()) {
                sb.append(" ORDER BY ").append(String.join(", ", orders));
            }
            return sb.append(limit).toString();
        }
    }

    private static Statement randomStatement(Random r) {
        List<String> items = new ArrayList<>();
        List<String> keys = new ArrayList<>(); // key items, as written
        if (r.nextInt(10) < 7) {
            String fn = r.nextBoolean() ? "time_bucket" : "date_bin";
            String alias = switch (r.nextInt(3)) {
                case 0 -> "time";
                case 1 -> "b";
                default -> "\"Bucket\"";
            };
            keys.add(fn + "(INTERVAL '" + WIDTHS[r.nextInt(WIDTHS.length)] + "', time) AS " + alias);
        }
        if (r.nextBoolean()) {
            keys.add(r.nextInt(3) == 0 ? "host AS h" : "host");
        }
        if (r.nextInt(3) == 0) {
            keys.add("dc");
        }
        String[] aggregates = {"count(*)", "count(*) AS n_rows", "count(usage) AS c_usage", "count(state) AS c_state",
                "min(usage) AS min_usage", "max(usage) AS max_usage", "avg(usage) AS mean_usage", "sum(usage) AS sum_usage",
                "min(n) AS min_n", "max(n) AS max_n", "avg(n) AS mean_n", "MAX(n) AS max_n2", "mean(usage) AS m2"};
        int count = 1 + r.nextInt(4);
        for (int i = 0; i < count; i++) {
            items.add(aggregates[r.nextInt(aggregates.length)]);
        }
        items.addAll(keys);
        Collections.shuffle(items, r);
        List<Integer> keyOrdinals = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            if (keys.contains(items.get(i))) {
                keyOrdinals.add(i + 1);
            }
        }
        List<String> groupBy = new ArrayList<>();
        for (int k : keyOrdinals) {
            String item = items.get(k - 1);
            groupBy.add(item.startsWith("host") && r.nextBoolean() ? "host" : item.equals("dc") && r.nextBoolean() ? "dc" : Integer.toString(k));
        }
        Collections.shuffle(groupBy, r);
        List<String> conjuncts = new ArrayList<>();
        if (r.nextBoolean()) {
            long from = T0 + r.nextInt(5 * 3600) * SECOND - 1800 * SECOND + r.nextInt(3);
            if (r.nextInt(4) == 0) {
                conjuncts.add("time BETWEEN " + literal(r, from) + " AND " + literal(r, from + r.nextInt(3 * 3600) * SECOND));
            } else {
                conjuncts.add("time " + (r.nextBoolean() ? ">=" : ">") + " " + literal(r, from));
                if (r.nextBoolean()) {
                    conjuncts.add(literal(r, from + r.nextInt(3 * 3600) * SECOND) + (r.nextBoolean() ? " > " : " >= ") + "time");
                }
            }
        }
        SqlModelTest.randomTagPredicate(r, "host", conjuncts);
        if (r.nextInt(4) == 0) {
            conjuncts.add("dc = 'x'");
        }
        Collections.shuffle(conjuncts, r);
        String where = conjuncts.isEmpty() ? "" : " WHERE " + String.join(" AND ", conjuncts);
        List<String> orders = new ArrayList<>();
        String limit = "";
        if (!keyOrdinals.isEmpty() && r.nextInt(4) > 0) {
            List<Integer> order = new ArrayList<>(keyOrdinals);
            Collections.shuffle(order, r);
            for (int k : order) {
                String dir = switch (r.nextInt(3)) {
                    case 0 -> "";
                    case 1 -> " ASC";
                    default -> " DESC";
                };
                String nulls = switch (r.nextInt(4)) {
                    case 0 -> " NULLS FIRST";
                    case 1 -> " NULLS LAST";
                    default -> "";
                };
                orders.add(k + dir + nulls);
            }
            if (r.nextBoolean()) {
                limit = " LIMIT " + r.nextInt(8) + (r.nextBoolean() ? " OFFSET " + r.nextInt(5) : "");
            }
        }
        return new Statement(items, groupBy, where, orders, limit);
    }

    private static double floatValue(Random r) {
        return switch (r.nextInt(40)) {
            case 0, 1, 2, 3 -> -0.0;
            case 4, 5, 6 -> 0.0;
            case 7 -> Double.NaN;
            default -> (r.nextInt(2001) - 1000) / 7.0;
        };
    }

    private static String literal(Random r, long ns) {
        String text = SqlModelTest.ts(ns); // TIMESTAMP_NS '…'
        return switch (r.nextInt(3)) {
            case 0 -> text;
            case 1 -> text.substring("TIMESTAMP_NS ".length()); // a bare string, cast by DuckDB to the column's type
            default -> "TIMESTAMP '" + text.substring("TIMESTAMP_NS '".length(), text.length() - 4) + "'"; // microseconds
        };
    }

    /** Columns whose value is a sum of doubles: DuckDB adds partial sums in an order of its own. */
    private static final java.util.Set<String> FLOAT_SUMS = java.util.Set.of("mean_usage", "sum_usage", "m2");

    /**
     * Every cell equal, except that a sum or mean of doubles may differ from DuckDB's in its last
     * bits: DuckDB adds per-partition partial sums in an order of its own (it changes with
     * threads and batch boundaries), the engine adds in scan order. Both are the sum of the same
     * values; the difference is bounded far below the values' resolution (multiples of 1/7). When
     * the answer was {@code merged} from threads' parts, a min or max of {@code -0.0} and
     * {@code 0.0} may be either (equal values; which is kept depends on the merge order).
     */
    private static void assertSameRows(List<String> columns, List<String> fast, List<String> full, boolean merged, String what) {
        assertThat(fast).as(what).hasSameSizeAs(full);
        for (int r = 0; r < fast.size(); r++) {
            String[] a = fast.get(r).split("\\|", -1);
            String[] b = full.get(r).split("\\|", -1);
            assertThat(a.length).as(what).isEqualTo(b.length);
            for (int c = 0; c < a.length; c++) {
                String name = columns.get(c).substring(0, columns.get(c).indexOf(':'));
                if (merged && (a[c] + b[c]).equals("-0.00.0") || merged && (a[c] + b[c]).equals("0.0-0.0")) {
                    continue; // min or max over equal zeros: which one is kept depends on the order parts merge, in DuckDB too
                }
                if (FLOAT_SUMS.contains(name) && !a[c].equals(b[c]) && !a[c].equals("null") && !b[c].equals("null")) {
                    assertThat(Double.parseDouble(a[c])).as("%s, row %d, %s", what, r, name)
                            .isCloseTo(Double.parseDouble(b[c]), org.assertj.core.api.Assertions.within(1e-9));
                } else {
                    assertThat(a[c]).as("%s, row %d, %s:%n%s%n%s", what, r, name, fast, full).isEqualTo(b[c]);
                }
            }
        }
    }

    private static List<String> sorted(List<String> rows) {
        List<String> s = new ArrayList<>(rows);
        Collections.sort(s);
        return s;
    }
}
