package io.chronix.engine.catalog;

import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One tombstone as the catalog records it (seed 001 "Delete Operations"): the rows of one series
 * within {@code [start, end]} (both inclusive) that are held by the segments the tombstone was
 * issued against. Rows of that series in any other segment — everything written after the delete —
 * are not affected, which is why a tombstone never reaches "forever" and why a later write of a
 * deleted series is visible.
 *
 * @param id          catalog-wide, increasing in issue order
 * @param measurement the series' measurement
 * @param tags        the series' complete tag set, sorted by key (an absent tag is not in it)
 * @param start       the first deleted timestamp, epoch ns
 * @param end         the last deleted timestamp: the request's end, or the series' newest stored
 *                    point in range when that is earlier
 * @param segmentIds  the ids of the segments the tombstone applies to, ascending; once none of them
 *                    is in the catalog any more the tombstone is collected
 */
public record TombstoneEntry(long id, String measurement, Map<String, String> tags, long start, long end, long[] segmentIds) {

    public TombstoneEntry {
        Objects.requireNonNull(measurement, "measurement");
        tags = Collections.unmodifiableSortedMap(new TreeMap<>(tags));
        segmentIds = segmentIds.clone();
        Arrays.sort(segmentIds);
        if (start > end) {
            throw new IllegalArgumentException("tombstone start after end [start=" + start + ", end=" + end + "]");
        }
        for (Map.Entry<String, String> t : tags.entrySet()) {
            if (t.getValue() == null) {
                throw new IllegalArgumentException("tombstone tag without a value [tag=" + t.getKey() + "]");
            }
        }
    }

    /** Whether the tombstone covers rows of segment {@code segmentId}. */
    public boolean appliesTo(long segmentId) {
        return Arrays.binarySearch(segmentIds, segmentId) >= 0;
    }

    /** Whether {@code t} lies in {@code [start, end]}. */
    public boolean covers(long t) {
        return t >= start && t <= end;
    }

    @Override
    public long[] segmentIds() {
        return segmentIds.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TombstoneEntry t && id == t.id && start == t.start && end == t.end && measurement.equals(t.measurement)
                && tags.equals(t.tags) && Arrays.equals(segmentIds, t.segmentIds);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(id);
    }

    @Override
    public String toString() {
        return "Tombstone[id=" + id + ", series=" + measurement + tags + ", start=" + start + ", end=" + end + ", segments="
                + segmentIds.length + "]";
    }
}
