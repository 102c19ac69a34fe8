package io.chronix.engine.segment;

import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The series keys of one segment — what its {@code .series} sidecar holds: the measurement, the tag
 * names in sort order, and for each series (in stored order) its tag values and its stretch of rows.
 * Immutable.
 *
 * @param segmentCrc the whole-file CRC-32C of the segment this describes
 */
public record SeriesIndex(int segmentCrc, String measurement, List<String> tagNames, List<Key> series) {

    public SeriesIndex {
        Objects.requireNonNull(measurement, "measurement");
        tagNames = List.copyOf(tagNames);
        series = List.copyOf(series);
    }

    /**
     * One series.
     *
     * @param tagValues values in the order of {@link SeriesIndex#tagNames()}; an entry is {@code null}
     *                  where the series has no such tag
     */
    public record Key(List<String> tagValues, long firstRow, int rowCount, long minTime, long maxTime) {
        public Key {
            tagValues = Collections.unmodifiableList(new java.util.ArrayList<>(tagValues));
        }

        /** The canonical series key: {@code measurement,tag=value,...} with tags sorted by name, absent tags left out. */
        public String canonical(String measurement, List<String> tagNames) {
            java.util.TreeMap<String, String> sorted = new java.util.TreeMap<>();
            for (int i = 0; i < tagNames.size(); i++) {
                if (tagValues.get(i) != null) {
                    sorted.put(tagNames.get(i), tagValues.get(i));
                }
            }
            StringBuilder sb = new StringBuilder(measurement);
            sorted.forEach((k, v) -> sb.append(',').append(k).append('=').append(v));
            return sb.toString();
        }
    }
}
