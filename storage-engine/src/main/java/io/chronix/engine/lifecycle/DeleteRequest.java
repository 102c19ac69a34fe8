package io.chronix.engine.lifecycle;

import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a delete removes: the series of {@code measurement} whose tags include every pair of {@code
 * tags} (and, with {@code exactSeries}, have no other tag), their points in {@code [start, end]}
 * (both inclusive, epoch ns; {@link Long#MIN_VALUE} / {@link Long#MAX_VALUE} for no bound).
 *
 * @param dryRun answer how many series and points would go, and change nothing
 * @param exactSeries match only the series whose tag set is exactly {@code tags} (what
 *     {@code deleteSeries} asks for), not every series carrying those tags
 */
public record DeleteRequest(String measurement, Map<String, String> tags, long start, long end, boolean dryRun, boolean exactSeries) {

    public DeleteRequest {
        Objects.requireNonNull(measurement, "measurement");
        if (measurement.isEmpty()) {
            throw new IllegalArgumentException("delete needs a measurement");
        }
        TreeMap<String, String> sorted = new TreeMap<>();
        for (Map.Entry<String, String> t : tags.entrySet()) {
            sorted.put(Objects.requireNonNull(t.getKey(), "tag key"),
                    Objects.requireNonNull(t.getValue(), () -> "tag value [tag=" + t.getKey() + "]"));
        }
        tags = java.util.Collections.unmodifiableSortedMap(sorted);
        if (start > end) {
            throw new IllegalArgumentException("delete range start after end [start=" + start + ", end=" + end + "]");
        }
    }

    /** The tag keys the request names. */
    public Set<String> tagKeys() {
        return tags.keySet();
    }

    public DeleteRequest asDryRun() {
        return new DeleteRequest(measurement, tags, start, end, true, exactSeries);
    }
}
