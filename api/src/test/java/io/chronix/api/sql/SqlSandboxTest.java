package io.chronix.api.sql;

import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

import static io.chronix.api.sql.SqlFixture.SECOND;
import static io.chronix.api.sql.SqlFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The two DuckDB instances of a sandbox (serial for small inputs, parallel for large ones): each
 * locked down alike, each with the nanosecond macros, and a query answering the same on either.
 */
class SqlSandboxTest {

    /** Inputs on either side of the serial bound. */
    private static final List<Long> INPUTS = List.of(0L, SqlSandbox.SERIAL_MAX_ROWS, SqlSandbox.SERIAL_MAX_ROWS + 1, Long.MAX_VALUE);

    @TempDir Path dir;
    SqlFixture f;

    @BeforeEach
    void open() {
        f = new SqlFixture(dir);
    }

    @AfterEach
    void close() {
        f.close();
    }

    @Test
    void smallInputsRunSeriallyAndLargeOnesOnEveryThread() throws SQLException {
        assertThat(threads(f.sandbox, 0)).isEqualTo(1);
        assertThat(threads(f.sandbox, SqlSandbox.SERIAL_MAX_ROWS)).isEqualTo(1);
        assertThat(threads(f.sandbox, SqlSandbox.SERIAL_MAX_ROWS + 1)).isEqualTo(2);
        try (SqlSandbox one = SqlSandbox.open(new SqlSandbox.Limits(1, 64L << 20))) {
            assertThat(threads(one, 0)).isEqualTo(1);
            assertThat(threads(one, Long.MAX_VALUE)).isEqualTo(1);
        }
    }

    @Test
    void aStatementAskedAgainInItsScopeIsParsedOnceAndAnswersTheSame() throws SQLException {
        String sql = "SELECT max(usage) FROM cpu WHERE host = 'a'";
        long misses = f.sandbox.parseCacheStats().missCount();
        long hits = f.sandbox.parseCacheStats().hitCount();
        String first = f.sandbox.serialize(7, sql);
        String again = f.sandbox.serialize(7, sql);
        assertThat(again).isEqualTo(first).contains("\"table_name\":\"cpu\"");
        assertThat(f.sandbox.parseCacheStats().hitCount() - hits).isEqualTo(1);
        // another scope (namespace) parses for itself, and so does another text
        assertThat(f.sandbox.serialize(8, sql)).isEqualTo(first);
        assertThat(f.sandbox.serialize(7, sql + " AND usage > 1")).isNotEqualTo(first);
        assertThat(f.sandbox.parseCacheStats().missCount() - misses).isEqualTo(3);
        // a statement DuckDB cannot parse answers its error again, kept or not
        String bad = f.sandbox.serialize(7, "SELEC 1");
        assertThat(bad).contains("\"error\":true");
        assertThat(f.sandbox.serialize(7, "SELEC 1")).isEqualTo(bad);
        f.write(b -> b.beginPoint("cpu", SqlFixture.T0).tag("host", "a").floatField("usage", 3.0).endPoint());
        assertThat(f.rows(sql)).containsExactly("3.0"); // through SqlQuery, twice, the same answer
        assertThat(f.rows(sql)).containsExactly("3.0");
    }

    @Test
    void bothInstancesAreLockedDown() throws SQLException {
        Path planted = dir.resolve("planted.csv");
        java.util.Set<String> memoryLimits = new java.util.HashSet<>();
        for (long input : INPUTS) {
            try (DuckDBConnection c = f.sandbox.connect(input)) {
                for (String sql : List.of(
                        "SELECT * FROM read_csv('/etc/passwd')",
                        "SELECT * FROM read_text('/etc/passwd')",
                        "SELECT * FROM glob('/etc/*')",
                        "COPY (SELECT 1) TO '" + planted + "'",
                        "INSTALL httpfs",
                        "LOAD httpfs",
                        "ATTACH '" + dir.resolve("planted.db") + "' AS x",
                        "SET enable_external_access = true",
                        "SET threads = 8",
                        "SET memory_limit = '100GB'",
                        "SET temp_directory = '" + dir + "'",
                        "RESET lock_configuration",
                        // the registered views' table function takes raw pointers: SQL must never be able to call it
                        "SELECT count(*) FROM arrow_scan(1, 2, 3)",
                        "SELECT count(*) FROM arrow_scan(140000000000, 140000000000, 140000000000::UBIGINT)")) {
                    try (Statement s = c.createStatement()) {
                        assertThatThrownBy(() -> s.execute(sql)).as(sql + " [input=" + input + "]").isInstanceOf(SQLException.class);
                    }
                }
                Statement s = c.createStatement();
                assertThat(setting(s, "enable_external_access")).as("input=" + input).isEqualTo("false");
                assertThat(setting(s, "lock_configuration")).as("input=" + input).isEqualTo("true");
                assertThat(setting(s, "temp_directory")).as("input=" + input).isEmpty();
                memoryLimits.add(setting(s, "memory_limit"));
                s.close();
            }
        }
        assertThat(memoryLimits).as("each instance has the configured limit").hasSize(1);
        assertThat(Files.exists(planted)).isFalse();
        assertThat(Files.exists(dir.resolve("planted.db"))).isFalse();
    }

    @Test
    void bothInstancesHaveTheNanosecondMacros() throws SQLException {
        for (long input : INPUTS) {
            try (DuckDBConnection c = f.sandbox.connect(input); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT epoch_ns(time_bucket(INTERVAL '1 minute', TIMESTAMP_NS '2026-01-01 00:00:59.9999996')),"
                         + " epoch_ns(date_bin(INTERVAL '30 seconds', TIMESTAMP_NS '2026-01-01 00:00:59.9999996'))")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).as("input=" + input).isEqualTo(T0);
                assertThat(rs.getLong(2)).as("input=" + input).isEqualTo(T0 + 30 * SECOND);
            }
        }
    }

    /**
     * The two-argument {@code time_bucket} and {@code date_bin} against buckets computed here, at
     * random nanosecond instants from 1900 to 2100 (before 1970 too) and on bucket edges, for fixed
     * widths from one second to a week and calendar widths from a month to a year.
     */
    @Test
    void twoArgumentBucketsAreExactAtTheNanosecondForEveryWidth() throws SQLException {
        long tbOrigin = java.time.Instant.parse("2000-01-03T00:00:00Z").getEpochSecond() * SECOND;
        java.util.Random r = new java.util.Random(42);
        List<Long> instants = new java.util.ArrayList<>();
        for (int i = 0; i < 60; i++) {
            long t = java.time.Instant.parse("1900-01-01T00:00:00Z").getEpochSecond() * SECOND + (long) (r.nextDouble() * 200 * 365.25 * 86_400) * SECOND;
            instants.add(t + r.nextInt(1_000_000_000));
            instants.add(t - Math.floorMod(t, 60 * SECOND) - 1); // a nanosecond before a minute's edge
            instants.add(t - Math.floorMod(t, 3600 * SECOND));   // on an hour's edge
        }
        Map<String, Long> fixed = Map.of("1 second", SECOND, "7 seconds", 7 * SECOND, "1 minute", 60 * SECOND, "90 minutes", 5400 * SECOND,
                "1 day", 86_400 * SECOND, "7 days", 7 * 86_400 * SECOND);
        Map<String, Integer> calendar = Map.of("1 month", 1, "3 months", 3, "1 year", 12);
        for (long input : List.of(0L, Long.MAX_VALUE)) { // each instance defines the macros its own way
            bucketsAreExact(input, instants, tbOrigin, fixed, calendar);
        }
    }

    private void bucketsAreExact(long input, List<Long> instants, long tbOrigin, Map<String, Long> fixed, Map<String, Integer> calendar)
            throws SQLException {
        try (DuckDBConnection c = f.sandbox.connect(input); Statement s = c.createStatement()) {
            for (long t : instants) {
                String ts = "make_timestamp_ns(" + t + ")";
                for (Map.Entry<String, Long> w : fixed.entrySet()) {
                    long width = w.getValue();
                    assertThat(bucket(s, "time_bucket(INTERVAL '" + w.getKey() + "', " + ts + ")")).as("input %d: time_bucket %s %d", input, w.getKey(), t)
                            .isEqualTo(t - Math.floorMod(t - tbOrigin, width));
                    assertThat(bucket(s, "date_bin(INTERVAL '" + w.getKey() + "', " + ts + ")")).as("input %d: date_bin %s %d", input, w.getKey(), t)
                            .isEqualTo(t - Math.floorMod(t, width));
                }
                java.time.LocalDateTime at = java.time.LocalDateTime.ofEpochSecond(Math.floorDiv(t, SECOND), (int) Math.floorMod(t, SECOND),
                        java.time.ZoneOffset.UTC);
                for (Map.Entry<String, Integer> w : calendar.entrySet()) {
                    for (int originYear : new int[] {2000, 1970}) {
                        long months = (at.getYear() - originYear) * 12L + at.getMonthValue() - 1;
                        long first = Math.floorDiv(months, w.getValue()) * w.getValue();
                        long expected = java.time.LocalDateTime.of(originYear, 1, 1, 0, 0).plusMonths(first).toEpochSecond(java.time.ZoneOffset.UTC) * SECOND;
                        String fn = originYear == 2000 ? "time_bucket" : "date_bin";
                        assertThat(bucket(s, fn + "(INTERVAL '" + w.getKey() + "', " + ts + ")")).as("input %d: %s %s %d", input, fn, w.getKey(), t).isEqualTo(expected);
                    }
                }
            }
        }
    }

    @Test
    void aWidthOfZeroOrLessIsRefusedAlikeOnBothInstances() throws SQLException {
        for (long input : List.of(0L, Long.MAX_VALUE)) {
            for (String width : List.of("0 seconds", "-1 minute")) {
                for (String call : List.of("time_bucket(INTERVAL '%s', TIMESTAMP_NS '2026-01-01 00:00:59.9999996')",
                        "date_bin(INTERVAL '%s', TIMESTAMP_NS '2026-01-01 00:00:59.9999996')",
                        "time_bucket(INTERVAL '%s', TIMESTAMP_NS '2026-01-01 00:00:59.9999996', TIMESTAMP_NS '2026-01-01 00:00:00.5')")) {
                    String expression = call.formatted(width);
                    try (DuckDBConnection c = f.sandbox.connect(input); Statement s = c.createStatement()) {
                        assertThatThrownBy(() -> bucket(s, expression)).as("input %d: %s", input, expression)
                                .isInstanceOf(SQLException.class).hasMessageContaining("Period must be greater than 0");
                    }
                }
            }
        }
    }

    private static long bucket(Statement s, String expression) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT epoch_ns(" + expression + ")")) {
            assertThat(rs.next()).isTrue();
            return rs.getLong(1);
        }
    }

    /** One query over more rows than the serial bound (parallel) and over fewer (serial), against sums computed here. */
    @Test
    void aQueryAnswersTheSameOnEitherInstance() {
        int rows = (int) SqlSandbox.SERIAL_MAX_ROWS + 5_000;
        long[] sums = new long[3];
        long base = T0 + 83_000 * SECOND; // inside the engine's accepted window (its clock stands at T0 + 1 day)
        f.write(b -> {
            for (int i = 0; i < rows; i++) {
                b.beginPoint("m", base + i * 10_000_000L).tag("host", "h" + (i % 3)).integerField("v", i % 1_000).endPoint();
                sums[i % 3] += i % 1_000;
            }
        });
        f.engine.flush();
        // the whole measurement: parallel; one host: a third of it, serial
        assertThat(f.rows("SELECT host, sum(v), count(*) FROM m GROUP BY host ORDER BY host")).containsExactly(
                "h0|" + sums[0] + "|" + (rows + 2) / 3, "h1|" + sums[1] + "|" + (rows + 1) / 3, "h2|" + sums[2] + "|" + rows / 3);
        assertThat(f.rows("SELECT host, sum(v) FROM m WHERE host = 'h1' GROUP BY host")).containsExactly("h1|" + sums[1]);
        // a measurement read twice is materialised: on the parallel instance too
        assertThat(f.rows("SELECT (SELECT count(*) FROM m) + (SELECT count(*) FROM m WHERE host = 'h2')")).containsExactly(
                Long.toString(rows + rows / 3));
    }

    private static int threads(SqlSandbox sandbox, long input) throws SQLException {
        try (DuckDBConnection c = sandbox.connect(input); Statement s = c.createStatement()) {
            return Integer.parseInt(setting(s, "threads"));
        }
    }

    private static String setting(Statement s, String name) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT current_setting('" + name + "')::VARCHAR")) {
            rs.next();
            return rs.getString(1);
        }
    }
}
