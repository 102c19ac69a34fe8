package io.chronix.api.sql;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.chronix.api.sql.SqlFixture.SECOND;
import static io.chronix.api.sql.SqlFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The time filters dashboards write, against {@code time} in the real DuckDB: the clock's
 * functions, zoned timestamps and strings with a zone offset compare as instants, at the
 * nanosecond, and a bound the analysis pushes down is the same instant.
 */
class ZonedTimesTest {

    static final long MINUTE = 60 * SECOND;

    @TempDir Path dir;
    SqlFixture f;
    long now;

    @BeforeEach
    void open() {
        // the engine's clock is the real one here: DuckDB's now() is, and the points are written around it
        f = new SqlFixture(dir, io.chronix.engine.EngineConfig.defaults());
        now = System.currentTimeMillis() * 1_000_000L;
        f.write(b -> b
                .beginPoint("cpu", T0).tag("host", "a").floatField("v", 1.0).endPoint()
                .beginPoint("cpu", T0 + SECOND).tag("host", "a").floatField("v", 2.0).endPoint()
                .beginPoint("cpu", T0 + 59 * SECOND + 999_999_600).tag("host", "a").floatField("v", 3.0).endPoint()
                .beginPoint("cpu", now - 2 * MINUTE).tag("host", "a").floatField("v", 4.0).endPoint()
                .beginPoint("cpu", now - 30 * SECOND).tag("host", "a").floatField("v", 5.0).endPoint());
    }

    @AfterEach
    void close() {
        f.close();
    }

    private List<String> values(String where) {
        return f.rows("SELECT v FROM cpu WHERE " + where + " ORDER BY time");
    }

    @Test
    void theClocksFunctionsCompareWithTime() {
        Map<String, List<String>> cases = Map.of(
                "time > now() - INTERVAL '1 minute'", List.of("5.0"),
                "time > current_timestamp - INTERVAL 1 MINUTE", List.of("5.0"),
                "now() - INTERVAL '1 minute' < time", List.of("5.0"),
                "time BETWEEN now() - INTERVAL 1 HOUR AND now()", List.of("4.0", "5.0"),
                "time >= date_trunc('year', now()) AND time <= now()", List.of("1.0", "2.0", "3.0", "4.0", "5.0"),
                "(time < now() - INTERVAL 1 HOUR OR time > now() - INTERVAL 1 MINUTE)", List.of("1.0", "2.0", "3.0", "5.0"),
                "time >= transaction_timestamp() - INTERVAL '3 minutes' AND host = 'a'", List.of("4.0", "5.0"),
                "time <> now()", List.of("1.0", "2.0", "3.0", "4.0", "5.0"));
        cases.forEach((where, expected) -> assertThat(values(where)).as(where).isEqualTo(expected));
    }

    @Test
    void zonedTimestampsAndEpochsCompareAsInstants() {
        Map<String, List<String>> cases = Map.of(
                "time >= TIMESTAMPTZ '2026-01-01 02:00:01+02'", List.of("2.0", "3.0", "4.0", "5.0"),
                "time < '2026-01-01 00:00:01Z'::TIMESTAMPTZ", List.of("1.0"),
                "time < CAST('2026-01-01 01:00:01+01' AS TIMESTAMP WITH TIME ZONE)", List.of("1.0"),
                "time >= to_timestamp(" + (T0 / SECOND + 1) + ")", List.of("2.0", "3.0", "4.0", "5.0"),
                "time <= to_timestamp(" + (T0 / SECOND + 1) + ")", List.of("1.0", "2.0"),
                "time = make_timestamptz(2026, 1, 1, 0, 0, 1)", List.of("2.0"));
        cases.forEach((where, expected) -> assertThat(values(where)).as(where).isEqualTo(expected));
    }

    @Test
    void stringsWithAZoneOffsetNameTheInstantAtTheNanosecond() {
        Map<String, List<String>> cases = Map.of(
                "time >= '2026-01-01T00:00:01Z'", List.of("2.0", "3.0", "4.0", "5.0"),
                "time >= '2026-01-01 02:00:01+02'", List.of("2.0", "3.0", "4.0", "5.0"),
                "time >= '2026-01-01T02:00:01+02:00'", List.of("2.0", "3.0", "4.0", "5.0"),
                "time < '2025-12-31 23:00:01-01'", List.of("1.0"),
                "time > '2026-01-01 02:00:59.999999599+02' AND time < '2026-01-01 02:00:59.999999601+02'", List.of("3.0"),
                "time BETWEEN '2026-01-01 05:30:00+05:30' AND '2026-01-01 05:30:01+05:30'", List.of("1.0", "2.0"),
                "time = '2026-01-01 00:00:00 Europe/Berlin'", List.of(),
                "time = '2026-01-01 01:00:00 Europe/Berlin'", List.of("1.0"));
        cases.forEach((where, expected) -> assertThat(values(where)).as(where).isEqualTo(expected));
    }

    @Test
    void aZonedLiteralIsPushedDownAsTheInstantItNames() {
        long[][] ranges = {
                range("time >= '2026-01-01 02:00:00.5+02' AND time <= TIMESTAMPTZ '2026-01-01 01:00:01+01'"),
                range("time BETWEEN '2026-01-01T00:00:00.5Z' AND '2026-01-01 00:00:01'"),
        };
        for (long[] r : ranges) {
            assertThat(r).containsExactly(T0 + 500_000_000, T0 + SECOND);
        }
        assertThat(range("time > now() - INTERVAL 1 HOUR"))
                .as("a bound from the clock is not pushed down").containsExactly(Long.MIN_VALUE, Long.MAX_VALUE);
        assertThat(f.answer("SELECT count(*) FROM cpu WHERE time >= '2026-01-01 02:00:00.5+02' AND time <= TIMESTAMPTZ '2026-01-01 01:00:01+01'").rows())
                .containsExactly("1");
    }

    private long[] range(String where) {
        try (SqlQuery q = SqlQuery.prepare(f.sandbox, f.tables(), "SELECT v FROM cpu WHERE " + where, f.allocator)) {
            ScanPlan p = q.scans().getFirst().plan();
            return new long[]{p.from(), p.to()};
        }
    }

    @Test
    void errorsPointIntoTheStatementAsWritten() {
        String sql = "SELECT v FROM cpu WHERE time > now() - INTERVAL 1 MINUTE AND nope = 1";
        assertThatThrownBy(() -> f.rows(sql)).isInstanceOfSatisfying(SqlErrorException.class,
                e -> assertThat(e.position()).isEqualTo(sql.indexOf("nope")));
    }

    @Test
    void rewritePositionsMapBack() {
        ZonedTimes.Rewrite r = new ZonedTimes.Rewrite("ab" + "XX" + "cd" + "YYY" + "e", new int[]{2, 4}, new int[]{2, 3});
        assertThat(r.original(0)).isZero();
        assertThat(r.original(2)).as("inside the first insertion").isEqualTo(2);
        assertThat(r.original(4)).isEqualTo(2);
        assertThat(r.original(5)).isEqualTo(3);
        assertThat(r.original(6)).as("inside the second").isEqualTo(4);
        assertThat(r.original(9)).isEqualTo(4);
        assertThat(r.original(-1)).isEqualTo(-1);
    }
}
