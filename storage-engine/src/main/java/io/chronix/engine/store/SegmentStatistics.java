package io.chronix.engine.store;

import io.chronix.engine.catalog.ColumnStats;
import io.chronix.engine.model.FieldType;
import io.chronix.engine.schema.Column;
import io.chronix.engine.segment.SegmentColumns;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Computes the catalog's statistics of a segment from the columns flushed into it, so the catalog
 * does not depend on what a segment format chooses to record.
 */
public final class SegmentStatistics {

    private SegmentStatistics() {
    }

    /** Per-column stats of {@code cols}, tags then fields, each by name. */
    public static List<ColumnStats> of(SegmentColumns cols) {
        int n = cols.rowCount();
        List<ColumnStats> out = new ArrayList<>();
        List<SegmentColumns.TagColumn> tags = new ArrayList<>(cols.tags());
        tags.sort(Comparator.comparing(SegmentColumns.TagColumn::name));
        for (SegmentColumns.TagColumn t : tags) {
            long nulls = 0;
            String min = null;
            String max = null;
            for (int i = 0; i < n; i++) {
                String v = t.values()[i];
                if (v == null) {
                    nulls++;
                } else {
                    if (min == null || v.compareTo(min) < 0) {
                        min = v;
                    }
                    if (max == null || v.compareTo(max) > 0) {
                        max = v;
                    }
                }
            }
            out.add(new ColumnStats(t.name(), Column.Kind.TAG, null, nulls, min, max, false, 0, 0));
        }
        List<SegmentColumns.FieldColumn> fields = new ArrayList<>(cols.fields());
        fields.sort(Comparator.comparing(SegmentColumns.FieldColumn::name));
        for (SegmentColumns.FieldColumn f : fields) {
            long nulls = 0;
            boolean any = false;
            long min = Long.MAX_VALUE;
            long max = Long.MIN_VALUE;
            for (int i = 0; i < n; i++) {
                if (!f.isPresent(i)) {
                    nulls++;
                    continue;
                }
                long key;
                switch (f.type()) {
                    case FLOAT -> {
                        double d = f.doubles()[i];
                        if (Double.isNaN(d)) {
                            continue;
                        }
                        key = ColumnStats.orderedFloat(d);
                    }
                    case INTEGER -> key = f.longs()[i];
                    case UNSIGNED -> key = f.longs()[i] ^ Long.MIN_VALUE; // unsigned order as signed
                    case BOOLEAN -> key = f.booleans()[i] ? 1 : 0;
                    default -> {
                        continue;
                    }
                }
                any = true;
                min = Math.min(min, key);
                max = Math.max(max, key);
            }
            out.add(new ColumnStats(f.name(), Column.Kind.FIELD, f.type(), nulls, null, null, any && f.type() != FieldType.STRING,
                    any ? min : 0, any ? max : 0));
        }
        return out;
    }

    /**
     * The stats of two runs of rows with the same columns (tags then fields by name, as {@link #of}
     * gives them) as one: null counts add, bounds widen. Compaction folds its output parts with it.
     */
    public static List<ColumnStats> combine(List<ColumnStats> a, List<ColumnStats> b) {
        if (a.size() != b.size()) {
            throw new IllegalArgumentException("stats of different columns [a=" + a.size() + ", b=" + b.size() + "]");
        }
        List<ColumnStats> out = new ArrayList<>(a.size());
        for (int i = 0; i < a.size(); i++) {
            ColumnStats x = a.get(i);
            ColumnStats y = b.get(i);
            if (!x.name().equals(y.name()) || x.kind() != y.kind() || x.type() != y.type()) {
                throw new IllegalArgumentException("stats of different columns [a=" + x.name() + ", b=" + y.name() + "]");
            }
            boolean range = x.hasRange() || y.hasRange();
            long min = !x.hasRange() ? y.minBits() : !y.hasRange() ? x.minBits() : Math.min(x.minBits(), y.minBits());
            long max = !x.hasRange() ? y.maxBits() : !y.hasRange() ? x.maxBits() : Math.max(x.maxBits(), y.maxBits());
            out.add(new ColumnStats(x.name(), x.kind(), x.type(), x.nullCount() + y.nullCount(), minTag(x.minTag(), y.minTag(), -1),
                    minTag(x.maxTag(), y.maxTag(), 1), range, range ? min : 0, range ? max : 0));
        }
        return out;
    }

    /** The smaller ({@code sign} -1) or larger (1) of two optional tag values. */
    private static String minTag(String x, String y, int sign) {
        if (x == null || y == null) {
            return x == null ? y : x;
        }
        return Integer.signum(x.compareTo(y)) == sign ? x : y;
    }
}
