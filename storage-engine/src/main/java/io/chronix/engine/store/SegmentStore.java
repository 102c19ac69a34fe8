package io.chronix.engine.store;

import io.chronix.engine.read.FieldPredicate;
import io.chronix.engine.read.TagPredicate;
import io.chronix.engine.segment.SegmentColumns;
import io.chronix.engine.segment.SegmentFile;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.util.List;
import java.util.function.Consumer;

/**
 * The engine's boundary to segment files: flush writes through it, scans read through it. It
 * knows files, not the catalog: a written segment is part of the namespace only once the catalog
 * records it, so a crash after {@link #write} leaves an orphan file that the next open deletes.
 *
 * <p>Threading: implementations are thread-safe.
 */
public interface SegmentStore {

    /**
     * Writes {@code columns} as segment {@code file} and publishes it atomically (temporary file,
     * fsync, rename, directory fsync).
     *
     * @param maxWalSequence the highest WAL sequence the rows come from, recorded in the segment
     * @return the published file's size in bytes
     */
    long write(SegmentFile file, SegmentColumns columns, long maxWalSequence);

    /**
     * Passes the segment's rows overlapping {@code [from, to]} (pruning is allowed to be coarse:
     * the caller filters rows again) to {@code sink}, projected to {@code columns} (which always
     * include {@code time}), batch by batch. A batch is valid only during the call that receives it.
     * {@code tags} are the scan's tag predicates: a store may skip parts (row groups) in which no
     * row passes them, never one in which a row does.
     */
    void read(SegmentFile file, List<String> columns, long from, long to, List<TagPredicate> tags, BufferAllocator allocator,
            Consumer<VectorSchemaRoot> sink);

    /**
     * {@link #read} with field predicates too: a store may also leave out rows (or whole row
     * groups) in which a predicate's field is NULL or outside its range ({@link FieldPredicate}),
     * never a row that passes them all. Only for a segment nothing can overwrite: the rows left out
     * are not there to be folded with a newer version. The default ignores them.
     */
    default void read(SegmentFile file, List<String> columns, long from, long to, List<TagPredicate> tags,
            List<FieldPredicate> fields, BufferAllocator allocator, Consumer<VectorSchemaRoot> sink) {
        read(file, columns, from, to, tags, allocator, sink);
    }

    /**
     * How many row groups segment {@code file} holds: what a scan's statistics compare the row
     * groups it read with ({@link io.chronix.engine.read.ScanStatistics}).
     */
    int rowGroupCount(SegmentFile file);

    /**
     * Deletes the segment's files (the segment and any sidecar) if they exist, and drops the
     * segment's decoded blocks from the block cache.
     */
    void delete(SegmentFile file);

    /**
     * The newest row of the one series selected by {@code series} (an {@code Eq} or {@code IsNull}
     * per tag of the measurement) in this segment: its time and the non-NULL values of {@code
     * fields} (all held by the segment) — the last-value cache's reverse scan. The default reads
     * the whole segment; a store that knows where a series' rows end reads one row group.
     */
    default java.util.Optional<io.chronix.engine.read.LastPoint> newestRow(SegmentFile file, List<String> fields,
            List<TagPredicate> series, BufferAllocator allocator, java.util.function.IntConsumer rowGroupsRead) {
        for (int g = 0, n = rowGroupCount(file); g < n; g++) {
            rowGroupsRead.accept(g); // this default reads the whole segment
        }
        return newestRow(file, fields, series, allocator);
    }

    /** {@link #newestRow(SegmentFile, List, List, BufferAllocator, java.util.function.IntConsumer)}, not told which row groups it read. */
    default java.util.Optional<io.chronix.engine.read.LastPoint> newestRow(SegmentFile file, List<String> fields,
            List<TagPredicate> series, BufferAllocator allocator) {
        List<String> columns = new java.util.ArrayList<>();
        columns.add("time");
        for (TagPredicate p : series) {
            columns.add(p.key());
        }
        columns.addAll(fields);
        io.chronix.engine.read.LastPoint[] newest = new io.chronix.engine.read.LastPoint[1];
        read(file, columns, Long.MIN_VALUE, Long.MAX_VALUE, series, allocator, root -> {
            for (int row = root.getRowCount() - 1; row >= 0; row--) {
                if (SegmentStores.passes(root, row, series)) {
                    io.chronix.engine.read.LastPoint p = io.chronix.engine.read.ArrowValues.point(root, row, fields);
                    if (newest[0] == null || p.timestamp() > newest[0].timestamp()) {
                        newest[0] = p;
                    }
                    return;
                }
            }
        });
        return java.util.Optional.ofNullable(newest[0]);
    }

    /**
     * The segment's series (measurement, tag names in sort order, per series tag values and row
     * stretch), or {@code null} if this store cannot tell without a scan. Read cheaply at open for
     * the engine's cardinality.
     */
    default io.chronix.engine.segment.SeriesIndex seriesIndex(SegmentFile file) {
        return null;
    }

    /**
     * The segment's summary if it has a usable one (present, undamaged, of this version and of this
     * segment); empty otherwise — never an error, since a summary only saves work.
     */
    default java.util.Optional<io.chronix.engine.summary.SegmentSummary> summary(SegmentFile file) {
        return java.util.Optional.empty();
    }

    /** The cache of decoded blocks this store reads through, if any (shared by the process's stores). */
    default java.util.Optional<io.chronix.engine.cache.BlockCache> blockCache() {
        return java.util.Optional.empty();
    }

    /** How this store writes segments (codecs, row group size): compaction writes its output with the same. */
    default io.chronix.engine.segment.SegmentWriterConfig writerConfig() {
        return io.chronix.engine.segment.SegmentWriterConfig.defaults();
    }

    /** Releases what the store holds open (cached readers). */
    default void close() {
    }
}
