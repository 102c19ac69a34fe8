package io.chronix.engine.rollup;

/**
 * A half-open range of epoch nanoseconds, {@code [from, to)}: a pending invalid range of a rollup
 * (always bucket-aligned: {@code from} a bucket start, {@code to} a later bucket's start).
 */
public record TimeRange(long from, long to) {

    public TimeRange {
        if (from >= to) {
            throw new IllegalArgumentException("empty time range [from=" + from + ", to=" + to + "]");
        }
    }

    public boolean overlaps(long otherFrom, long otherTo) {
        return from < otherTo && otherFrom < to;
    }

    /** Overlapping or touching ranges merge into one. */
    boolean touches(TimeRange o) {
        return from <= o.to && o.from <= to;
    }
}
