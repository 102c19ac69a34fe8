package io.chronix.bench.live;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class AnswerTest {

    private static Answer answer(List<String> columns, List<?>... rows) {
        return new Answer(columns, Arrays.stream(rows).map(r -> (List<Object>) new java.util.ArrayList<Object>(r)).toList());
    }

    private static final List<String> COLUMNS = List.of("hostname", "n", "avg");

    @Test
    void doublesWithinTheRelativeToleranceAreEqual() {
        Answer expected = answer(COLUMNS, List.of("host_1", Answer.exact("3"), 1234.5678));
        Answer actual = answer(COLUMNS, List.of("host_1", Answer.exact("3"), 1234.5678 * (1 + 1e-12)));
        assertThat(Answer.difference(expected, actual, true)).isNull();
    }

    @Test
    void doublesBeyondTheToleranceDiffer() {
        Answer expected = answer(COLUMNS, List.of("host_1", Answer.exact("3"), 1234.5678));
        Answer actual = answer(COLUMNS, List.of("host_1", Answer.exact("3"), 1234.5679));
        assertThat(Answer.difference(expected, actual, true)).contains("column 'avg'");
    }

    @Test
    void exactNumbersAreComparedExactlyWhateverTheirScale() {
        assertThat(Answer.exact("58.000")).isEqualTo(Answer.exact("58"));
        assertThat(Answer.exact("0.00")).isEqualTo(Answer.exact("0"));
        Answer expected = answer(List.of("n"), List.of(Answer.exact("3456000")));
        assertThat(Answer.difference(expected, answer(List.of("n"), List.of(Answer.exact("3456001"))), true)).isNotNull();
    }

    @Test
    void anExactNumberIsNotADouble() {
        Answer expected = answer(List.of("n"), List.of(Answer.exact("58")));
        assertThat(Answer.difference(expected, answer(List.of("n"), List.of(58.0)), true)).contains("BigDecimal");
    }

    @Test
    void nanEqualsNanAndNullOnlyNull() {
        Answer expected = answer(List.of("a", "b"), Arrays.asList(Double.NaN, null));
        assertThat(Answer.difference(expected, answer(List.of("a", "b"), Arrays.asList(Double.NaN, null)), true)).isNull();
        assertThat(Answer.difference(expected, answer(List.of("a", "b"), Arrays.asList(Double.NaN, 0.0)), true)).contains("NULL");
    }

    @Test
    void rowOrderDoesNotMatterWithoutOrderBy() {
        Answer expected = answer(COLUMNS, List.of("host_1", Answer.exact("3"), 1.5), List.of("host_2", Answer.exact("4"), 2.5),
                List.of("host_0", Answer.exact("4"), 0.5));
        Answer shuffled = answer(COLUMNS, List.of("host_2", Answer.exact("4"), 2.5), List.of("host_0", Answer.exact("4"), 0.5),
                List.of("host_1", Answer.exact("3"), 1.5));
        assertThat(Answer.difference(expected, shuffled, false)).isNull();
        assertThat(Answer.difference(expected, shuffled, true)).startsWith("row 0");
    }

    @Test
    void unorderedRowsAreAMultisetNotASet() {
        Answer expected = answer(List.of("h"), List.of("a"), List.of("a"), List.of("b"));
        Answer actual = answer(List.of("h"), List.of("a"), List.of("b"), List.of("b"));
        assertThat(Answer.difference(expected, actual, false)).isNotNull();
    }

    @Test
    void unorderedRowsPairUpByTheirExactCellsWhenDoublesDifferInTheLastBits() {
        // sorted by the double alone, the nearly equal sums would swap the two hosts' rows
        Answer expected = answer(List.of("avg", "hostname"), List.of(0.30000000000000004, "host_1"), List.of(0.3, "host_2"));
        Answer actual = answer(List.of("avg", "hostname"), List.of(0.3, "host_1"), List.of(0.30000000000000004, "host_2"));
        assertThat(Answer.difference(expected, actual, false)).isNull();
    }

    @Test
    void columnNamesAndRowCountsMustMatch() {
        Answer expected = answer(List.of("a"), List.of("x"));
        assertThat(Answer.difference(expected, answer(List.of("b"), List.of("x")), false)).startsWith("columns");
        assertThat(Answer.difference(expected, answer(List.of("a"), List.of("x"), List.of("x")), false)).startsWith("2 rows");
    }

    @Test
    void timestampsOfEveryPrecisionAreInstants() {
        assertThat(Answer.kindOf("TIMESTAMP_NS")).isEqualTo(Answer.Kind.TIME);
        assertThat(Answer.kindOf("TIMESTAMP WITH TIME ZONE")).isEqualTo(Answer.Kind.TIME);
        assertThat(Answer.kindOf("HUGEINT")).isEqualTo(Answer.Kind.EXACT);
        assertThat(Answer.kindOf("DECIMAL(18,3)")).isEqualTo(Answer.Kind.EXACT);
        assertThat(Answer.kindOf("DOUBLE")).isEqualTo(Answer.Kind.DOUBLE);
        assertThat(Answer.kindOf("VARCHAR")).isEqualTo(Answer.Kind.TEXT);
        Answer a = answer(List.of("t"), List.of(Instant.parse("2016-01-01T00:00:00.000000001Z")));
        assertThat(Answer.difference(a, answer(List.of("t"), List.of(Instant.parse("2016-01-01T00:00:00Z"))), true)).isNotNull();
    }

    @Test
    void duckDbRowsAndChronixJsonOfTheSameAnswerCompareEqual() throws Exception {
        String sql = "SELECT TIMESTAMP_NS '2016-01-01 00:00:00.000000001' AS t, TIMESTAMP '2016-01-01 01:00:00' AS b,"
                + " 3456000::HUGEINT AS n, 58.0::DOUBLE AS d, 'host_1' AS s, NULL::BIGINT AS missing, 'NaN'::DOUBLE AS nan";
        // as docs/api.md has Chronix write it: every timestamp type named TIMESTAMP, integral doubles possibly without a fraction
        String json = "{\"columns\": [{\"name\": \"t\", \"type\": \"TIMESTAMP\"}, {\"name\": \"b\", \"type\": \"TIMESTAMP\"},"
                + " {\"name\": \"n\", \"type\": \"HUGEINT\"}, {\"name\": \"d\", \"type\": \"DOUBLE\"}, {\"name\": \"s\", \"type\": \"VARCHAR\"},"
                + " {\"name\": \"missing\", \"type\": \"BIGINT\"}, {\"name\": \"nan\", \"type\": \"DOUBLE\"}],"
                + " \"rows\": [[\"2016-01-01T00:00:00.000000001Z\", \"2016-01-01T01:00:00Z\", 3456000, 58, \"host_1\", null, \"NaN\"]]}";
        try (DuckDbReference duck = new DuckDbReference()) {
            Answer reference = duck.query(sql);
            assertThat(Answer.difference(reference, ChronixSql.parse(json), true)).isNull();
            assertThat(Answer.difference(reference, ChronixSql.parse(json.replace("3456000", "3456001")), true)).contains("column 'n'");
        }
    }
}
