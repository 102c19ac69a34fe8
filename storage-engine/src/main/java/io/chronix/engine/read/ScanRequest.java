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
 */
public record ScanRequest(String measurement, List<String> columns, long from, long to, List<TagPredicate> tags) {

    public ScanRequest {
        Objects.requireNonNull(measurement, "measurement");
        columns = List.copyOf(columns);
        tags = List.copyOf(tags);
    }

    /** Every column, every time, no predicate. */
    public static ScanRequest all(String measurement) {
        return new ScanRequest(measurement, List.of(), Long.MIN_VALUE, Long.MAX_VALUE, List.of());
    }

    public ScanRequest withColumns(String... names) {
        return new ScanRequest(measurement, List.of(names), from, to, tags);
    }

    public ScanRequest withTimeRange(long fromInclusive, long toInclusive) {
        return new ScanRequest(measurement, columns, fromInclusive, toInclusive, tags);
    }

    public ScanRequest withTags(TagPredicate... predicates) {
        return new ScanRequest(measurement, columns, from, to, List.of(predicates));
    }
}
