package io.chronix.api.sql;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static io.chronix.api.sql.SqlFixture.SECOND;
import static io.chronix.api.sql.SqlFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A bare {@code SELECT count(*) FROM m [WHERE …]} is answered by the engine's row count without
 * DuckDB. On random data — several shards, overwrites in memtables over flushed time, deletes — every
 * such statement must give what DuckDB gives over the scanned rows (the same statement wrapped in
 * {@code SELECT * FROM (…)}, which the shortcut does not take): the same column name, type and value.
 */
class CountShortcutTest {

    @TempDir Path dir;


    @Test
    void aBareCountAnswersAsDuckDbDoesOverTheScannedRows() {
        long seed = Long.getLong("chronix.test.seed", System.nanoTime());
        Random r = new Random(seed);
        int shortcuts = 0;
        try (SqlFixture f = new SqlFixture(dir, SqlFixture.config().withOooToleranceShards(100))) {
            // the queries name the tag host: with it never written (a first step of few points, all
            // without it) the column would not exist and every query would be a binder error
            f.write(b -> b.beginPoint("cpu", T0).tag("host", "a").floatField("usage", 1).endPoint());
            for (int step = 0; step < 12; step++) {
                int points = 1 + r.nextInt(200);
                f.write(b -> {
                    for (int p = 0; p < points; p++) {
                        b.beginPoint("cpu", T0 + r.nextInt(4 * 3600) * SECOND + r.nextInt(3)); // four hourly shards, overwrites
                        SqlModelTest.randomTags(r, b, false);
                        b.floatField("usage", r.nextInt(100)).endPoint();
                    }
                });
                f.randomMaintenance(r);
                for (int q = 0; q < 10; q++) {
                    String sql = randomCount(r);
                    SqlFixture.Answer fast = f.answer(sql);
                    SqlFixture.Answer full = f.answer("SELECT * FROM (" + sql + ")");
                    assertThat(full.by()).isEqualTo(SqlQuery.AnsweredBy.DUCKDB);
                    assertThat(fast.columns()).as("seed %d: %s", seed, sql).isEqualTo(full.columns());
                    assertThat(fast.rows()).as("seed %d: %s", seed, sql).isEqualTo(full.rows());
                    if (fast.by() == SqlQuery.AnsweredBy.ENGINE_COUNT) {
                        shortcuts++;
                    }
                }
            }
            // a microsecond literal: DuckDB casts it up to nanoseconds to compare, and so does the
            // scan's range; points at T0 and a nanosecond or two after it sit on the bound
            for (String op : List.of(">=", ">", "<=", "<", "=")) {
                String sql = "SELECT count(*) FROM cpu WHERE time " + op + " TIMESTAMP '2026-01-01 00:00:00'";
                SqlFixture.Answer fast = f.answer(sql);
                assertThat(fast.by()).as(sql).isEqualTo(SqlQuery.AnsweredBy.ENGINE_COUNT);
                assertThat(fast.rows()).as(sql).isEqualTo(f.answer("SELECT * FROM (" + sql + ")").rows());
            }
            assertThat(f.answer("SELECT count(*) FROM cpu WHERE host = 'a' AND host = 'b'").by()).isNotEqualTo(SqlQuery.AnsweredBy.ENGINE_COUNT);
            assertThat(f.answer("SELECT count(*) FROM cpu WHERE usage > 5").by()).isNotEqualTo(SqlQuery.AnsweredBy.ENGINE_COUNT);
            assertThat(f.answer("SELECT count(*) FROM cpu GROUP BY host").by()).isNotEqualTo(SqlQuery.AnsweredBy.ENGINE_COUNT);
            assertThat(f.answer("SELECT count(*) FROM cpu LIMIT 1").by()).isNotEqualTo(SqlQuery.AnsweredBy.ENGINE_COUNT);
        }
        assertThat(shortcuts).as("seed %d: the shortcut was taken", seed).isGreaterThan(20);
    }

    private static String randomCount(Random r) {
        StringBuilder sb = new StringBuilder(switch (r.nextInt(4)) {
            case 0 -> "SELECT count(*) FROM cpu";
            case 1 -> "SELECT COUNT(*) AS n FROM cpu";
            case 2 -> "SELECT count() FROM cpu c";
            default -> "SELECT count(*) AS \"rows\" FROM cpu";
        });
        List<String> conjuncts = new ArrayList<>();
        String q = sb.toString().endsWith(" c") ? "c." : "";
        if (r.nextBoolean()) {
            long from = T0 + r.nextInt(5 * 3600) * SECOND - 1800 * SECOND + r.nextInt(3);
            conjuncts.add(q + "time " + (r.nextBoolean() ? ">=" : ">") + " " + literal(r, from));
            if (r.nextBoolean()) {
                conjuncts.add(literal(r, from + r.nextInt(3 * 3600) * SECOND) + (r.nextBoolean() ? " > " : " >= ") + q + "time");
            }
        }
        switch (r.nextInt(5)) {
            case 0 -> conjuncts.add(q + "host = 'a'");
            case 1 -> conjuncts.add(q + "host IN ('a', 'c')");
            case 2 -> conjuncts.add(q + "host IS NULL");
            default -> {
            }
        }
        if (r.nextInt(8) == 0) {
            conjuncts.add(q + "usage IS NULL");
        }
        if (!conjuncts.isEmpty()) {
            sb.append(" WHERE ").append(String.join(" AND ", conjuncts));
        }
        return sb.toString();
    }

    private static String literal(Random r, long ns) {
        String text = SqlModelTest.ts(ns); // TIMESTAMP_NS '…'
        return switch (r.nextInt(3)) {
            case 0 -> text;
            case 1 -> text.substring("TIMESTAMP_NS ".length()); // a bare string, cast by DuckDB to the column's type
            default -> "TIMESTAMP '" + text.substring("TIMESTAMP_NS '".length(), text.length() - 4) + "'"; // microseconds
        };
    }
}
