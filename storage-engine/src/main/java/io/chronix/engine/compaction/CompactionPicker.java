package io.chronix.engine.compaction;

import io.chronix.engine.catalog.SegmentEntry;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Time-window compaction's choice (TWCS): live segments grouped by (time shard, measurement) —
 * a group never spans two shards — and the groups holding at least a given number of segments.
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
        List<Group> out = new ArrayList<>();
        for (Map.Entry<Key, List<SegmentEntry>> e : groups(live).entrySet()) {
            if (e.getValue().size() >= minSegments) {
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
