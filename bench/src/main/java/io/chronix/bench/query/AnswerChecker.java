package io.chronix.bench.query;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Compares a target's answer with the reference answer.
 *
 * <p>Only the reference's columns are compared (a target may return more, e.g. the other tags of
 * {@code SELECT *}); each must exist in the answer by name. Rows are matched after sorting both sides
 * by their key columns ({@code time}, {@code hostname}) unless the order itself is checked. Numbers
 * are equal within a relative tolerance of {@value #RELATIVE_TOLERANCE}: the data are integers or
 * exactly printed doubles, so only summation order in averages can differ, by far less than that.
 */
public final class AnswerChecker {
    public static final double RELATIVE_TOLERANCE = 1e-9;
    private static final int MAX_REPORTED = 5;

    private AnswerChecker() {
    }

    /**
     * @param checkOrder also require the answer's rows in the reference's order (the query has an
     *                   ORDER BY that the target honours)
     * @throws WrongAnswerException naming the first differences
     */
    public static void check(String what, ResultTable expected, ResultTable actual, boolean checkOrder) {
        if (expected.size() == 0 && actual.size() == 0) {
            return; // an empty answer may come without column names (InfluxDB sends no series)
        }
        int[] map = new int[expected.columns().size()];
        for (int c = 0; c < map.length; c++) {
            map[c] = actual.indexOf(expected.columns().get(c));
            if (map[c] < 0) {
                throw new WrongAnswerException(what + ": answer lacks column '" + expected.columns().get(c)
                        + "' [answer columns=" + actual.columns() + "]");
            }
        }
        List<List<Object>> got = new ArrayList<>(actual.size());
        for (List<Object> row : actual.rows()) {
            List<Object> projected = new ArrayList<>(map.length);
            for (int index : map) {
                projected.add(row.get(index));
            }
            got.add(projected);
        }
        List<List<Object>> want = new ArrayList<>(expected.rows());
        if (want.size() != got.size()) {
            throw new WrongAnswerException(what + ": expected " + want.size() + " rows, got " + got.size()
                    + firstRows("expected", want) + firstRows("got", got));
        }
        if (!checkOrder) {
            Comparator<List<Object>> byKey = keyOrder(expected.columns());
            want.sort(byKey);
            got.sort(byKey);
        }
        List<String> problems = new ArrayList<>();
        for (int r = 0; r < want.size() && problems.size() < MAX_REPORTED; r++) {
            for (int c = 0; c < map.length; c++) {
                Object w = want.get(r).get(c);
                Object g = got.get(r).get(c);
                if (!same(w, g)) {
                    problems.add("row " + r + " column '" + expected.columns().get(c) + "': expected " + w
                            + ", got " + g + " [expected row=" + want.get(r) + ", got row=" + got.get(r) + "]");
                    break;
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new WrongAnswerException(what + ": " + String.join("; ", problems));
        }
    }

    /** Whether two normalised cells are equal: doubles within the tolerance, anything else by {@code equals}. */
    public static boolean same(Object expected, Object actual) {
        if (expected instanceof Double e && actual instanceof Double a) {
            if (e.equals(a)) {
                return true;
            }
            double scale = Math.max(1.0, Math.max(Math.abs(e), Math.abs(a)));
            return Math.abs(e - a) <= RELATIVE_TOLERANCE * scale;
        }
        return Objects.equals(expected, actual);
    }

    private static Comparator<List<Object>> keyOrder(List<String> columns) {
        List<Integer> keys = new ArrayList<>();
        for (String k : List.of(ResultTable.TIME, "hostname")) {
            int i = columns.indexOf(k);
            if (i >= 0) {
                keys.add(i);
            }
        }
        Comparator<List<Object>> order = (a, b) -> 0;
        for (int k : keys) {
            order = order.thenComparing(row -> comparable(row.get(k)),
                    Comparator.nullsFirst(Comparator.naturalOrder()));
        }
        return order;
    }

    @SuppressWarnings("unchecked")
    private static Comparable<Object> comparable(Object v) {
        return (Comparable<Object>) v;
    }

    private static String firstRows(String label, List<List<Object>> rows) {
        return " [" + label + " first rows=" + rows.subList(0, Math.min(3, rows.size())) + "]";
    }
}
