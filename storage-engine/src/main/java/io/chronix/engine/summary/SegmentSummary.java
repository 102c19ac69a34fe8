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
        series = List.copyOf(series);
    }

    public record Field(String name, FieldType type) {
    }

    /**
     * @param tagValues in the order of {@link #tagNames()}; {@code null} where the series has no such tag
     * @param aggregates parallel to {@link #fields()}; count 0 where the series has no value of the field
     */
    public record Series(List<String> tagValues, long rows, long minTime, long maxTime, List<FieldAggregate> aggregates) {
        public Series {
            tagValues = Collections.unmodifiableList(new java.util.ArrayList<>(tagValues));
            aggregates = List.copyOf(aggregates);
        }
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
