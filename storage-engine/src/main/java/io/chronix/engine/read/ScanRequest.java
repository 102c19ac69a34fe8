package io.chronix.engine.read;

import java.util.List;
import java.util.Objects;

/**
 * What to read from one measurement.
 *
 * @param columns the columns to return, by name; empty means every column. Output is always in
 *     canonical order ({@code time}, tags by name, fields by name) whatever the order asked for;
 *     consumers resolve columns by name
 * @param from the first timestamp, inclusive
 * @param to the last timestamp, inclusive
 * @param tags predicates on tags, all of which must hold (AND)
 * @param fields ranges of numeric fields (AND), a hint only: a scan may return rows outside them,
 *     so the consumer applies its condition again ({@link FieldPredicate})
 */
public record ScanRequest(String measurement, List<String> columns, long from, long to, List<TagPredicate> tags,
        List<FieldPredicate> fields) {

    public ScanRequest {
        Objects.requireNonNull(measurement, "measurement");
        columns = List.copyOf(columns);
        tags = List.copyOf(tags);
        fields = List.copyOf(fields);
    }

    /** A request without field predicates. */
    public ScanRequest(String measurement, List<String> columns, long from, long to, List<TagPredicate> tags) {
        this(measurement, columns, from, to, tags, List.of());
    }

    /** Every column, every time, no predicate. */
    public static ScanRequest all(String measurement) {
        return new ScanRequest(measurement, List.of(), Long.MIN_VALUE, Long.MAX_VALUE, List.of());
    }

    public ScanRequest withColumns(String... names) {
        return new ScanRequest(measurement, List.of(names), from, to, tags, fields);
    }

    public ScanRequest withTimeRange(long fromInclusive, long toInclusive) {
        return new ScanRequest(measurement, columns, fromInclusive, toInclusive, tags, fields);
    }

    public ScanRequest withTags(TagPredicate... predicates) {
        return new ScanRequest(measurement, columns, from, to, List.of(predicates), fields);
    }

    public ScanRequest withFields(FieldPredicate... predicates) {
        return new ScanRequest(measurement, columns, from, to, tags, List.of(predicates));
    }
}
