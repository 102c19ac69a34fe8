package io.chronix.engine.store;

import io.chronix.engine.catalog.ColumnStats;
import io.chronix.engine.catalog.SegmentEntry;
import io.chronix.engine.read.TagPredicate;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The segments of a namespace with their statistics, per measurement, filled from the catalog at
 * open and kept current by flush ({@link #add}), compaction ({@link #replace}), deletes, retention
 * and the disk budget ({@link #remove}) — each called after the catalog recorded the change and
 * before the files go. A read asks it for the
 * segments that can hold matching rows; nothing here touches a file.
 *
 * <p>Pruning: by time bounds; by tag statistics — {@code tag = v} or {@code tag IN (...)} skips a
 * segment whose [min, max] of the tag excludes every value, or which lacks the tag (all NULL);
 * {@code tag IS NULL} skips a segment in which the tag has no NULL.
 *
 * <p>Threading: copy-on-write; readers take an immutable snapshot with one volatile read.
 */
public final class MetadataCache {

    private volatile Map<String, List<SegmentEntry>> byMeasurement = Map.of();

    /** Replaces the content (at open). Entries in publish order. */
    public synchronized void load(Collection<SegmentEntry> entries) {
        Map<String, List<SegmentEntry>> m = new HashMap<>();
        for (SegmentEntry e : entries) {
            m.computeIfAbsent(e.measurement(), k -> new ArrayList<>()).add(e);
        }
        m.replaceAll((k, v) -> List.copyOf(v));
        byMeasurement = Map.copyOf(m);
    }

    /** Adds newly published segments (newest last). */
    public synchronized void add(Collection<SegmentEntry> entries) {
        Map<String, List<SegmentEntry>> m = new HashMap<>(byMeasurement);
        for (SegmentEntry e : entries) {
            List<SegmentEntry> l = new ArrayList<>(m.getOrDefault(e.measurement(), List.of()));
            l.add(e);
            m.put(e.measurement(), List.copyOf(l));
        }
        byMeasurement = Map.copyOf(m);
    }

    /**
     * Compaction's swap, seen by readers all at once: {@code removed} (file names) go, {@code added}
     * join in id order (an output's id sorts it before segments flushed while it was merged).
     */
    public synchronized void replace(Set<String> removed, Collection<SegmentEntry> added) {
        Map<String, List<SegmentEntry>> m = new HashMap<>();
        for (Map.Entry<String, List<SegmentEntry>> e : byMeasurement.entrySet()) {
            m.put(e.getKey(), new ArrayList<>(e.getValue().stream().filter(s -> !removed.contains(s.file())).toList()));
        }
        for (SegmentEntry e : added) {
            m.computeIfAbsent(e.measurement(), k -> new ArrayList<>()).add(e);
        }
        Map<String, List<SegmentEntry>> out = new HashMap<>();
        for (Map.Entry<String, List<SegmentEntry>> e : m.entrySet()) {
            if (!e.getValue().isEmpty()) {
                e.getValue().sort(java.util.Comparator.comparingLong(SegmentEntry::id));
                out.put(e.getKey(), List.copyOf(e.getValue()));
            }
        }
        byMeasurement = Map.copyOf(out);
    }

    /**
     * Removes segments by file name (deletes, retention, the disk budget — after the catalog
     * recorded the removal). Unknown names are ignored.
     */
    public synchronized void remove(Set<String> files) {
        Map<String, List<SegmentEntry>> m = new HashMap<>();
        for (Map.Entry<String, List<SegmentEntry>> e : byMeasurement.entrySet()) {
            List<SegmentEntry> kept = e.getValue().stream().filter(s -> !files.contains(s.file())).toList();
            if (!kept.isEmpty()) {
                m.put(e.getKey(), kept);
            }
        }
        byMeasurement = Map.copyOf(m);
    }

    /** Every segment of {@code measurement}, in publish order. */
    public List<SegmentEntry> segments(String measurement) {
        return byMeasurement.getOrDefault(measurement, List.of());
    }

    /** Every segment, in no particular order across measurements. */
    public List<SegmentEntry> all() {
        List<SegmentEntry> out = new ArrayList<>();
        byMeasurement.values().forEach(out::addAll);
        return out;
    }

    /** Measurements with at least one segment. */
    public Set<String> measurements() {
        return byMeasurement.keySet();
    }

    /** The segments of {@code measurement} that may hold rows in {@code [from, to]} passing {@code predicates}, publish order. */
    public List<SegmentEntry> candidates(String measurement, long from, long to, List<TagPredicate> predicates) {
        List<SegmentEntry> out = new ArrayList<>();
        for (SegmentEntry e : segments(measurement)) {
            if (e.overlaps(from, to) && mayMatch(e, predicates)) {
                out.add(e);
            }
        }
        return out;
    }

    /** Whether a segment with these statistics may hold rows passing {@code predicates}. */
    public static boolean mayMatch(SegmentEntry e, List<TagPredicate> predicates) {
        for (TagPredicate p : predicates) {
            ColumnStats c = e.column(p.key());
            switch (p) {
                case TagPredicate.Eq eq -> {
                    if (c == null || !inRange(c, eq.value())) {
                        return false;
                    }
                }
                case TagPredicate.In in -> {
                    if (c == null || in.values().stream().noneMatch(v -> inRange(c, v))) {
                        return false;
                    }
                }
                case TagPredicate.IsNull ignored -> {
                    if (c != null && c.nullCount() == 0) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    private static boolean inRange(ColumnStats c, String v) {
        return c.minTag() != null && c.minTag().compareTo(v) <= 0 && c.maxTag().compareTo(v) >= 0;
    }
}
