package io.chronix.engine.archive;

import io.chronix.engine.catalog.ArchivedSegment;
import io.chronix.engine.read.TagPredicate;
import io.chronix.engine.store.MetadataCache;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * The archived segments of a namespace, filled from the catalog at open and kept current by the
 * archiving pass and cold removals. Scans ask it which archived segments may hold matching rows:
 * the same pruning by time bounds and tag statistics as for hot segments ({@link MetadataCache}).
 *
 * <p>Threading: copy-on-write; readers take a snapshot with one volatile read.
 */
public final class ColdIndex {

    private volatile List<ArchivedSegment> segments = List.of();

    public synchronized void load(Collection<ArchivedSegment> all) {
        segments = List.copyOf(all);
    }

    public synchronized void add(ArchivedSegment a) {
        List<ArchivedSegment> l = new ArrayList<>(segments);
        l.add(a);
        segments = List.copyOf(l);
    }

    public synchronized void remove(Set<String> keys) {
        segments = segments.stream().filter(a -> !keys.contains(a.key())).toList();
    }

    public List<ArchivedSegment> all() {
        return segments;
    }

    /** The archived segment holding hot segment {@code id}'s rows, if it was archived. */
    public ArchivedSegment bySegmentId(long id) {
        for (ArchivedSegment a : segments) {
            if (a.segment().id() == id) {
                return a;
            }
        }
        return null;
    }

    /**
     * Archived segments of {@code measurement} that may hold rows in {@code [from, to]} passing
     * {@code predicates}, in id order (the order last write wins goes by; archive order may differ).
     */
    public List<ArchivedSegment> candidates(String measurement, long from, long to, List<TagPredicate> predicates) {
        List<ArchivedSegment> out = new ArrayList<>();
        for (ArchivedSegment a : segments) {
            if (a.segment().measurement().equals(measurement) && a.overlaps(from, to) && MetadataCache.mayMatch(a.segment(), predicates)) {
                out.add(a);
            }
        }
        out.sort(java.util.Comparator.comparingLong(a -> a.segment().id()));
        return out;
    }

    /** Bytes of every archived object. */
    public long bytes() {
        long n = 0;
        for (ArchivedSegment a : segments) {
            n += a.object().sizeBytes();
        }
        return n;
    }
}
