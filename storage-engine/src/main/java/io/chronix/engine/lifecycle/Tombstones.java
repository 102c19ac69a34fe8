package io.chronix.engine.lifecycle;

import io.chronix.engine.catalog.SegmentEntry;
import io.chronix.engine.catalog.TombstoneEntry;
import io.chronix.engine.read.RowMask;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The live tombstones of one engine, per measurement, as reads need them: {@link #maskFor} answers
 * the {@link RowMask} of one segment — the deleted ranges of each series in it — and {@link
 * #collectible} which tombstones no live segment needs any more.
 *
 * <p>Memtables are never masked: a delete flushes first, so every point a tombstone covers is in a
 * segment it was issued against, and anything in a memtable afterwards is a later write.
 *
 * <p>Threading: copy-on-write; readers take an immutable snapshot with one volatile read.
 */
public final class Tombstones {

    private volatile Map<String, List<TombstoneEntry>> byMeasurement = Map.of();

    /** Replaces the content (at open, from the catalog). */
    public synchronized void load(Collection<TombstoneEntry> entries) {
        Map<String, List<TombstoneEntry>> m = new HashMap<>();
        for (TombstoneEntry t : entries) {
            m.computeIfAbsent(t.measurement(), k -> new ArrayList<>()).add(t);
        }
        m.replaceAll((k, v) -> List.copyOf(v));
        byMeasurement = Map.copyOf(m);
    }

    /** Makes tombstones take effect (after the catalog holds them). */
    public synchronized void add(Collection<TombstoneEntry> entries) {
        Map<String, List<TombstoneEntry>> m = new HashMap<>(byMeasurement);
        for (TombstoneEntry t : entries) {
            List<TombstoneEntry> l = new ArrayList<>(m.getOrDefault(t.measurement(), List.of()));
            l.add(t);
            m.put(t.measurement(), List.copyOf(l));
        }
        byMeasurement = Map.copyOf(m);
    }

    /** Forgets collected tombstones. */
    public synchronized void remove(Set<Long> ids) {
        Map<String, List<TombstoneEntry>> m = new HashMap<>();
        for (Map.Entry<String, List<TombstoneEntry>> e : byMeasurement.entrySet()) {
            List<TombstoneEntry> kept = e.getValue().stream().filter(t -> !ids.contains(t.id())).toList();
            if (!kept.isEmpty()) {
                m.put(e.getKey(), kept);
            }
        }
        byMeasurement = Map.copyOf(m);
    }

    /**
     * The tombstones live now, fixed. A scan takes one <em>before</em> its snapshot of the
     * segments: a tombstone is collected only after every segment it names was replaced, so a
     * segment list read afterwards holds either the replaced segments (and this snapshot still
     * masks them) or their replacements (which no longer hold the deleted rows). Read live
     * instead, a compaction finishing between the two reads left old segments unmasked.
     */
    public Tombstones snapshot() {
        Tombstones fixed = new Tombstones();
        fixed.byMeasurement = byMeasurement;
        return fixed;
    }

    /** Every live tombstone. */
    public List<TombstoneEntry> all() {
        List<TombstoneEntry> out = new ArrayList<>();
        byMeasurement.values().forEach(out::addAll);
        return out;
    }

    /** The live tombstones of {@code measurement} that apply to segment {@code segmentId}. */
    public List<TombstoneEntry> forSegment(String measurement, long segmentId) {
        List<TombstoneEntry> out = new ArrayList<>();
        for (TombstoneEntry t : byMeasurement.getOrDefault(measurement, List.of())) {
            if (t.appliesTo(segmentId)) {
                out.add(t);
            }
        }
        return out;
    }

    /** Whether a scan of {@code segment} must be masked at all (cheap; no allocation when not). */
    public boolean touches(SegmentEntry segment) {
        for (TombstoneEntry t : byMeasurement.getOrDefault(segment.measurement(), List.of())) {
            if (t.appliesTo(segment.id())) {
                return true;
            }
        }
        return false;
    }

    /**
     * The mask of {@code segment}'s rows for a reader whose series are tuples over {@code tagKeys}
     * (the measurement's tag names, in the reader's order); {@link RowMask#NONE} if no tombstone
     * applies to it.
     */
    public RowMask maskFor(SegmentEntry segment, String[] tagKeys) {
        List<TombstoneEntry> applying = forSegment(segment.measurement(), segment.id());
        if (applying.isEmpty()) {
            return RowMask.NONE;
        }
        return mask(applying, tagKeys);
    }

    /** A mask of the rows {@code tombstones} cover, for tuples over {@code tagKeys}. */
    public static RowMask mask(List<TombstoneEntry> tombstones, String[] tagKeys) {
        Map<List<String>, long[]> ranges = new HashMap<>();
        List<String> keys = Arrays.asList(tagKeys);
        for (TombstoneEntry t : tombstones) {
            if (!keys.containsAll(t.tags().keySet())) {
                continue; // a tag the reader does not know: no row of this series can be here
            }
            String[] tuple = new String[tagKeys.length];
            for (int i = 0; i < tagKeys.length; i++) {
                tuple[i] = t.tags().get(tagKeys[i]);
            }
            ranges.merge(Arrays.asList(tuple), new long[] {t.start(), t.end()}, Tombstones::concat);
        }
        if (ranges.isEmpty()) {
            return RowMask.NONE;
        }
        return tuple -> ranges.get(Arrays.asList(tuple));
    }

    /**
     * The deleted timestamps of one series in one input segment, for a merge that drops them
     * inline (compaction's {@code DeletedRows}): a test on a row's time, or {@code null} if no row
     * of the series in {@code input} is deleted.
     *
     * @param tagValues the series' values for {@code tagNames}, {@code null} where it has no such tag
     */
    public java.util.function.LongPredicate deletedTimes(SegmentEntry input, List<String> tagNames, List<String> tagValues) {
        long[] ranges = null;
        for (TombstoneEntry t : byMeasurement.getOrDefault(input.measurement(), List.of())) {
            if (t.appliesTo(input.id()) && sameSeries(t, tagNames, tagValues)) {
                ranges = ranges == null ? new long[] {t.start(), t.end()} : concat(ranges, new long[] {t.start(), t.end()});
            }
        }
        if (ranges == null) {
            return null;
        }
        long[] r = ranges;
        return time -> RowMask.covered(r, time);
    }

    private static boolean sameSeries(TombstoneEntry t, List<String> tagNames, List<String> tagValues) {
        int present = 0;
        for (int i = 0; i < tagNames.size(); i++) {
            String v = tagValues.get(i);
            if (v != null) {
                present++;
                if (!v.equals(t.tags().get(tagNames.get(i)))) {
                    return false;
                }
            }
        }
        return present == t.tags().size();
    }

    private static long[] concat(long[] a, long[] b) {
        long[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    /**
     * The tombstones no segment in {@code liveSegmentIds} needs: every segment each was issued
     * against has left the catalog (compacted with the tombstone applied, or dropped).
     */
    public List<Long> collectible(Set<Long> liveSegmentIds) {
        List<Long> out = new ArrayList<>();
        for (TombstoneEntry t : all()) {
            boolean needed = false;
            for (long id : t.segmentIds()) {
                if (liveSegmentIds.contains(id)) {
                    needed = true;
                    break;
                }
            }
            if (!needed) {
                out.add(t.id());
            }
        }
        return out;
    }

    /** Live tombstones. */
    public int size() {
        int n = 0;
        for (List<TombstoneEntry> l : byMeasurement.values()) {
            n += l.size();
        }
        return n;
    }
}
