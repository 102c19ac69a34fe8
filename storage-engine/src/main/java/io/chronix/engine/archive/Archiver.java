package io.chronix.engine.archive;

import io.chronix.engine.catalog.ArchivedSegment;
import io.chronix.engine.catalog.Catalog;
import io.chronix.engine.catalog.ColumnStats;
import io.chronix.engine.catalog.SegmentEntry;
import io.chronix.engine.catalog.StoredObject;
import io.chronix.engine.schema.Column;
import io.chronix.engine.segment.SegmentFile;
import io.chronix.engine.store.MetadataCache;
import io.chronix.engine.store.SegmentStore;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.util.TransferPair;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The archiving pass of one engine, and the removal of archived segments (retention).
 *
 * <p>A pass takes the live hot segments whose newest point is older than the cutoff, oldest id
 * first, and for each: reads all its rows, has the cold tier write, upload and verify the object,
 * records {@code ARCHIVED} in the catalog (which takes the segment out of the hot set in the same
 * record), swaps it from the hot metadata to the {@link ColdIndex}, and deletes its files. The
 * first failure stops the pass (the store is likely down; the rest would fail the same way) and
 * the next pass retries. After a clean pass, objects under the namespace's prefix that the catalog
 * does not know — left by a crash between upload and record of a segment that was compacted or
 * removed since — are deleted.
 *
 * <p>Test hooks, in order: {@code "archive-uploaded"}, {@code "archive-recorded"},
 * {@code "archive-hot-dropped"}, {@code "archive-hot-deleted"}.
 *
 * <p>Threading: one pass or removal at a time (a lock); scans run concurrently.
 */
public final class Archiver {

    private static final System.Logger LOG = System.getLogger(Archiver.class.getName());
    private static final String EXTENSION = ".parquet";

    private final Catalog catalog;
    private final MetadataCache metadata;
    private final SegmentStore store;
    private final ColdIndex cold;
    private final ReentrantLock lock = new ReentrantLock();

    public Archiver(Catalog catalog, MetadataCache metadata, SegmentStore store, ColdIndex cold) {
        this.catalog = catalog;
        this.metadata = metadata;
        this.store = store;
        this.cold = cold;
    }

    /** The object name of a hot segment: {@code seg_{nanos}_{counter}.parquet}, from ids only. */
    public static String objectName(SegmentEntry e) {
        SegmentFile f = SegmentFile.parse(e.file());
        return SegmentFile.FILE_PREFIX + f.nanos() + "_" + f.counter() + EXTENSION;
    }

    /**
     * Archives every live segment whose {@code maxTime} is before {@code cutoffNanos}.
     *
     * @param nowNanos wall-clock time recorded with each archived segment
     */
    public ArchiveReport pass(ColdTier tier, long cutoffNanos, long nowNanos, Consumer<String> hook) {
        lock.lock();
        try {
            List<SegmentEntry> due = new ArrayList<>();
            for (SegmentEntry e : catalog.segments()) {
                if (e.maxTime() < cutoffNanos) {
                    due.add(e);
                }
            }
            due.sort(Comparator.comparingLong(SegmentEntry::id));
            int moved = 0;
            long rows = 0;
            long hotBytes = 0;
            long objectBytes = 0;
            RuntimeException failure = null;
            try (BufferAllocator allocator = new RootAllocator()) {
                for (SegmentEntry e : due) {
                    try {
                        Optional<ArchivedSegment> a = archiveOne(tier, e, nowNanos, allocator, hook);
                        if (a.isPresent()) {
                            moved++;
                            rows += e.rowCount();
                            hotBytes += e.sizeBytes();
                            objectBytes += a.get().object().sizeBytes();
                        }
                    } catch (RuntimeException ex) {
                        failure = ex;
                        LOG.log(Level.WARNING, "archiving stopped; the segment stays hot and the next pass retries [segment="
                                + e.file() + ", tier=" + tier.describe() + "]", ex);
                        break;
                    }
                }
            }
            int strays = 0;
            if (failure == null) {
                try {
                    strays = sweepStrays(tier);
                } catch (RuntimeException ex) {
                    failure = ex;
                    LOG.log(Level.WARNING, "sweeping stray cold objects failed; the next pass retries [tier=" + tier.describe() + "]", ex);
                }
            }
            int pending = failure == null ? 0 : due.size() - moved;
            return new ArchiveReport(moved, rows, hotBytes, objectBytes, pending, strays,
                    Optional.ofNullable(failure).map(f -> String.valueOf(f.getMessage())));
        } finally {
            lock.unlock();
        }
    }

    private Optional<ArchivedSegment> archiveOne(ColdTier tier, SegmentEntry e, long nowNanos, BufferAllocator allocator,
            Consumer<String> hook) {
        List<VectorSchemaRoot> batches = readAll(e, allocator);
        StoredObject object;
        try {
            if (batches.isEmpty()) {
                return Optional.empty();
            }
            object = tier.archive(new ArchiveSource(e, objectName(e), batches.getFirst().getSchema(), batches, allocator));
        } finally {
            batches.forEach(VectorSchemaRoot::close);
        }
        hook.accept("archive-uploaded");
        ArchivedSegment a = new ArchivedSegment(e, object, nowNanos);
        if (!catalog.archiveSegment(a)) {
            // compacted or removed while we uploaded: its rows live elsewhere now; the object is stray
            tier.delete(object.key());
            return Optional.empty();
        }
        hook.accept("archive-recorded");
        cold.add(a);
        metadata.remove(Set.of(e.file()));
        hook.accept("archive-hot-dropped");
        try {
            store.delete(SegmentFile.parse(e.file()));
        } catch (RuntimeException ex) {
            LOG.log(Level.WARNING, "hot files of an archived segment not deleted; the next open removes them [segment="
                    + e.file() + "]", ex);
        }
        hook.accept("archive-hot-deleted");
        return Optional.of(a);
    }

    /** All rows of a hot segment, as batches the caller owns. */
    private List<VectorSchemaRoot> readAll(SegmentEntry e, BufferAllocator allocator) {
        List<String> columns = new ArrayList<>();
        columns.add(Column.TIME);
        for (ColumnStats c : e.columns()) {
            columns.add(c.name());
        }
        List<VectorSchemaRoot> out = new ArrayList<>();
        try {
            store.read(SegmentFile.parse(e.file()), columns, Long.MIN_VALUE, Long.MAX_VALUE, List.of(), allocator, root -> {
                // the store closes its batch after this call: move the buffers into batches we own
                List<FieldVector> moved = new ArrayList<>(root.getFieldVectors().size());
                for (FieldVector v : root.getFieldVectors()) {
                    TransferPair tp = v.getTransferPair(allocator);
                    tp.transfer();
                    moved.add((FieldVector) tp.getTo());
                }
                VectorSchemaRoot copy = new VectorSchemaRoot(moved);
                copy.setRowCount(root.getRowCount());
                out.add(copy);
            });
        } catch (RuntimeException ex) {
            out.forEach(VectorSchemaRoot::close);
            throw ex;
        }
        return out;
    }

    private int sweepStrays(ColdTier tier) {
        Set<String> known = new HashSet<>();
        for (ArchivedSegment a : catalog.archived()) {
            known.add(a.key());
        }
        int n = 0;
        for (String key : tier.list()) {
            if (!known.contains(key)) {
                LOG.log(Level.INFO, "deleting a cold object the catalog does not know [key={0}]", key);
                tier.delete(key);
                n++;
            }
        }
        return n;
    }

    /**
     * Removes archived segments whose newest point is before {@code cutoffNanos}: catalog first,
     * then the index, then the objects. An object whose deletion fails is left as a stray that the
     * next clean pass deletes; its rows are already gone from every read.
     *
     * @return the removed segments
     */
    public List<ArchivedSegment> removeBefore(ColdTier tier, long cutoffNanos) {
        lock.lock();
        try {
            List<ArchivedSegment> old = catalog.archived().stream().filter(a -> a.segment().maxTime() < cutoffNanos).toList();
            if (old.isEmpty()) {
                return old;
            }
            Set<String> keys = new HashSet<>();
            old.forEach(a -> keys.add(a.key()));
            catalog.removeArchived(keys);
            cold.remove(keys);
            for (String k : keys) {
                try {
                    tier.delete(k);
                } catch (RuntimeException ex) {
                    LOG.log(Level.WARNING, "cold object past retention not deleted; the next archive pass sweeps it [key=" + k + "]", ex);
                }
            }
            return old;
        } finally {
            lock.unlock();
        }
    }
}
