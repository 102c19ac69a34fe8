package io.chronix.engine.catalog;

import io.chronix.engine.segment.SegmentColumns;
import io.chronix.engine.read.TagPredicate;
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

    /** Deletes the segment's files (the segment and any sidecar) if they exist. */
    void delete(SegmentFile file);

    /** How this store writes segments (codecs, row group size): compaction writes its output with the same. */
    default io.chronix.engine.segment.SegmentWriterConfig writerConfig() {
        return io.chronix.engine.segment.SegmentWriterConfig.defaults();
    }

    /** Releases what the store holds open (cached readers). */
    default void close() {
    }
}
