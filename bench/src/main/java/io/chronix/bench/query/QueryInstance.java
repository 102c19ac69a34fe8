package io.chronix.bench.query;

import io.chronix.bench.generator.TsbsValueSets;

import java.time.Instant;
import java.util.List;

/**
 * One concrete query: a kind with its drawn parameters.
 *
 * @param kind       which TSBS query
 * @param hosts      host indices, in draw order; empty means all hosts
 * @param startNanos inclusive window start (epoch ns); {@code Long.MIN_VALUE} for none
 * @param endNanos   exclusive window end (epoch ns); {@code Long.MAX_VALUE} for none
 */
public record QueryInstance(QueryKind kind, List<Integer> hosts, long startNanos, long endNanos) {
    public QueryInstance {
        hosts = List.copyOf(hosts);
    }

    public boolean allHosts() {
        return hosts.isEmpty();
    }

    public boolean hasStart() {
        return startNanos != Long.MIN_VALUE;
    }

    public boolean hasEnd() {
        return endNanos != Long.MAX_VALUE;
    }

    public List<String> hostnames() {
        return hosts.stream().map(TsbsValueSets::hostname).toList();
    }

    /** The fields the query aggregates or returns. */
    public List<String> metrics() {
        return TsbsValueSets.FIELDS.subList(0, kind.metrics());
    }

    public Instant start() {
        return Instant.ofEpochSecond(Math.floorDiv(startNanos, 1_000_000_000L), Math.floorMod(startNanos, 1_000_000_000L));
    }

    public Instant end() {
        return Instant.ofEpochSecond(Math.floorDiv(endNanos, 1_000_000_000L), Math.floorMod(endNanos, 1_000_000_000L));
    }

    public String describe() {
        StringBuilder sb = new StringBuilder(kind.label());
        if (!hosts.isEmpty()) {
            sb.append(" hosts=").append(hostnames());
        }
        if (hasStart()) {
            sb.append(" from ").append(start());
        }
        if (hasEnd()) {
            sb.append(" until ").append(end());
        }
        return sb.toString();
    }
}
