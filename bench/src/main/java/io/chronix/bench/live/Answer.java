package io.chronix.bench.live;

import io.chronix.bench.query.AnswerChecker;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * One SQL answer, normalised so that Chronix's JSON and DuckDB's JDBC rows compare cell by cell.
 * Cells are typed by the column's DuckDB type name ({@link #kindOf}): {@code null}; {@link Instant}
 * for every timestamp (so {@code TIMESTAMP_NS} and {@code TIMESTAMP} of the same instant are equal);
 * {@link BigDecimal} without trailing zeros for exact numbers (integers of any width, decimals);
 * {@link Double} for {@code DOUBLE}/{@code FLOAT}; {@link Boolean}; {@link String} for text and for
 * any other type's text.
 *
 * @param columns the answer's column names, in order, as the engine named them
 * @param rows    the rows, each as many cells as there are columns
 */
public record Answer(List<String> columns, List<List<Object>> rows) {

    /** How a column's values are held. */
    enum Kind { TIME, EXACT, DOUBLE, BOOLEAN, TEXT }

    public Answer {
        columns = List.copyOf(columns);
        List<List<Object>> copy = new ArrayList<>(rows.size());
        for (List<Object> row : rows) {
            if (row.size() != columns.size()) {
                throw new IllegalArgumentException("row has " + row.size() + " cells but there are " + columns.size()
                        + " columns " + columns);
            }
            copy.add(Collections.unmodifiableList(new ArrayList<>(row)));
        }
        rows = Collections.unmodifiableList(copy);
    }

    /** The kind of a DuckDB type name, as DuckDB's JDBC metadata and Chronix's JSON {@code type} spell it. */
    static Kind kindOf(String typeName) {
        String t = typeName.toUpperCase(Locale.ROOT);
        if (t.startsWith("TIMESTAMP")) {
            return Kind.TIME; // TIMESTAMP, TIMESTAMP_NS/_MS/_S, TIMESTAMPTZ, TIMESTAMP WITH TIME ZONE
        }
        if (t.equals("DOUBLE") || t.equals("FLOAT") || t.equals("REAL")) {
            return Kind.DOUBLE;
        }
        if (t.equals("BOOLEAN")) {
            return Kind.BOOLEAN;
        }
        if (t.startsWith("DECIMAL") || t.endsWith("INT") || t.equals("UHUGEINT") || t.equals("INTEGER")) {
            return Kind.EXACT; // TINYINT … HUGEINT, UTINYINT … UHUGEINT, INTEGER, DECIMAL(p,s)
        }
        return Kind.TEXT;
    }

    /** An exact number as the normalised cell: equal values are {@code equals}, whatever their scale. */
    static BigDecimal exact(String digits) {
        BigDecimal d = new BigDecimal(digits);
        return d.signum() == 0 ? BigDecimal.ZERO : d.stripTrailingZeros();
    }

    /**
     * Compares {@code actual} with {@code expected}: the same column names in the same order, the same
     * number of rows, and each cell equal — doubles within {@link AnswerChecker#RELATIVE_TOLERANCE}
     * (relative; absolute below 1), NaN equal to NaN, everything else exactly. Rows are compared in
     * order when {@code ordered} (the statement has a top-level {@code ORDER BY} that orders them
     * totally); otherwise both sides are sorted first, by their exact cells and then by their
     * doubles, so that last-bit differences of a sum cannot reorder rows whose other cells differ.
     *
     * @return null if the answers are the same, otherwise the first differences, readable
     */
    public static String difference(Answer expected, Answer actual, boolean ordered) {
        if (!expected.columns.equals(actual.columns)) {
            return "columns " + actual.columns + ", expected " + expected.columns;
        }
        if (expected.rows.size() != actual.rows.size()) {
            return actual.rows.size() + " rows, expected " + expected.rows.size() + first("expected", expected.rows)
                    + first("got", actual.rows);
        }
        List<List<Object>> want = expected.rows;
        List<List<Object>> got = actual.rows;
        if (!ordered) {
            Comparator<List<Object>> order = rowOrder(expected);
            want = new ArrayList<>(want);
            got = new ArrayList<>(got);
            want.sort(order);
            got.sort(order);
        }
        for (int r = 0; r < want.size(); r++) {
            for (int c = 0; c < expected.columns.size(); c++) {
                Object w = want.get(r).get(c);
                Object g = got.get(r).get(c);
                if (!AnswerChecker.same(w, g)) { // Double.equals holds NaN equal to NaN
                    return (ordered ? "row " : "sorted row ") + r + ", column '" + expected.columns.get(c) + "': "
                            + describe(g) + ", expected " + describe(w) + " [row " + got.get(r) + ", expected " + want.get(r) + "]";
                }
            }
        }
        return null;
    }

    private static String describe(Object cell) {
        return cell == null ? "NULL" : cell + " (" + cell.getClass().getSimpleName() + ")";
    }

    /** Exact columns first, doubles last, each cell by {@link #compareCells}. */
    private static Comparator<List<Object>> rowOrder(Answer a) {
        List<Integer> keys = new ArrayList<>();
        List<Integer> doubles = new ArrayList<>();
        for (int c = 0; c < a.columns.size(); c++) {
            boolean isDouble = false;
            for (List<Object> row : a.rows) {
                if (row.get(c) != null) {
                    isDouble = row.get(c) instanceof Double;
                    break;
                }
            }
            (isDouble ? doubles : keys).add(c);
        }
        keys.addAll(doubles);
        return (x, y) -> {
            for (int c : keys) {
                int d = compareCells(x.get(c), y.get(c));
                if (d != 0) {
                    return d;
                }
            }
            return 0;
        };
    }

    /** A total order over cells: NULL first, then by class name, then by value. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static int compareCells(Object x, Object y) {
        if (x == null || y == null) {
            return x == null ? (y == null ? 0 : -1) : 1;
        }
        if (x.getClass() != y.getClass()) {
            return x.getClass().getName().compareTo(y.getClass().getName());
        }
        return ((Comparable) x).compareTo(y);
    }

    private static String first(String label, List<List<Object>> rows) {
        return " [" + label + " first rows " + rows.subList(0, Math.min(3, rows.size())) + "]";
    }
}
