package io.chronix.engine.catalog;

import java.util.List;
import java.util.Objects;

/**
 * One segment as the catalog records it. Enough to prune a read and to skip WAL replay without
 * opening the file.
 *
 * @param id catalog-wide, increasing in publish order; a higher id is a newer write, which is what
 *     last-write-wins between overlapping segments goes by
 * @param file the file name relative to {@code segments/}: {@code shard_{id}/seg_{nanos}_{counter}.csx}
 * @param walSequence the highest WAL sequence whose points (in this shard and measurement) the
 *     segment's flush holds; replay skips those points at or below it
 * @param columns statistics of every tag and field column the segment holds, canonical order
 */
public record SegmentEntry(long id, String file, long shard, String measurement, long minTime, long maxTime, long rowCount,
        int seriesCount, long sizeBytes, long walSequence, List<ColumnStats> columns) {

    public SegmentEntry {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(measurement, "measurement");
        columns = List.copyOf(columns);
        if (file.isEmpty() || file.contains("..") || file.contains("\\") || file.startsWith("/")) {
            throw new IllegalArgumentException("segment file must be a relative name inside segments/: " + file);
        }
    }

    /** The stats of column {@code name}, or {@code null} if the segment has no such column (all NULL). */
    public ColumnStats column(String name) {
        for (ColumnStats c : columns) {
            if (c.name().equals(name)) {
                return c;
            }
        }
        return null;
    }

    public boolean overlaps(long from, long to) {
        return minTime <= to && maxTime >= from;
    }
}
