package io.chronix.engine.read;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What a scan read against what the measurement holds: how much pruning — by time range, by the
 * series tables, by summaries, by row-group statistics — kept it from reading.
 *
 * <ul>
 *   <li>{@code segments}: the measurement's segments, hot and archived; {@code segmentsRead} those
 *       the scan opened.</li>
 *   <li>{@code rowGroups}: the row groups of the segments read (the others' are not counted: a
 *       pruned segment is never opened); {@code rowGroupsRead} those decoded. An archived segment
 *       counts each batch its cold tier hands over as one row group, of as many.</li>
 *   <li>{@code rows}: the rows the measurement's segments hold as the catalog counts them (rows of
 *       one series and time in two segments count twice), plus the memtable rows the scan took;
 *       {@code rowsRead}: the rows the scan took from segments after row-group and series pruning,
 *       plus those memtable rows. Memtables are not pruned below the series, so their rows count as
 *       read.</li>
 * </ul>
 *
 * A newest-row scan answered from the last-value cache reads no segment for a series whose entry
 * is complete. Each row it answers counts as one row read; a reverse scan (an incomplete entry)
 * counts the segment it opens and the row group it decodes, each once however many series ask it.
 */
public record ScanStatistics(int segments, int segmentsRead, long rowGroups, long rowGroupsRead, long rows, long rowsRead) {

    /** For an answer that is not a scan of stored rows (a rollup view, or a measurement never written). */
    public static final ScanStatistics NONE = new ScanStatistics(0, 0, 0, 0, 0, 0);

    /**
     * The share of the measurement's rows the scan did not read, in {@code [0, 1]}; 0 when the
     * measurement holds no rows.
     */
    public double prunedShare() {
        return rows == 0 ? 0 : Math.clamp(1.0 - (double) rowsRead / rows, 0.0, 1.0);
    }

    /**
     * Collects the figures while a scan runs; thread-safe, for scans that read segments on helper
     * threads.
     */
    public static final class Counter {
        private final AtomicLong segments = new AtomicLong();
        private final AtomicLong segmentsRead = new AtomicLong();
        private final AtomicLong rowGroups = new AtomicLong();
        private final AtomicLong rowGroupsRead = new AtomicLong();
        private final AtomicLong rows = new AtomicLong();
        private final AtomicLong rowsRead = new AtomicLong();
        /** Segments and row groups counted so far, so a newest-row scan reading one twice counts it once. */
        private final java.util.Set<String> seen = java.util.concurrent.ConcurrentHashMap.newKeySet();

        /** The measurement holds {@code count} segments of {@code rows} rows (catalog counts). */
        public void stored(int count, long rows) {
            segments.addAndGet(count);
            this.rows.addAndGet(rows);
        }

        /** Segment {@code file}, of {@code rowGroups} row groups, was opened (counted once however often). */
        public void segmentOpened(String file, int rowGroups) {
            if (seen.add(file)) {
                segmentsRead.incrementAndGet();
                this.rowGroups.addAndGet(rowGroups);
            }
        }

        /** Row group {@code rowGroup} of segment {@code file} was decoded (counted once however often), for a row it holds. */
        public void rowGroupRead(String file, int rowGroup) {
            if (seen.add(file + '#' + rowGroup)) {
                rowGroupsRead.incrementAndGet();
            }
        }

        /** A row was answered without a row group of its own: from the last-value cache, or by a reverse scan. */
        public void rowAnswered() {
            rowsRead.incrementAndGet();
        }

        /** A row group (or a part of one) of {@code rows} rows was decoded. */
        public void rowGroupRead(long rows) {
            rowGroupsRead.incrementAndGet();
            rowsRead.addAndGet(rows);
        }

        /** An archived segment's batch of {@code rows} rows arrived: one row group of the segment, read (archived segments have no row group index here). */
        public void coldBatchRead(long rows) {
            rowGroups.incrementAndGet();
            rowGroupRead(rows);
        }

        /** {@code rows} rows were taken from memtables: read, and part of the total. */
        public void memtableRows(long rows) {
            this.rows.addAndGet(rows);
            rowsRead.addAndGet(rows);
        }

        /** Adds every figure of {@code other}, a scan this one is made of. */
        public void add(ScanStatistics other) {
            segments.addAndGet(other.segments());
            segmentsRead.addAndGet(other.segmentsRead());
            rowGroups.addAndGet(other.rowGroups());
            rowGroupsRead.addAndGet(other.rowGroupsRead());
            rows.addAndGet(other.rows());
            rowsRead.addAndGet(other.rowsRead());
        }

        public ScanStatistics snapshot() {
            return new ScanStatistics(Math.toIntExact(segments.get()), Math.toIntExact(segmentsRead.get()), rowGroups.get(),
                    rowGroupsRead.get(), rows.get(), rowsRead.get());
        }
    }
}
