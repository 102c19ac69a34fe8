package io.chronix.api.sql;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A statement's parse tree found through its template ({@link ParseTemplate}) is, byte for byte,
 * the tree DuckDB gives for the statement itself: checked over random statements whose literals
 * vary in length, content and place, and over the forms the template must leave alone.
 */
class ParseTemplateTest {

    static SqlSandbox sandbox;
    static Connection plain;
    static PreparedStatement direct;

    @BeforeAll
    static void open() throws SQLException {
        sandbox = SqlSandbox.open(new SqlSandbox.Limits(2, 256L << 20));
        plain = DriverManager.getConnection("jdbc:duckdb:");
        direct = plain.prepareStatement("SELECT json_serialize_sql(?::VARCHAR)");
    }

    @AfterAll
    static void close() throws SQLException {
        direct.close();
        plain.close();
        sandbox.close();
    }

    private static String duckDb(String sql) throws SQLException {
        direct.setString(1, sql);
        try (ResultSet rs = direct.executeQuery()) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static final List<String> SHAPES = List.of(
            "SELECT time_bucket(INTERVAL '60 seconds', time) AS time, max(usage_user) AS m FROM cpu WHERE hostname IN (%s, %s)"
                    + " AND time >= TIMESTAMP %s AND time < TIMESTAMP %s GROUP BY 1 ORDER BY 1",
            "SELECT * FROM cpu WHERE host = %s AND region = %s AND time >= %s AND time <= %s LIMIT 10",
            "SELECT %s AS label, count(*) FROM cpu WHERE host LIKE %s OR host = %s GROUP BY 1 HAVING max(time) > %s::TIMESTAMP",
            "SELECT CASE WHEN host = %s THEN %s ELSE %s END AS x FROM \"cpu\" WHERE time BETWEEN %s AND '2016-01-02'",
            "WITH w AS (SELECT * FROM cpu WHERE host = %s) SELECT a.host, b.host FROM w a JOIN cpu b ON a.host = b.host AND b.dc = %s"
                    + " WHERE a.time > %s AND b.time < %s",
            "SELECT date_bin(INTERVAL %s, time, TIMESTAMP %s) AS t, avg(v) FROM m WHERE k IN (SELECT k FROM m WHERE k = %s) AND x <> %s GROUP BY 1",
            "SELECT %s, %s, %s, %s FROM (VALUES (1)) v(x)",
            "SELECT COLUMNS(%s), * EXCLUDE (%s) FROM %s AS t WHERE x = %s",
            "SELECT x AS %s, INTERVAL %s HOUR, %s::DATE FROM cpu ORDER BY %s",
            "SET search_path = %s; SELECT %s || %s, %s",
            "PIVOT cpu ON host IN (%s, %s) USING max(v) GROUP BY %s, %s",
            "SELEC %s, %s FROM cpu WHERE a = %s AND b = %s");

    /** A literal as SQL text: plain values of several lengths, and values the template must leave in place. */
    private static String literal(Random r) {
        return switch (r.nextInt(12)) {
            case 0 -> "'a'";
            case 1 -> "'host_" + r.nextInt(1000) + "'";
            case 2 -> "'2016-01-0" + (1 + r.nextInt(9)) + " " + (10 + r.nextInt(14)) + ":" + (10 + r.nextInt(50)) + ":0" + r.nextInt(10) + "'";
            case 3 -> "'2016-01-01T00:00:00." + r.nextInt(1_000_000_000) + "Z'";
            case 4 -> "'it''s quoted'";
            case 5 -> "'ünïcödé value'";
            case 6 -> "'back\\slash value'";
            case 7 -> "'" + r.nextInt(100) + " minutes'";
            case 8 -> "'with \"double\" quotes'";
            case 9 -> "'slash/in/value'";
            case 10 -> "''";
            default -> "'" + "x".repeat(r.nextInt(30)) + "'";
        };
    }

    /** One of {@link #SHAPES} with random literals. */
    private static String statement(Random r) {
        String shape = SHAPES.get(r.nextInt(SHAPES.size()));
        Object[] literals = new Object[4];
        for (int k = 0; k < literals.length; k++) {
            literals[k] = literal(r);
        }
        return shape.formatted(literals);
    }

    /**
     * Over random statements: the text through a template ({@link SqlSandbox#serialize(int, String)})
     * is DuckDB's text, and the tree the analysis reads ({@link SqlSandbox#statementTree}), bound
     * from a template's shared tree, is DuckDB's tree: the same nodes, and each location, moved by
     * the tree's own mapping, the statement's. Binding many statements onto one shared tree also
     * shows that binding leaves it as it was.
     */
    @Test
    void theTreeThroughATemplateIsDuckDbsTree() throws SQLException {
        long seed = Long.getLong("chronix.test.seed", System.nanoTime());
        Random r = new Random(seed);
        long templatedBefore = sandbox.templatedParses();
        for (int i = 0; i < 400; i++) {
            String sql = statement(r);
            String duckDb = duckDb(sql);
            assertThat(sandbox.serialize(1, sql)).as("seed %d: %s", seed, sql).isEqualTo(duckDb);
            StatementAnalysis.StatementTree bound = sandbox.statementTree(9, sql);
            assertThat(locationsMoved(bound.root(), bound.location())).as("seed %d: %s", seed, sql)
                    .isEqualTo(locationsMoved(StatementAnalysis.read(duckDb), java.util.function.LongUnaryOperator.identity()));
        }
        assertThat(sandbox.templatedParses() - templatedBefore).as("seed %d: templates were used", seed).isGreaterThan(200);
    }

    @Test
    void anAnalysisErrorAfterALiteralNamesTheStatementsOwnPosition() throws SQLException {
        long templated = sandbox.templatedParses();
        for (String literal : List.of("'abcdef'", "'abcdefghijklmnop'", "'2016-01-01 00:00:00.123456789'")) {
            String sql = "SELECT " + literal + " AS x FROM cpu WHERE host = " + literal + " UNION ALL SELECT 'zyxwvu' FROM nosuch";
            StatementAnalysis.StatementTree tree = sandbox.statementTree(10, sql);
            assertThat(tree.location().applyAsLong(0)).isZero();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> StatementAnalysis.analyse(sql, tree, java.util.Set.of("cpu"),
                            m -> java.util.Optional.empty(), (text, type) -> java.util.OptionalLong.empty()))
                    .isInstanceOfSatisfying(SqlErrorException.class, e -> assertThat(e.position()).as(sql).isEqualTo(sql.indexOf("nosuch")));
        }
        assertThat(sandbox.templatedParses() - templated).as("each tree bound from the one template's").isEqualTo(3);
    }

    /** {@code tree} with each {@code query_location} moved by {@code location}, and without the lengths (not read). */
    private static tools.jackson.databind.JsonNode locationsMoved(tools.jackson.databind.JsonNode tree, java.util.function.LongUnaryOperator location) {
        tools.jackson.databind.JsonNode copy = tree.deepCopy();
        move(copy, location);
        return copy;
    }

    private static void move(tools.jackson.databind.JsonNode node, java.util.function.LongUnaryOperator location) {
        if (node instanceof tools.jackson.databind.node.ObjectNode o) {
            if (o.has("query_location")) {
                o.put("query_location", location.applyAsLong(o.get("query_location").asLong()));
            }
            o.remove("query_location_length");
        }
        for (tools.jackson.databind.JsonNode child : node) {
            move(child, location);
        }
    }

    @Test
    void statementsDifferingInTheirLiteralsShareOneParse() throws SQLException {
        String shape = "SELECT max(usage_user) FROM cpu WHERE hostname IN ('%s') AND time >= TIMESTAMP '%s' AND time < TIMESTAMP '%s'";
        String first = shape.formatted("host_43", "2016-01-01 02:24:46", "2016-01-01 03:24:46");
        // literals of other lengths too: every marker has one length, the locations after them move
        String second = shape.formatted("host_7", "2016-01-01 11:02:03.123456789", "2016-01-01 12:02:03");
        String third = shape.formatted("host_391", "2016-01-01 11:02:03", "2016-01-01T12:02:03Z");
        sandbox.serialize(2, first);
        long misses = sandbox.parseCacheStats().missCount();
        long templated = sandbox.templatedParses();
        String tree = sandbox.serialize(2, second);
        assertThat(tree).isEqualTo(duckDb(second)).contains("\"text\":\"host_7\"", "\"text\":\"2016-01-01 11:02:03.123456789\"");
        assertThat(sandbox.serialize(2, third)).isEqualTo(duckDb(third));
        assertThat(duckDb(second)).as("the trees differ in their locations, not only their literals")
                .isNotEqualTo(duckDb(third).replace("host_391", "host_7"));
        assertThat(sandbox.parseCacheStats().missCount()).as("DuckDB parsed nothing").isEqualTo(misses);
        assertThat(sandbox.templatedParses()).isEqualTo(templated + 2);
        // another scope (namespace) parses for itself
        sandbox.serialize(3, second);
        assertThat(sandbox.parseCacheStats().missCount()).isEqualTo(misses + 1);
    }

    @Test
    void anErrorAfterALiteralNamesTheStatementsOwnPosition() throws SQLException {
        // a binder error's position is read from a location in the tree: after a literal longer or
        // shorter than its marker it must still point into the statement as sent
        String sql = "SELECT max(usage_user) FROM cpu WHERE hostname = 'host_123456789' AND time >= '2016-01-01T00:00:00Z' AND nope(1) > 0";
        String tree = sandbox.serialize(6, sql);
        assertThat(tree).isEqualTo(duckDb(sql));
        long nope = sql.indexOf("nope");
        assertThat(tree).contains("\"query_location\":" + nope);
    }

    @Test
    void formsTheScanDoesNotFollowHaveNoTemplate() throws SQLException {
        List<String> none = List.of(
                "SELECT 'host_43' -- a comment with a quote '",
                "SELECT /* 'host_43' */ 'host_44'",
                "SELECT $$host_43$$, 'host_44'",
                "SELECT E'host_43\\n'",
                "SELECT X'abcdef01', 'host_44'",
                "SELECT 'host_43",
                "SELECT \"unterminated, 'host_44'",
                "SELECT 'a', 'bc'", // nothing long enough
                "SELECT 'host_43', '~0~JvKw'"); // the statement spells a marker
        for (String sql : none) {
            assertThat(ParseTemplate.of(sql)).as(sql).isNull();
            assertThat(sandbox.serialize(4, sql)).as(sql).isEqualTo(duckDb(sql));
        }
        ParseTemplate t = ParseTemplate.of("SELECT \"it's\" FROM cpu WHERE a = 'it''s long' AND b = 'abcdef' AND c = 'ab'");
        assertThat(t).isNotNull();
        assertThat(t.literals()).as("only the plain literal of six characters or more").isEqualTo(1);
        assertThat(t.text()).isEqualTo("SELECT \"it's\" FROM cpu WHERE a = 'it''s long' AND b = '~0~JvK' AND c = 'ab'");
        List<String> statements = new ArrayList<>(none);
        statements.add("SELECT 1");
        for (String sql : statements) {
            assertThat(sandbox.serialize(5, sql)).isEqualTo(duckDb(sql));
        }
    }
}
