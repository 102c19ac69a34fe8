package io.chronix.engine.compaction;

import io.chronix.engine.catalog.SegmentEntry;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Time-window compaction's choice (TWCS): live segments grouped by (time shard, measurement) —
 * a group never spans two shards — and the groups holding at least a given number of segments,
 * or, in a closed shard, more than one.
 */
public final class CompactionPicker {

    private CompactionPicker() {
    }

    /** One group to merge: segments of one shard and measurement, by ascending id (oldest write first). */
    public record Group(long shard, String measurement, List<SegmentEntry> segments) {
        public Group {
            segments = List.copyOf(segments);
        }
    }

    /** The groups of {@code live} with at least {@code minSegments} segments, by shard then measurement. */
    public static List<Group> pick(List<SegmentEntry> live, int minSegments) {
        return pick(live, minSegments, Long.MIN_VALUE);
    }

    /**
     * The groups of {@code live} with at least {@code minSegments} segments, and those of a closed
     * shard (below {@code openFrom}: no write but a backfill can reach it) with at least two — a
     * closed shard is brought to one segment per measurement, the settled state in which a scan
     * reads it without the row merge, whatever the trigger — by shard then measurement.
     */
    public static List<Group> pick(List<SegmentEntry> live, int minSegments, long openFrom) {
        List<Group> out = new ArrayList<>();
        for (Map.Entry<Key, List<SegmentEntry>> e : groups(live).entrySet()) {
            int needed = e.getKey().shard() < openFrom ? Math.min(2, minSegments) : minSegments;
            if (e.getValue().size() >= needed) {
                List<SegmentEntry> s = new ArrayList<>(e.getValue());
                s.sort(Comparator.comparingLong(SegmentEntry::id));
                out.add(new Group(e.getKey().shard(), e.getKey().measurement(), s));
            }
        }
        return out;
    }

    /** The L0 count backpressure and the trigger go by: the most segments any one group holds. */
    public static int largestGroup(List<SegmentEntry> live) {
        int max = 0;
        for (List<SegmentEntry> g : groups(live).values()) {
            max = Math.max(max, g.size());
        }
        return max;
    }

    private record Key(long shard, String measurement) {
    }

    private static TreeMap<Key, List<SegmentEntry>> groups(List<SegmentEntry> live) {
        TreeMap<Key, List<SegmentEntry>> g = new TreeMap<>(Comparator.comparingLong(Key::shard).thenComparing(Key::measurement));
        for (SegmentEntry e : live) {
            g.computeIfAbsent(new Key(e.shard(), e.measurement()), k -> new ArrayList<>()).add(e);
        }
        return g;
    }
}
