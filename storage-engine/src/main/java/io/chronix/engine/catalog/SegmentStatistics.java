package io.chronix.engine.catalog;

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
}
