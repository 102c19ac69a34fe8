package io.chronix.engine.summary;

import io.chronix.engine.model.FieldType;

import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * What a {@code .summary} file holds: per series of one segment (in the segment's series order) its
 * row count and time bounds, and per numeric field a {@link FieldAggregate}. Treat as immutable:
 * the aggregates are not to be changed once the summary is built or read (merge them into a fresh
 * one).
 *
 * @param segmentCrc the whole-file CRC-32C of the segment summarised (a summary of another segment is ignored)
 * @param tagNames the segment's tags in its sort order
 * @param fields the numeric fields summarised, in file order
 */
public record SegmentSummary(int segmentCrc, String measurement, List<String> tagNames, List<Field> fields, List<Series> series) {

    public SegmentSummary {
        Objects.requireNonNull(measurement, "measurement");
        tagNames = List.copyOf(tagNames);
        fields = List.copyOf(fields);
        List<Series> keyed = new java.util.ArrayList<>(series.size());
        for (Series x : series) {
            keyed.add(x.key() != null ? x : new Series(x.tagValues(), x.rows(), x.minTime(), x.maxTime(), x.aggregates(),
                    key(tagNames, x.tagValues())));
        }
        series = List.copyOf(keyed);
    }

    public record Field(String name, FieldType type) {
    }

    /**
     * @param tagValues in the order of {@link #tagNames()}; {@code null} where the series has no such tag
     * @param aggregates parallel to {@link #fields()}; count 0 where the series has no value of the field
     * @param key the series' {@link #canonicalKey}, derived by the summary's constructor
     */
    public record Series(List<String> tagValues, long rows, long minTime, long maxTime, List<FieldAggregate> aggregates, String key) {
        public Series {
            tagValues = Collections.unmodifiableList(new java.util.ArrayList<>(tagValues));
            aggregates = List.copyOf(aggregates);
        }

        public Series(List<String> tagValues, long rows, long minTime, long maxTime, List<FieldAggregate> aggregates) {
            this(tagValues, rows, minTime, maxTime, aggregates, null);
        }
    }

    private static String key(List<String> tagNames, List<String> values) {
        java.util.TreeMap<String, String> tags = new java.util.TreeMap<>();
        for (int t = 0; t < tagNames.size(); t++) {
            if (values.get(t) != null) {
                tags.put(tagNames.get(t), values.get(t));
            }
        }
        return canonicalKey(tags);
    }

    /**
     * The canonical key of a series with {@code tags} (sorted by name, absent tags left out): {@code
     * name=value} pairs, each followed by a NUL character.
     */
    public static String canonicalKey(java.util.SortedMap<String, String> tags) {
        StringBuilder sb = new StringBuilder();
        for (java.util.Map.Entry<String, String> e : tags.entrySet()) {
            sb.append(e.getKey()).append('=').append(e.getValue()).append('\u0000');
        }
        return sb.toString();
    }

    /** The index of field {@code name} in {@link #fields()}, or -1. */
    public int fieldIndex(String name) {
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** Equality of content, aggregates bit for bit. */
    public boolean sameAs(SegmentSummary o) {
        if (segmentCrc != o.segmentCrc || !measurement.equals(o.measurement) || !tagNames.equals(o.tagNames) || !fields.equals(o.fields)
                || series.size() != o.series.size()) {
            return false;
        }
        for (int s = 0; s < series.size(); s++) {
            Series a = series.get(s);
            Series b = o.series.get(s);
            if (!a.tagValues().equals(b.tagValues()) || a.rows() != b.rows() || a.minTime() != b.minTime() || a.maxTime() != b.maxTime()) {
                return false;
            }
            for (int f = 0; f < fields.size(); f++) {
                if (!a.aggregates().get(f).sameAs(b.aggregates().get(f))) {
                    return false;
                }
            }
        }
        return true;
    }
}
