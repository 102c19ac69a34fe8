package io.chronix.engine.lifecycle;

import io.chronix.engine.catalog.SegmentEntry;
import io.chronix.engine.catalog.TombstoneEntry;
import io.chronix.engine.schema.Column;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Step 2 and 3 of a delete (seed 001): from the stored rows of the matching series — a scan of
 * their segments with the live tombstones already applied, one row per (series, time) — the
 * points inside the request's range per series, its newest one there (the tombstone's upper
 * bound), and whether it has any point outside (if not, the delete takes it whole).
 */
public final class DeletePlan {

    /** One matching series. */
    public static final class Series {
        final Map<String, String> tags;
        long inRange;
        long outside;
        long newestInRange = Long.MIN_VALUE;

        Series(Map<String, String> tags) {
            this.tags = tags;
        }

        /** Its complete tag set, sorted by key. */
        public Map<String, String> tags() {
            return tags;
        }

        public long pointsInRange() {
            return inRange;
        }

        /** Whether the delete leaves it no stored point. */
        public boolean whollyDeleted() {
            return outside == 0;
        }
    }

    private final long start;
    private final long end;
    private final String[] tagKeys;
    private final Map<List<String>, Series> series = new LinkedHashMap<>();

    /** @param tagKeys the measurement's tag names, as the scan's tag columns are named */
    public DeletePlan(long start, long end, List<String> tagKeys) {
        this.start = start;
        this.end = end;
        this.tagKeys = tagKeys.toArray(String[]::new);
    }

    /** Adds one batch of the scan (columns {@code time} and every tag). */
    public void add(VectorSchemaRoot batch) {
        TimeStampVector time = (TimeStampVector) batch.getVector(Column.TIME);
        VarCharVector[] tags = new VarCharVector[tagKeys.length];
        for (int k = 0; k < tagKeys.length; k++) {
            tags[k] = (VarCharVector) batch.getVector(tagKeys[k]);
        }
        String[] previous = null;
        Series current = null;
        for (int r = 0; r < batch.getRowCount(); r++) {
            String[] tuple = new String[tagKeys.length];
            for (int k = 0; k < tagKeys.length; k++) {
                tuple[k] = tags[k] == null || tags[k].isNull(r) ? null : new String(tags[k].get(r), StandardCharsets.UTF_8);
            }
            if (previous == null || !Arrays.equals(previous, tuple)) {
                previous = tuple;
                current = series.computeIfAbsent(Arrays.asList(tuple), t -> new Series(tagsOf(t)));
            }
            long t = time.get(r);
            if (t >= start && t <= end) {
                current.inRange++;
                current.newestInRange = Math.max(current.newestInRange, t);
            } else {
                current.outside++;
            }
        }
    }

    private Map<String, String> tagsOf(List<String> tuple) {
        TreeMap<String, String> m = new TreeMap<>();
        for (int k = 0; k < tagKeys.length; k++) {
            if (tuple.get(k) != null) {
                m.put(tagKeys[k], tuple.get(k));
            }
        }
        return m;
    }

    /** The series with at least one point in range, in scan order. */
    public List<Series> affected() {
        return series.values().stream().filter(s -> s.inRange > 0).toList();
    }

    public long points() {
        long n = 0;
        for (Series s : affected()) {
            n += s.inRange;
        }
        return n;
    }

    /**
     * One tombstone per affected series, ids from {@code firstId}, each scoped to the {@code
     * candidates} (the segments that may hold the request's rows) overlapping its own range.
     */
    public List<TombstoneEntry> tombstones(String measurement, long firstId, List<SegmentEntry> candidates) {
        List<TombstoneEntry> out = new ArrayList<>();
        long id = firstId;
        for (Series s : affected()) {
            long upper = s.newestInRange; // never "forever": a later write of the series is not deleted
            long[] ids = candidates.stream().filter(e -> e.overlaps(start, upper)).mapToLong(SegmentEntry::id).toArray();
            out.add(new TombstoneEntry(id++, measurement, s.tags, start, upper, ids));
        }
        return out;
    }
}
