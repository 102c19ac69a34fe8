package io.chronix.api.sql;

import io.chronix.engine.read.FieldPredicate;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.read.TagPredicate;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What one measurement's scan needs to hold for a statement: a time range (both ends inclusive),
 * tag predicates and field ranges that every row DuckDB keeps must satisfy, and the columns it
 * references. Wider is always correct: DuckDB re-applies the statement's whole predicate.
 *
 * @param fields  ranges of numeric fields, one per field; the engine uses them only where no
 *     newer row can replace the one it leaves out ({@link FieldPredicate})
 * @param columns the columns to read; empty means every column
 */
public record ScanPlan(String measurement, long from, long to, List<TagPredicate> tags, List<FieldPredicate> fields,
        Set<String> columns, boolean newestOnly) {

    /**
     * @param newestOnly every reference keeps only each series' newest row (the lastpoint shape,
     *     see {@link StatementAnalysis}), so a table of those rows answers the same
     */
    public ScanPlan {
        tags = List.copyOf(tags);
        fields = List.copyOf(fields);
        columns = Set.copyOf(columns);
    }

    public ScanPlan(String measurement, long from, long to, List<TagPredicate> tags, Set<String> columns) {
        this(measurement, from, to, tags, List.of(), columns, false);
    }

    public ScanPlan withColumns(Set<String> names) {
        return new ScanPlan(measurement, from, to, tags, fields, names, newestOnly);
    }

    public ScanPlan withFields(List<FieldPredicate> ranges) {
        return new ScanPlan(measurement, from, to, tags, ranges, columns, newestOnly);
    }

    /** This plan with its range starting at {@code from} instead. */
    public ScanPlan startingAt(long from) {
        return new ScanPlan(measurement, from, to, tags, fields, columns, newestOnly);
    }

    /** This plan, for a statement that keeps only each series' newest row. */
    public ScanPlan keepingNewestOnly() {
        return new ScanPlan(measurement, from, to, tags, fields, columns, true);
    }

    public static ScanPlan everything(String measurement) {
        return new ScanPlan(measurement, Long.MIN_VALUE, Long.MAX_VALUE, List.of(), Set.of());
    }

    /** Whether no row can match (an empty time range). */
    public boolean empty() {
        return from > to;
    }

    /**
     * One scan serving two references of the same measurement: the union of their time ranges, the
     * predicates both hold (a field range only if both have the same), the columns either needs.
     */
    public ScanPlan union(ScanPlan other) {
        assert measurement.equals(other.measurement) : "a union is of one measurement";
        List<TagPredicate> common = new ArrayList<>(tags);
        common.retainAll(other.tags);
        List<FieldPredicate> commonFields = new ArrayList<>(fields);
        commonFields.retainAll(other.fields);
        Set<String> cols;
        if (columns.isEmpty() || other.columns.isEmpty()) {
            cols = Set.of();
        } else {
            cols = new LinkedHashSet<>(columns);
            cols.addAll(other.columns);
        }
        boolean newest = newestOnly && other.newestOnly;
        if (empty()) {
            return new ScanPlan(measurement, other.from, other.to, other.empty() ? common : other.tags,
                    other.empty() ? commonFields : other.fields, cols, newest);
        }
        if (other.empty()) {
            return new ScanPlan(measurement, from, to, tags, fields, cols, newest);
        }
        return new ScanPlan(measurement, Math.min(from, other.from), Math.max(to, other.to), common, commonFields, cols, newest);
    }

    /** The engine request; an empty range still asks for one timestamp so the schema comes back. */
    public ScanRequest toRequest() {
        long f = empty() ? 0 : from;
        long t = empty() ? -1 : to;
        return new ScanRequest(measurement, List.copyOf(columns), f, t, tags, fields);
    }
}
