package io.chronix.api.sql;

import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.read.TagPredicate;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What one measurement's scan needs to hold for a statement: a time range (both ends inclusive),
 * tag predicates that every row DuckDB keeps must satisfy, and the columns it references. Wider is
 * always correct: DuckDB re-applies the statement's whole predicate.
 *
 * @param columns the columns to read; empty means every column
 */
public record ScanPlan(String measurement, long from, long to, List<TagPredicate> tags, Set<String> columns, boolean newestOnly) {

    /**
     * @param newestOnly every reference keeps only each series' newest row (the lastpoint shape,
     *     see {@link StatementAnalysis}), so a table of those rows answers the same
     */
    public ScanPlan {
        tags = List.copyOf(tags);
        columns = Set.copyOf(columns);
    }

    public ScanPlan(String measurement, long from, long to, List<TagPredicate> tags, Set<String> columns) {
        this(measurement, from, to, tags, columns, false);
    }

    public ScanPlan withColumns(Set<String> names) {
        return new ScanPlan(measurement, from, to, tags, names, newestOnly);
    }

    /** This plan, for a statement that keeps only each series' newest row. */
    public ScanPlan keepingNewestOnly() {
        return new ScanPlan(measurement, from, to, tags, columns, true);
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
     * predicates both hold, the columns either needs.
     */
    public ScanPlan union(ScanPlan other) {
        assert measurement.equals(other.measurement) : "a union is of one measurement";
        List<TagPredicate> common = new ArrayList<>(tags);
        common.retainAll(other.tags);
        Set<String> cols;
        if (columns.isEmpty() || other.columns.isEmpty()) {
            cols = Set.of();
        } else {
            cols = new LinkedHashSet<>(columns);
            cols.addAll(other.columns);
        }
        boolean newest = newestOnly && other.newestOnly;
        if (empty()) {
            return new ScanPlan(measurement, other.from, other.to, other.empty() ? common : other.tags, cols, newest);
        }
        if (other.empty()) {
            return new ScanPlan(measurement, from, to, tags, cols, newest);
        }
        return new ScanPlan(measurement, Math.min(from, other.from), Math.max(to, other.to), common, cols, newest);
    }

    /** The engine request; an empty range still asks for one timestamp so the schema comes back. */
    public ScanRequest toRequest() {
        long f = empty() ? 0 : from;
        long t = empty() ? -1 : to;
        return new ScanRequest(measurement, List.copyOf(columns), f, t, tags);
    }
}
