package io.chronix.engine.read;

import java.util.List;
import java.util.Objects;

/**
 * An aggregate of one numeric field over {@code [from, to]} (both inclusive), per series passing
 * {@code predicates}: count, sum, min, max, first and last.
 *
 * @param useSummaries whether segment summaries may answer (true normally; false reads every block,
 *     for comparison and benchmarks — the answer is the same)
 */
public record AggregateRequest(String measurement, String field, long from, long to, List<TagPredicate> predicates,
        boolean useSummaries) {

    public AggregateRequest {
        Objects.requireNonNull(measurement, "measurement");
        Objects.requireNonNull(field, "field");
        predicates = List.copyOf(predicates);
        if (from > to) {
            throw new IllegalArgumentException("from after to [from=" + from + ", to=" + to + "]");
        }
    }

    public AggregateRequest(String measurement, String field, long from, long to, List<TagPredicate> predicates) {
        this(measurement, field, from, to, predicates, true);
    }

    public AggregateRequest withoutSummaries() {
        return new AggregateRequest(measurement, field, from, to, predicates, false);
    }
}
