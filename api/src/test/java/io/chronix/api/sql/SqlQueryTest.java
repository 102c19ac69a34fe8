package io.chronix.api.sql;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static io.chronix.api.sql.SqlFixture.SECOND;
import static io.chronix.api.sql.SqlFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SqlQueryTest {

    @TempDir Path dir;
    SqlFixture f;

    @BeforeEach
    void open() {
        f = new SqlFixture(dir);
        f.write(b -> b
                .beginPoint("cpu", T0).tag("host", "a").floatField("usage", 1.0).integerField("n", 1).endPoint()
                .beginPoint("cpu", T0 + SECOND).tag("host", "a").floatField("usage", 2.0).endPoint()
                .beginPoint("cpu", T0).tag("host", "b").floatField("usage", 10.0).integerField("n", 0).endPoint()
                .beginPoint("cpu", T0 + 59 * SECOND + 999_999_600).tag("host", "b").integerField("n", 5).endPoint()
                .beginPoint("mem", T0).tag("host", "a").floatField("free", 7.5).endPoint());
    }

    @AfterEach
    void close() {
        f.close();
    }

    @Test
    void aStatementAskedAgainReusesItsAnalysisWhileTheSchemasItReadHold() {
        String sql = "SELECT host, max(usage) AS m FROM cpu WHERE host IN ('a', 'b') AND time >= TIMESTAMP '2026-01-01 00:00:00' GROUP BY 1 ORDER BY 1";
        long before = f.sandbox.reusedAnalyses();
        assertThat(f.rows(sql)).containsExactly("a|2.0", "b|10.0");
        assertThat(f.rows(sql)).containsExactly("a|2.0", "b|10.0");
        assertThat(f.sandbox.reusedAnalyses()).as("the second asking").isEqualTo(before + 1);

        // a new field of cpu: analysed again, and the answer sees it
        String all = "SELECT * FROM cpu WHERE host = 'a' ORDER BY time";
        assertThat(f.rows(all)).hasSize(2);
        f.write(b -> b.beginPoint("cpu", T0 + 2 * SECOND).tag("host", "a").floatField("usage", 3.0).integerField("extra", 9).endPoint());
        long kept = f.sandbox.reusedAnalyses();
        assertThat(f.rows(all)).as("the new column and row").hasSize(3).last().asString().contains("|9|");
        assertThat(f.sandbox.reusedAnalyses()).as("the kept analysis no longer held").isEqualTo(kept);
        assertThat(f.rows(all)).hasSize(3);
        assertThat(f.sandbox.reusedAnalyses()).isEqualTo(kept + 1);

        // a new measurement: every kept analysis of the namespace is checked against the new names
        f.write(b -> b.beginPoint("disk", T0).tag("host", "a").floatField("used", 1.0).endPoint());
        assertThat(f.rows(sql)).containsExactly("a|3.0", "b|10.0");
        assertThat(f.sandbox.reusedAnalyses()).isEqualTo(kept + 1);

        // a literal whose value could depend on when it is cast is never kept
        String epoch = "SELECT count(*) FROM cpu WHERE time >= TIMESTAMP 'epoch'";
        assertThat(f.rows(epoch)).containsExactly("5");
        assertThat(f.rows(epoch)).containsExactly("5");
        assertThat(f.sandbox.reusedAnalyses()).isEqualTo(kept + 1);
    }

    @Test
    void aggregatesSeeNullsAsAbsent() {
        assertThat(f.rows("SELECT host, count(*), count(usage), avg(usage), count(n), sum(n) FROM cpu GROUP BY host ORDER BY host"))
                .containsExactly("a|2|2|1.5|1|1", "b|2|1|10.0|2|5");
        assertThat(f.rows("SELECT count(*) FROM cpu WHERE usage IS NULL")).containsExactly("1");
        assertThat(f.rows("SELECT count(*) FROM cpu WHERE n = 0")).containsExactly("1");
    }

    @Test
    void timeBucketIsExactAtTheNanosecond() {
        assertThat(f.rows("SELECT epoch_ns(time_bucket(INTERVAL '1 minute', time)) AS b, count(*) FROM cpu GROUP BY 1 ORDER BY 1"))
                .containsExactly(T0 + "|4");
        assertThat(f.rows("SELECT epoch_ns(date_bin(INTERVAL '30 seconds', time)) AS b, count(*) FROM cpu GROUP BY 1 ORDER BY 1"))
                .containsExactly(T0 + "|3", (T0 + 30 * SECOND) + "|1");
    }

    @Test
    void aMeasurementReadTwiceWorks() {
        assertThat(f.rows("SELECT (SELECT count(*) FROM cpu) + (SELECT count(*) FROM cpu WHERE host = 'a')")).containsExactly("6");
        assertThat(f.rows("SELECT count(*) FROM cpu x JOIN cpu y USING (host)")).containsExactly("8");
        assertThat(f.rows("WITH c AS (SELECT * FROM cpu) SELECT count(*) FROM c x, c y")).containsExactly("16");
    }

    @Test
    void timeRangeTagsAndProjectionReachTheScan() {
        String sql = "SELECT avg(usage) FROM cpu WHERE host IN ('a') AND time >= '2026-01-01 00:00:00.5' AND time <= TIMESTAMP_NS '2026-01-01 00:00:01'";
        try (SqlQuery q = SqlQuery.prepare(f.sandbox, f.tables(), sql, f.allocator)) {
            ScanPlan p = q.scans().getFirst().plan();
            assertThat(p.from()).isEqualTo(T0 + 500_000_000);
            assertThat(p.to()).isEqualTo(T0 + SECOND);
            assertThat(p.tags()).hasSize(1);
            assertThat(p.columns()).containsExactlyInAnyOrder("time", "host", "usage");
            assertThat(SqlFixture.render(q.execute())).containsExactly("2.0");
            assertThat(q.scans().getFirst().rows()).as("read to its end by the aggregate").isEqualTo(1);
        }
        try (SqlQuery q = SqlQuery.prepare(f.sandbox, f.tables(), "SELECT count(*) FROM cpu WHERE host = 'a' OR time > '2030-01-01'", f.allocator)) {
            assertThat(q.scans().getFirst().plan().tags()).as("nothing under OR is pushed").isEmpty();
            assertThat(q.scans().getFirst().plan().from()).isEqualTo(Long.MIN_VALUE);
        }
    }

    @Test
    void numericFieldComparisonsReachTheScanAsWidenedRanges() {
        String sql = "SELECT host, usage FROM cpu WHERE usage > 1.5 AND 9 > usage AND n BETWEEN 0 AND 3 AND n <> 2";
        try (SqlQuery q = SqlQuery.prepare(f.sandbox, f.tables(), sql, f.allocator)) {
            java.util.Map<String, io.chronix.engine.read.FieldPredicate> byField = new java.util.HashMap<>();
            q.scans().getFirst().plan().fields().forEach(p -> byField.put(p.field(), p));
            assertThat(byField).containsOnlyKeys("usage", "n");
            assertThat(byField.get("usage").min()).isLessThan(1.5).isGreaterThan(1.4999);
            assertThat(byField.get("usage").max()).isGreaterThan(9.0).isLessThan(9.0001);
            assertThat(byField.get("n").min()).isLessThan(0.0).isGreaterThan(-1e-6);
            assertThat(byField.get("n").max()).isGreaterThan(3.0).isLessThan(3.0001);
            assertThat(SqlFixture.render(q.execute())).isEmpty(); // n is NULL where usage is 2.0
        }
        for (String notPushed : List.of(
                "SELECT * FROM cpu WHERE usage > 1 OR host = 'a'",        // under OR
                "SELECT * FROM cpu WHERE NOT (usage > 1)",                 // under NOT
                "SELECT * FROM cpu WHERE usage > n",                       // no literal
                "SELECT * FROM cpu WHERE usage <> 1",                      // no range
                "SELECT * FROM cpu WHERE usage > 1 + 1",                   // an expression, not a literal
                "SELECT * FROM cpu WHERE host > '1'",                      // a tag
                "SELECT * FROM cpu x JOIN cpu y USING (host) WHERE x.usage > 1")) { // a join
            try (SqlQuery q = SqlQuery.prepare(f.sandbox, f.tables(), notPushed, f.allocator)) {
                assertThat(q.scans().getFirst().plan().fields()).as(notPushed).isEmpty();
            }
        }
        f.engine.flush();
        assertThat(f.rows("SELECT host, usage FROM cpu WHERE usage >= 2 ORDER BY host")).containsExactly("a|2.0", "b|10.0");
        assertThat(f.rows("SELECT count(*) FROM cpu WHERE n = 5")).containsExactly("1");
        assertThat(f.rows("SELECT count(*) FROM cpu WHERE n < 1.0000000001")).containsExactly("2");
    }

    @Test
    void theLastpointShapeAsksOnlyForEachSeriesNewestRow() {
        for (String sql : java.util.List.of(
                "SELECT DISTINCT ON (host) * FROM cpu ORDER BY host, time DESC",
                "SELECT DISTINCT ON (host) time, host, usage FROM cpu WHERE host IN ('a', 'b') AND time >= '2026-01-01' ORDER BY host, time DESC LIMIT 5",
                "SELECT DISTINCT ON (c.host) * FROM cpu c WHERE c.host = 'a' ORDER BY c.host ASC, c.time DESC, c.usage",
                "SELECT DISTINCT ON (host) * FROM cpu ORDER BY host, time DESC OFFSET 1 ROWS")) { // OFFSET and LIMIT act on the kept rows
            assertThat(newestOnly(sql)).as(sql).isTrue();
        }
        for (String sql : java.util.List.of(
                "SELECT DISTINCT ON (host) * FROM cpu WHERE usage > 1 ORDER BY host, time DESC",          // a field condition
                "SELECT DISTINCT ON (host) * FROM cpu WHERE time < '2026-01-02' ORDER BY host, time DESC", // an upper bound
                "SELECT DISTINCT ON (host) * FROM cpu ORDER BY host, time",                               // the oldest row
                "SELECT DISTINCT ON (usage) * FROM cpu ORDER BY usage, time DESC",                        // a field key
                "SELECT DISTINCT ON (host) host, count(*) OVER () FROM cpu ORDER BY host, time DESC",     // a window sees every row
                "SELECT DISTINCT ON (host) host, max(time) FROM cpu GROUP BY host ORDER BY host, max(time) DESC",
                "SELECT DISTINCT * FROM cpu ORDER BY host, time DESC",
                "SELECT DISTINCT ON (host) * FROM cpu WHERE host = 'a' OR time > '2026-01-01' ORDER BY host, time DESC",
                "SELECT DISTINCT ON (host) * FROM (SELECT * FROM cpu WHERE usage > 1) ORDER BY host, time DESC")) {
            assertThat(newestOnly(sql)).as(sql).isFalse();
        }
        // two references: only if both keep the newest rows only
        assertThat(newestOnly("SELECT count(*) FROM cpu UNION ALL SELECT count(*) FROM (SELECT DISTINCT ON (host) * FROM cpu ORDER BY host, time DESC)"))
                .isFalse();
    }

    @Test
    void theLastpointShapeAnswersFromEachSeriesNewestRowExactlyAsTheWholeScan() {
        f.write(b -> b.beginPoint("cpu", T0 + 2 * SECOND).tag("host", "c").tag("dc", "x").booleanField("up", true).endPoint());
        List<String> queries = List.of(
                "SELECT DISTINCT ON (host) * FROM cpu ORDER BY host, time DESC",
                "SELECT DISTINCT ON (host) time, host, usage, n FROM cpu WHERE host IN ('a', 'b') ORDER BY host, time DESC",
                "SELECT DISTINCT ON (host) * FROM cpu WHERE time > '2026-01-01 00:00:00.5' ORDER BY host, time DESC",
                "SELECT DISTINCT ON (host) * FROM cpu WHERE dc IS NULL ORDER BY host, time DESC LIMIT 1");
        for (int round = 0; round < 2; round++) {
            for (String sql : queries) {
                // a condition on a field that holds for every row: the same answer, but no newest-row plan
                String whole = sql.contains("WHERE") ? sql.replace("WHERE", "WHERE (n IS NULL OR n IS NOT NULL) AND")
                        : sql.replace("FROM cpu", "FROM cpu WHERE (n IS NULL OR n IS NOT NULL)");
                assertThat(newestOnly(sql)).as(sql).isTrue();
                assertThat(newestOnly(whole)).as(whole).isFalse();
                assertThat(f.rows(sql)).as("%s (round %d)", sql, round).isNotEmpty().isEqualTo(f.rows(whole));
            }
            try (SqlQuery q = SqlQuery.prepare(f.sandbox, f.tables(), queries.getFirst(), f.allocator)) {
                SqlFixture.render(q.execute());
                assertThat(q.scans().getFirst().rows()).as("one row per series").isEqualTo(3);
            }
            f.engine.flush();
            f.reopen(); // the same from segments, with the last-value cache rebuilt by reverse scans
        }
    }

    private boolean newestOnly(String sql) {
        try (SqlQuery q = SqlQuery.prepare(f.sandbox, f.tables(), sql, f.allocator)) {
            return q.scans().getFirst().plan().newestOnly();
        }
    }

    @Test
    void unknownMeasurementIsNamed() {
        assertThatThrownBy(() -> f.rows("SELECT * FROM nope")).isInstanceOf(SqlErrorException.class).hasMessageContaining("'nope'");
    }

    @Test
    void syntaxErrorHasAPosition() {
        assertThatThrownBy(() -> f.rows("SELECT * FROM cpu WHERE"))
                .isInstanceOfSatisfying(SqlErrorException.class, e -> assertThat(e.position()).isEqualTo(18));
        assertThatThrownBy(() -> f.rows("SELECT nope FROM cpu"))
                .isInstanceOfSatisfying(SqlErrorException.class, e -> {
                    assertThat(e.errorType()).isEqualTo("Binder Error");
                    assertThat(e.position()).isEqualTo(7);
                });
    }
}
