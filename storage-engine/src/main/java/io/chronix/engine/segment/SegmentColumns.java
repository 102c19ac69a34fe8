package io.chronix.engine.segment;

import io.chronix.engine.model.FieldType;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The segment writer's input: the rows of ONE measurement, columnar, sorted series by series.
 *
 * <h2>Shape</h2>
 * <ul>
 *   <li>{@code time}: epoch nanoseconds, one per row.
 *   <li>Tag columns, <b>in sort order</b> (the order the rows are sorted by — usually ascending
 *       cardinality, so that a series' rows are one stretch and runs are long): a {@code String[]}
 *       per tag, {@code null} where a row has no such tag.
 *   <li>Field columns, any order: a typed primitive array ({@code double[]} float, {@code long[]}
 *       integer and unsigned — unsigned as the two's-complement bits —, {@code boolean[]}) with an
 *       optional validity bitmap ({@code long[]} words, LSB-first, bit {@code i} set = row {@code i}
 *       holds a value; {@code null} = no nulls, exactly Arrow's bit layout); or {@code String[]}
 *       with {@code null} entries for NULL. The value in a null slot is ignored.
 * </ul>
 * Arrays may be longer than {@code rowCount}; only the first {@code rowCount} entries are read.
 * The arrays are borrowed, not copied: do not change them until the writer's {@code append} returns.
 *
 * <h2>Order</h2>
 * Rows are sorted by the tag values in the given tag order (lexicographically by {@link
 * String#compareTo}, an absent tag before any value), then by time. Within a series (equal tag
 * values) time is <b>strictly</b> increasing: duplicates were resolved (last write wins) before.
 * {@link Builder#build()} checks all of it and refuses a violation naming the row.
 *
 * <p>Column names are unique across tags and fields, non-empty, and not {@code time}.
 */
public final class SegmentColumns {

    /** The reserved name of the timestamp column. */
    public static final String TIME = "time";

    private final String measurement;
    private final int rowCount;
    private final long[] time;
    private final List<TagColumn> tags;
    private final List<FieldColumn> fields;

    private SegmentColumns(String measurement, int rowCount, long[] time, List<TagColumn> tags, List<FieldColumn> fields) {
        this.measurement = measurement;
        this.rowCount = rowCount;
        this.time = time;
        this.tags = List.copyOf(tags);
        this.fields = List.copyOf(fields);
    }

    public static Builder builder(String measurement, int rowCount) {
        return new Builder(measurement, rowCount);
    }

    public String measurement() {
        return measurement;
    }

    public int rowCount() {
        return rowCount;
    }

    public long[] time() {
        return time;
    }

    /** Tag columns in sort order. */
    public List<TagColumn> tags() {
        return tags;
    }

    public List<FieldColumn> fields() {
        return fields;
    }

    /** A tag column: {@code values[row]} or {@code null} where the row has no such tag. */
    public record TagColumn(String name, String[] values) {
        public TagColumn {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(values, "values");
        }
    }

    /**
     * A field column. Exactly one of the arrays is set, by {@link #type()}; {@code validity} is
     * {@code null} when the column has no nulls (always {@code null} for strings, whose nulls are
     * {@code null} entries).
     */
    public record FieldColumn(String name, FieldType type, double[] doubles, long[] longs, boolean[] booleans,
                              String[] strings, long[] validity) {

        public FieldColumn {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(type, "type");
            boolean ok = switch (type) {
                case FLOAT -> doubles != null;
                case INTEGER, UNSIGNED -> longs != null;
                case BOOLEAN -> booleans != null;
                case STRING -> strings != null && validity == null;
            };
            if (!ok) {
                throw new IllegalArgumentException("field column arrays do not match its type [name=" + name + ", type=" + type + "]");
            }
        }

        /** True if row {@code i} holds a value. */
        public boolean isPresent(int i) {
            if (type == FieldType.STRING) {
                return strings[i] != null;
            }
            return validity == null || (validity[i >>> 6] & (1L << i)) != 0;
        }

        int length() {
            return switch (type) {
                case FLOAT -> doubles.length;
                case INTEGER, UNSIGNED -> longs.length;
                case BOOLEAN -> booleans.length;
                case STRING -> strings.length;
            };
        }
    }

    /** Collects the columns; {@link #build()} validates. */
    public static final class Builder {
        private final String measurement;
        private final int rowCount;
        private long[] time;
        private final List<TagColumn> tags = new ArrayList<>();
        private final List<FieldColumn> fields = new ArrayList<>();

        private Builder(String measurement, int rowCount) {
            Objects.requireNonNull(measurement, "measurement");
            if (measurement.isEmpty()) {
                throw new IllegalArgumentException("measurement must not be empty");
            }
            if (rowCount < 0) {
                throw new IllegalArgumentException("rowCount must not be negative [rowCount=" + rowCount + "]");
            }
            this.measurement = measurement;
            this.rowCount = rowCount;
        }

        public Builder time(long[] time) {
            this.time = Objects.requireNonNull(time, "time");
            return this;
        }

        /** Adds the next tag in sort order. */
        public Builder tag(String name, String[] values) {
            tags.add(new TagColumn(name, values));
            return this;
        }

        public Builder floatField(String name, double[] values, long[] validity) {
            fields.add(new FieldColumn(name, FieldType.FLOAT, values, null, null, null, validity));
            return this;
        }

        public Builder integerField(String name, long[] values, long[] validity) {
            fields.add(new FieldColumn(name, FieldType.INTEGER, null, values, null, null, validity));
            return this;
        }

        /** Unsigned 64-bit values as their two's-complement bits. */
        public Builder unsignedField(String name, long[] values, long[] validity) {
            fields.add(new FieldColumn(name, FieldType.UNSIGNED, null, values, null, null, validity));
            return this;
        }

        public Builder booleanField(String name, boolean[] values, long[] validity) {
            fields.add(new FieldColumn(name, FieldType.BOOLEAN, null, null, values, null, validity));
            return this;
        }

        /** {@code null} entries are NULL. */
        public Builder stringField(String name, String[] values) {
            fields.add(new FieldColumn(name, FieldType.STRING, null, null, null, values, null));
            return this;
        }

        public Builder field(FieldColumn column) {
            fields.add(Objects.requireNonNull(column, "column"));
            return this;
        }

        /**
         * Validates lengths, names and order.
         *
         * @throws IllegalArgumentException naming the offending column or row
         */
        public SegmentColumns build() {
            if (time == null) {
                throw new IllegalArgumentException("time column missing [measurement=" + measurement + "]");
            }
            if (time.length < rowCount) {
                throw new IllegalArgumentException("time column shorter than rowCount [length=" + time.length + ", rowCount=" + rowCount + "]");
            }
            Set<String> names = new HashSet<>();
            for (TagColumn t : tags) {
                checkName(names, t.name());
                if (t.values().length < rowCount) {
                    throw new IllegalArgumentException("tag column shorter than rowCount [tag=" + t.name() + "]");
                }
            }
            for (FieldColumn f : fields) {
                checkName(names, f.name());
                if (f.length() < rowCount) {
                    throw new IllegalArgumentException("field column shorter than rowCount [field=" + f.name() + "]");
                }
                if (f.validity() != null && f.validity().length < (rowCount + 63) / 64) {
                    throw new IllegalArgumentException("validity bitmap shorter than rowCount [field=" + f.name() + "]");
                }
            }
            checkOrder();
            return new SegmentColumns(measurement, rowCount, time, tags, fields);
        }

        private static void checkName(Set<String> names, String name) {
            if (name.isEmpty() || name.equals(TIME)) {
                throw new IllegalArgumentException("column name must be non-empty and not '" + TIME + "' [name=" + name + "]");
            }
            if (!names.add(name)) {
                throw new IllegalArgumentException("duplicate column name [name=" + name + "]");
            }
        }

        private void checkOrder() {
            for (int i = 1; i < rowCount; i++) {
                int c = compareSeries(tags, i - 1, i);
                if (c > 0) {
                    throw new IllegalArgumentException("rows not sorted series by series [measurement=" + measurement + ", row=" + i + "]");
                }
                if (c == 0 && time[i] <= time[i - 1]) {
                    throw new IllegalArgumentException("time not strictly increasing within a series [measurement="
                            + measurement + ", row=" + i + ", previous=" + time[i - 1] + ", time=" + time[i] + "]");
                }
            }
        }
    }

    /** Compares the series of row {@code a} and row {@code b} in tag sort order (absent first). */
    static int compareSeries(List<TagColumn> tags, int a, int b) {
        for (TagColumn t : tags) {
            int c = compareTag(t.values()[a], t.values()[b]);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    /** Compares two series' tag values (same tags, same order) as segments sort them: absent first, then {@link String#compareTo}. */
    public static int compareTuples(String[] a, String[] b) {
        for (int i = 0; i < a.length; i++) {
            int c = compareTag(a[i], b[i]);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    static int compareTag(String x, String y) {
        if (x == y) {
            return 0;
        }
        if (x == null) {
            return -1;
        }
        if (y == null) {
            return 1;
        }
        return x.compareTo(y);
    }
}
