package io.chronix.bench.query;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * A query answer, normalised across targets: column names (lower case) and rows whose cells are
 * {@code Long} epoch nanoseconds for {@code time}, {@code Double} for numbers, {@code String} for
 * text, and {@code null} for SQL NULL.
 */
public record ResultTable(List<String> columns, List<List<Object>> rows) {
    public static final String TIME = "time";

    public ResultTable {
        columns = columns.stream().map(c -> c.toLowerCase(Locale.ROOT)).toList();
        List<List<Object>> copy = new ArrayList<>(rows.size());
        for (List<Object> row : rows) {
            if (row.size() != columns.size()) {
                throw new IllegalArgumentException("row has " + row.size() + " cells but there are "
                        + columns.size() + " columns " + columns);
            }
            copy.add(Collections.unmodifiableList(new ArrayList<>(row)));
        }
        rows = Collections.unmodifiableList(copy);
    }

    public int indexOf(String column) {
        return columns.indexOf(column.toLowerCase(Locale.ROOT));
    }

    public int size() {
        return rows.size();
    }

    /** Normalises one cell the way every target's parser must: numbers to Double, time to Long. */
    public static Object normalise(String column, Object value) {
        if (value == null) {
            return null;
        }
        if (TIME.equalsIgnoreCase(column)) {
            if (value instanceof Number n) {
                return n.longValue();
            }
            java.time.Instant i = java.time.Instant.parse(value.toString());
            return i.getEpochSecond() * 1_000_000_000L + i.getNano();
        }
        if (value instanceof Number n) {
            return n.doubleValue();
        }
        if (value instanceof Boolean) {
            return value;
        }
        return value.toString();
    }
}
