package io.chronix.engine.catalog;

import io.chronix.engine.catalog.SegmentEntry;

import java.util.Objects;

/**
 * A segment that lives in the cold tier: its catalog entry as it was when hot (id, time bounds, row
 * count, column statistics — pruning works on archived segments as on hot ones, and the id keeps
 * its place in last-write-wins order), the object holding its rows, and when it was archived.
 *
 * @param archivedAtNanos wall-clock time of the archiving, epoch nanoseconds
 */
public record ArchivedSegment(SegmentEntry segment, StoredObject object, long archivedAtNanos) {

    public ArchivedSegment {
        Objects.requireNonNull(segment, "segment");
        Objects.requireNonNull(object, "object");
    }

    public String key() {
        return object.key();
    }

    public boolean overlaps(long from, long to) {
        return segment.overlaps(from, to);
    }
}
