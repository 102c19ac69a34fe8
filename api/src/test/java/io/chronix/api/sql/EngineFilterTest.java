package io.chronix.api.sql;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static io.chronix.api.sql.SqlFixture.SECOND;
import static io.chronix.api.sql.SqlFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The filter shape ({@link FilterShape}) is answered by {@link EngineFilter} from the scan's rows.
 * On random data — NULL tags and fields, NaN, ±0.0, sums that are not what they print, integers
 * past 2^53, overwrites, deletes, flushes and compaction — each random statement of the shape must
 * answer what DuckDB answers: the same statement with {@code true} added to its {@code WHERE},
 * which keeps the same rows but is outside the shape. Rows are compared as multisets: without
 * {@code ORDER BY} the order is the scan's, and two scans of the same rows may hand them over in
 * another order (compaction may have run between them).
 */
class EngineFilterTest {

    @TempDir Path dir;

    private static final double[] FLOATS = {0.0, -0.0, 1.0, 2.5, 0.1 + 0.2, 0.3, 90.0, 90.1, 100.0, -7.25, Double.NaN,
            Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1e300};
    private static final long[] LONGS = {0, 1, -1, 3, 5, 90, 91, -90, 1L << 53, (1L << 53) + 1, Long.MAX_VALUE, Long.MIN_VALUE};
    /**
     * Literals of every kind the shape reads: integers, decimals, exponents, negative, long and
     * huge. None makes DuckDB refuse a cast (a decimal of 25 places does, for a {@code BIGINT} past
     * 10^13), which it might or might not reach under a {@code LIMIT}.
     */
    private static final String[] LITERALS = {"0", "-0.0", "3", "2.5", "90.0", "90.05", "0.3", "0.30000000000000004", "1e1",
            "2.5e0", "-7.25", "9007199254740992", "9007199254740993", "9007199254740992.0", "9.007199254740993e15",
            "5.00000000000000001", "4.99999999999999999", "9223372036854775807", "-9223372036854775808",
            "99999999999999999999", "1e400", "1.2345678901234567890"};

    @Test
    void answersAsDuckDbDoes() {
        long seed = Long.getLong("chronix.test.seed", System.nanoTime());
        Random r = new Random(seed);
        Set<Long> used = new HashSet<>();
        int taken = 0;
        try (SqlFixture f = new SqlFixture(dir, SqlFixture.config().withOooToleranceShards(100))) {
            for (int step = 0; step < 10; step++) {
                int points = 1 + r.nextInt(200);
                f.write(b -> {
                    for (int p = 0; p < points; p++) {
                        long t = T0 + (long) r.nextInt(4 * 3600) * SECOND + r.nextInt(1000);
                        if (r.nextInt(5) > 0 && !used.add(t)) {
                            continue; // mostly new instants; some overwrite
                        }
                        b.beginPoint("cpu", t);
                        SqlModelTest.randomTags(r, b, true);
                        boolean usage = r.nextInt(4) > 0;
                        if (usage) {
                            b.floatField("usage", r.nextBoolean() ? FLOATS[r.nextInt(FLOATS.length)] : r.nextInt(200) - 50);
                        }
                        if (r.nextInt(4) > 0 || !usage) { // a point has a field at least
                            b.integerField("n", r.nextBoolean() ? LONGS[r.nextInt(LONGS.length)] : r.nextInt(200) - 50);
                        }
                        if (r.nextInt(3) == 0) {
                            b.stringField("state", r.nextBoolean() ? "ok" : "bad");
                        }
                        b.endPoint();
                    }
                });
                f.randomMaintenance(r);
                for (int q = 0; q < 20; q++) {
                    String[] sql = randomStatement(r);
                    try {
                        taken += compare(f, sql, seed);
                    } catch (RuntimeException e) {
                        throw new AssertionError("seed " + seed + ": " + sql[0], e);
                    }
                }
            }
        }
        assertThat(taken).as("seed %d: the engine answered", seed).isGreaterThan(100);
    }

    /** Compares the statement's answer with DuckDB's; 1 if the engine answered it. */
    private static int compare(SqlFixture f, String[] sql, long seed) {
        String fullError = error(f, sql[1]);
        if (fullError != null) {
            // DuckDB refuses some statements outside the shape (a cast it cannot make): so must the other
            assertThat(error(f, sql[0])).as("seed %d: %s", seed, sql[0]).isEqualTo(fullError);
            return 0;
        }
        SqlFixture.Answer fast = f.answer(sql[0]);
        SqlFixture.Answer full = f.answer(sql[1]);
        assertThat(full.by()).isEqualTo(SqlQuery.AnsweredBy.DUCKDB);
        assertThat(fast.columns()).as("seed %d: %s", seed, sql[0]).isEqualTo(full.columns());
        if (sql[2] == null) {
            assertThat(fast.rows()).as("seed %d: %s", seed, sql[0]).containsExactlyInAnyOrderElementsOf(full.rows());
        } else {
            // without ORDER BY, which rows a LIMIT keeps is the scan's choice: as many, from the whole answer
            assertThat(fast.rows()).as("seed %d: %s", seed, sql[0]).hasSameSizeAs(full.rows());
            assertThat(f.answer(sql[2]).rows()).as("seed %d: %s", seed, sql[0]).containsAll(fast.rows());
        }
        return fast.by() == SqlQuery.AnsweredBy.ENGINE_FILTER ? 1 : 0;
    }

    @Test
    void leavesOtherFiltersToDuckDb() {
        try (SqlFixture f = new SqlFixture(dir)) {
            f.write(b -> b.beginPoint("cpu", T0).tag("host", "a").floatField("usage", 1).integerField("n", 2)
                    .unsignedField("u", 3).booleanField("up", true).endPoint()
                    .beginPoint("cpu", T0 + SECOND).tag("host", "b").floatField("usage", 2).endPoint());
            for (String sql : List.of(
                    "SELECT * FROM cpu",
                    "SELECT * FROM cpu WHERE usage > 1.5",
                    "SELECT time, host AS h FROM cpu WHERE host = 'a' AND n >= 2 LIMIT 1",
                    "SELECT * FROM cpu WHERE 1.5 < usage AND usage <= 2")) {
                assertThat(f.answer(sql).by()).as(sql).isEqualTo(SqlQuery.AnsweredBy.ENGINE_FILTER);
            }
            for (String sql : List.of(
                    "SELECT * FROM cpu ORDER BY time", // an order
                    "SELECT DISTINCT host FROM cpu",
                    "SELECT usage + 1 AS u FROM cpu", // an expression
                    "SELECT * FROM cpu WHERE u > 1", // UNSIGNED
                    "SELECT * FROM cpu WHERE up = true",
                    "SELECT * FROM cpu WHERE usage <> 1", // no such operator here
                    "SELECT * FROM cpu WHERE usage > n", // two columns
                    "SELECT * FROM cpu WHERE n > 99999999999999999999", // past 64 bits
                    "SELECT * FROM cpu WHERE usage > 1 OR n > 1",
                    "SELECT * FROM cpu WHERE host = 'a' AND host = 'b'", // two predicates on one tag
                    "SELECT * FROM cpu LIMIT 10 PERCENT",
                    "SELECT * EXCLUDE (n) FROM cpu",
                    "SELECT * FROM cpu WHERE usage > 1e400",
                    "SELECT * FROM cpu WHERE n > 0.1234567890123456789012345")) { // more than 18 digits
                assertThat(f.answer(sql).by()).as(sql).isEqualTo(SqlQuery.AnsweredBy.DUCKDB);
            }
        }
    }

    /** DuckDB's message if it refuses the statement, else null. */
    private static String error(SqlFixture f, String sql) {
        try {
            f.answer(sql);
            return null;
        } catch (SqlErrorException e) {
            return e.getMessage();
        }
    }

    /**
     * The statement, the same with {@code true} among its conjuncts, and if it has a {@code LIMIT}
     * the latter without it (else null).
     */
    private static String[] randomStatement(Random r) {
        String select = switch (r.nextInt(4)) {
            case 0, 1 -> "*";
            case 2 -> "time, host, usage";
            default -> "host AS h, n, time, dc, usage AS u, n";
        };
        List<String> conjuncts = new ArrayList<>();
        SqlModelTest.randomTagPredicate(r, "dc", conjuncts);
        if (r.nextBoolean()) {
            long from = T0 + r.nextInt(5 * 3600) * SECOND - 1800 * SECOND + r.nextInt(1000);
            conjuncts.add("time " + (r.nextBoolean() ? ">= " : "> ") + SqlModelTest.ts(from));
        }
        if (r.nextBoolean()) {
            long to = T0 + r.nextInt(5 * 3600) * SECOND + r.nextInt(1000);
            conjuncts.add("time " + (r.nextBoolean() ? "<= " : "< ") + SqlModelTest.ts(to));
        }
        for (int k = r.nextInt(3); k > 0; k--) {
            String field = r.nextBoolean() ? "usage" : "n";
            String op = List.of("<", "<=", "=", ">=", ">").get(r.nextInt(5));
            String literal = LITERALS[r.nextInt(LITERALS.length)];
            conjuncts.add(r.nextInt(4) == 0 ? literal + " " + flipped(op) + " " + field : field + " " + op + " " + literal);
        }
        String limit = r.nextInt(4) == 0 ? " LIMIT " + r.nextInt(20) + (r.nextBoolean() ? " OFFSET " + r.nextInt(10) : "") : "";
        String head = "SELECT " + select + " FROM cpu";
        List<String> all = new ArrayList<>(conjuncts);
        all.add("true");
        return new String[]{
                head + (conjuncts.isEmpty() ? "" : " WHERE " + String.join(" AND ", conjuncts)) + limit,
                head + " WHERE " + String.join(" AND ", all) + limit,
                limit.isEmpty() ? null : head + " WHERE " + String.join(" AND ", all)};
    }

    private static String flipped(String op) {
        return switch (op) {
            case "<" -> ">";
            case "<=" -> ">=";
            case ">=" -> "<=";
            case ">" -> "<";
            default -> op;
        };
    }
}
