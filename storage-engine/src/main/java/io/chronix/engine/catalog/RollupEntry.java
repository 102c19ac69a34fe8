package io.chronix.engine.catalog;

import java.util.Arrays;

/**
 * A rollup as the catalog holds it: the definition (ROLLUP_DEFINED) and the latest state
 * (ROLLUP_STATE). Strings as given to the rollup builder; the engine's rollup package turns them
 * back into its types.
 *
 * @param origin        ISO local date-time, or {@code null} for the width's default
 * @param aggregates    bit {@code i} set for aggregate {@code i} of avg, min, max, first, last, sum, count
 * @param invalid       pending invalid ranges flattened as {@code [from0, to0, from1, to1, …]}, half-open, ascending, disjoint
 */
public record RollupEntry(String name, String source, String target, String every, String zone, String origin, int aggregates,
        long materialisedUntil, long[] invalid) {

    public RollupEntry {
        invalid = invalid.clone();
    }

    @Override
    public long[] invalid() {
        return invalid.clone();
    }

    RollupEntry withState(long until, long[] ranges) {
        return new RollupEntry(name, source, target, every, zone, origin, aggregates, until, ranges);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RollupEntry e && e.name.equals(name) && e.source.equals(source) && e.target.equals(target)
                && e.every.equals(every) && e.zone.equals(zone) && java.util.Objects.equals(e.origin, origin)
                && e.aggregates == aggregates && e.materialisedUntil == materialisedUntil && Arrays.equals(e.invalid, invalid);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(name, materialisedUntil, Arrays.hashCode(invalid));
    }
}
