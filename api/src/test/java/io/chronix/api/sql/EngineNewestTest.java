package io.chronix.api.sql;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.TimeStampNanoVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.BiFunction;

import static io.chronix.api.sql.SqlFixture.SECOND;
import static io.chronix.api.sql.SqlFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lastpoint shape ({@link NewestShape}) is answered by {@link EngineNewest} from each series'
 * newest row. On random data — NULL tags, two tags, NULL fields, overwrites, deletes, flushes and
 * compaction — each random statement of the shape must answer what DuckDB answers from the whole
 * measurement: the same statement with {@code true} added to its {@code WHERE}, which keeps the
 * same rows but is outside the shape (so DuckDB reads every row). Instants are unique, so no two
 * series tie for a key's newest row.
 */
class EngineNewestTest {

    @TempDir Path dir;


    @Test
    void answersAsDuckDbDoesFromEveryRow() {
        long seed = Long.getLong("chronix.test.seed", System.nanoTime());
        Random r = new Random(seed);
        Set<Long> used = new HashSet<>();
        int taken = 0;
        try (SqlFixture f = new SqlFixture(dir, SqlFixture.config().withOooToleranceShards(100))) {
            f.write(b -> b.beginPoint("cpu", T0).tag("host", "a").tag("dc", "x").floatField("usage", 1).integerField("n", 1)
                    .stringField("state", "ok").endPoint());
            used.add(T0);
            for (int step = 0; step < 10; step++) {
                int points = 1 + r.nextInt(100);
                f.write(b -> {
                    for (int p = 0; p < points; p++) {
                        long t;
                        do {
                            t = T0 + (long) r.nextInt(4 * 3600) * SECOND + r.nextInt(1000);
                        } while (!used.add(t));
                        b.beginPoint("cpu", t);
                        SqlModelTest.randomTags(r, b, true);
                        if (r.nextBoolean()) {
                            b.floatField("usage", r.nextInt(100));
                        }
                        b.integerField("n", r.nextInt(10));
                        b.endPoint();
                    }
                });
                f.randomMaintenance(r);
                for (int q = 0; q < 15; q++) {
                    String[] sql = randomStatement(r);
                    SqlFixture.Answer fast = f.answer(sql[0]);
                    SqlFixture.Answer full = f.answer(sql[1]);
                    assertThat(full.by()).isEqualTo(SqlQuery.AnsweredBy.DUCKDB);
                    assertThat(fast.columns()).as("seed %d: %s", seed, sql[0]).isEqualTo(full.columns());
                    assertThat(fast.rows()).as("seed %d: %s", seed, sql[0]).isEqualTo(full.rows());
                    if (fast.by() == SqlQuery.AnsweredBy.ENGINE_NEWEST) {
                        taken++;
                    }
                }
            }
        }
        assertThat(taken).as("seed %d: the engine answered", seed).isGreaterThan(100);
    }

    @Test
    void leavesOtherDistinctOnStatementsToDuckDb() {
        try (SqlFixture f = new SqlFixture(dir)) {
            f.write(b -> b.beginPoint("cpu", T0).tag("host", "a").floatField("usage", 1).endPoint()
                    .beginPoint("cpu", T0 + SECOND).tag("host", "b").floatField("usage", 2).endPoint());
            assertThat(f.answer("SELECT DISTINCT ON (host) * FROM cpu ORDER BY host, time DESC").by())
                    .isEqualTo(SqlQuery.AnsweredBy.ENGINE_NEWEST);
            for (String sql : List.of(
                    "SELECT DISTINCT ON (host) * FROM cpu ORDER BY host, time DESC, usage", // an order after time
                    "SELECT DISTINCT ON (host) * FROM cpu ORDER BY host, time", // the oldest row
                    "SELECT DISTINCT ON (host) * FROM cpu ORDER BY host, time DESC LIMIT 50 PERCENT", // a share, not a count
                    "SELECT DISTINCT ON (host) * FROM cpu WHERE usage > 1 ORDER BY host, time DESC",
                    "SELECT DISTINCT ON (host) * FROM cpu WHERE time < TIMESTAMP '2026-01-01 00:00:00' ORDER BY host, time DESC",
                    "SELECT DISTINCT ON (host) usage + 1 AS u FROM cpu ORDER BY host, time DESC",
                    "SELECT DISTINCT ON (usage) * FROM cpu ORDER BY usage, time DESC")) {
                assertThat(f.answer(sql).by()).as(sql).isEqualTo(SqlQuery.AnsweredBy.DUCKDB);
            }
        }
    }

    /**
     * A scan whose rows are already one per key, in the statement's order and above its time bound
     * is kept as it is ({@link EngineNewest#inOrder}): keys compared as unsigned bytes, NULLs where
     * the statement puts them, the direction honoured; a repeated key or an early row is not.
     */
    @Test
    void keepsOnlyAScanAlreadyInTheStatementsOrder() {
        List<SelectedColumn> all = List.of(new SelectedColumn("time", "time"), new SelectedColumn("host", "host"));
        BiFunction<Boolean, Boolean, NewestShape> shape = (descending, nullsFirst) -> new NewestShape("cpu",
                T0, all, List.of(new NewestShape.Key("host", descending, nullsFirst)), Long.MAX_VALUE, 0);
        NewestShape ascending = shape.apply(false, false);
        try (BufferAllocator a = new RootAllocator()) {
            // "é" is 0xC3 0xA9: after "z" as unsigned bytes, before it as signed ones
            assertThat(inOrder(a, ascending, new String[] {"a", "b", "z", "\u00e9", null}, T0)).isTrue();
            assertThat(inOrder(a, ascending, new String[] {"a", "ab", "b"}, T0)).as("a prefix first").isTrue();
            assertThat(inOrder(a, ascending, new String[] {"a", "\u00e9", "z"}, T0)).isFalse();
            assertThat(inOrder(a, ascending, new String[] {"a", "b", "b"}, T0)).as("a key twice").isFalse();
            assertThat(inOrder(a, ascending, new String[] {"a", null, "b"}, T0)).as("NULLs last").isFalse();
            assertThat(inOrder(a, shape.apply(false, true), new String[] {null, "a", "b"}, T0)).isTrue();
            assertThat(inOrder(a, shape.apply(false, true), new String[] {"a", "b", null}, T0)).isFalse();
            assertThat(inOrder(a, shape.apply(true, false), new String[] {"b", "a", null}, T0)).isTrue();
            assertThat(inOrder(a, shape.apply(true, false), new String[] {"a", "b"}, T0)).isFalse();
            assertThat(inOrder(a, ascending, new String[] {"a", "b"}, T0 - 1)).as("a row below the time bound").isFalse();
            assertThat(inOrder(a, ascending, new String[] {}, T0)).isTrue();
        }
    }

    /** Whether a batch of these hosts (the second row at {@code secondTime}, the others at T0) is kept as it is. */
    private static boolean inOrder(BufferAllocator a, NewestShape shape, String[] hosts, long secondTime) {
        Schema schema = new Schema(List.of(
                Field.notNullable("time",
                        new ArrowType.Timestamp(TimeUnit.NANOSECOND, null)),
                Field.nullable("host", ArrowType.Utf8.INSTANCE)));
        try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, a)) {
            TimeStampNanoVector time = (TimeStampNanoVector) root.getVector("time");
            VarCharVector host = (VarCharVector) root.getVector("host");
            for (int i = 0; i < hosts.length; i++) {
                time.setSafe(i, i == 1 ? secondTime : T0);
                if (hosts[i] == null) {
                    host.setNull(i);
                } else {
                    host.setSafe(i, hosts[i].getBytes(StandardCharsets.UTF_8));
                }
            }
            root.setRowCount(hosts.length);
            return EngineNewest.inOrder(shape, root);
        }
    }

    /** The statement, and the same with {@code true} among its conjuncts. */
    private static String[] randomStatement(Random r) {
        String select = switch (r.nextInt(4)) {
            case 0 -> "*";
            case 1 -> "time, host, usage";
            case 2 -> "host, time, host AS h2, usage"; // a column shown twice: copied, not handed over
            default -> "host AS h, n, time, dc";
        };
        List<String> keys = new ArrayList<>(switch (r.nextInt(3)) {
            case 0 -> List.of("host");
            case 1 -> List.of("host", "dc");
            default -> List.of("dc");
        });
        List<String> orders = new ArrayList<>();
        Collections.shuffle(keys, r);
        for (String k : keys) {
            orders.add(k + switch (r.nextInt(3)) {
                case 0 -> "";
                case 1 -> " ASC";
                default -> " DESC";
            } + switch (r.nextInt(4)) {
                case 0 -> " NULLS FIRST";
                case 1 -> " NULLS LAST";
                default -> "";
            });
        }
        orders.add("time DESC");
        List<String> conjuncts = new ArrayList<>();
        SqlModelTest.randomTagPredicate(r, "dc", conjuncts);
        if (r.nextBoolean()) {
            long from = T0 + r.nextInt(5 * 3600) * SECOND - 1800 * SECOND + r.nextInt(1000);
            String text = SqlModelTest.ts(from);
            conjuncts.add("time " + (r.nextBoolean() ? ">= " : "> ") + switch (r.nextInt(3)) {
                case 0 -> text;
                case 1 -> text.substring("TIMESTAMP_NS ".length());
                default -> "TIMESTAMP '" + text.substring("TIMESTAMP_NS '".length(), text.length() - 4) + "'";
            });
        }
        String limit = r.nextInt(3) == 0 ? " LIMIT " + r.nextInt(5) + (r.nextBoolean() ? " OFFSET " + r.nextInt(3) : "") : "";
        String head = "SELECT DISTINCT ON (" + String.join(", ", keys) + ") " + select + " FROM cpu";
        String tail = " ORDER BY " + String.join(", ", orders) + limit;
        List<String> all = new ArrayList<>(conjuncts);
        all.add("true");
        return new String[]{
                head + (conjuncts.isEmpty() ? "" : " WHERE " + String.join(" AND ", conjuncts)) + tail,
                head + " WHERE " + String.join(" AND ", all) + tail};
    }
}
