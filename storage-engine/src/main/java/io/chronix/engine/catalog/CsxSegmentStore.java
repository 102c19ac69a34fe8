package io.chronix.engine.catalog;

import io.chronix.engine.error.StorageIoException;
import io.chronix.engine.io.FileIO;
import io.chronix.engine.read.TagPredicate;
import io.chronix.engine.segment.SegmentColumns;
import io.chronix.engine.segment.SegmentFile;
import io.chronix.engine.segment.SegmentMeta;
import io.chronix.engine.segment.SegmentReader;
import io.chronix.engine.segment.SegmentWriter;
import io.chronix.engine.segment.SegmentWriterConfig;
import io.chronix.engine.segment.SeriesIndex;
import io.chronix.engine.segment.SeriesSidecar;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Segments as {@code .csx} files through {@link SegmentWriter} and {@link SegmentReader}.
 *
 * <p>A scan with tag predicates reads only the row groups holding a matching series, found in the
 * segment's series table ({@code .series} sidecar; rebuilt by the segment package when missing);
 * without one it decodes the predicate's tag columns first.
 *
 * <p>Opening a reader verifies the whole file's CRC-32C, which costs a read of every byte, so open
 * readers are kept in a small LRU ({@link #MAX_OPEN} readers). Each is reference-counted: one
 * evicted while a scan uses it is closed when that scan lets go of it.
 *
 * <p>Threading: thread-safe; the cache is guarded by this object's monitor.
 */
public final class CsxSegmentStore implements SegmentStore {

    static final int MAX_OPEN = 128;

    private final FileIO io;
    private final Path segmentsDir;
    private final Path tmpDir;
    private final SegmentWriterConfig config;
    private final LinkedHashMap<SegmentFile, Handle> open = new LinkedHashMap<>(16, 0.75f, true);
    private boolean closed;

    private static final class Handle {
        final SegmentReader reader;
        int users;
        boolean evicted;
        volatile SeriesIndex series; // loaded on the first scan with tag predicates

        Handle(SegmentReader reader) {
            this.reader = reader;
        }
    }

    public CsxSegmentStore(FileIO io, Path segmentsDir, Path tmpDir) {
        this(io, segmentsDir, tmpDir, SegmentWriterConfig.defaults());
    }

    public CsxSegmentStore(FileIO io, Path segmentsDir, Path tmpDir, SegmentWriterConfig config) {
        this.io = io;
        this.segmentsDir = segmentsDir;
        this.tmpDir = tmpDir;
        this.config = config;
    }

    @Override
    public long write(SegmentFile file, SegmentColumns columns, long maxWalSequence) {
        return SegmentWriter.write(io, tmpDir, segmentsDir, file, columns, config, maxWalSequence).meta().fileSize();
    }

    @Override
    public SegmentWriterConfig writerConfig() {
        return config;
    }

    @Override
    public void read(SegmentFile file, List<String> columns, long from, long to, List<TagPredicate> tags, BufferAllocator allocator,
            Consumer<VectorSchemaRoot> sink) {
        Handle h = acquire(file);
        try {
            SegmentReader r = h.reader;
            List<String> predicateColumns = new ArrayList<>();
            for (TagPredicate p : tags) {
                if (columns.contains(p.key()) && !predicateColumns.contains(p.key())) {
                    predicateColumns.add(p.key());
                }
            }
            boolean[] wanted = tags.isEmpty() ? null : rowGroupsWithMatchingSeries(h, file, from, to, tags);
            for (int rg : r.rowGroupsOverlapping(from, to)) {
                if (wanted != null && !wanted[rg]) {
                    continue;
                }
                // no series table: decode the predicate's tag columns first and the rest only where
                // some row passes (rows are series by series, so a selective predicate matches few)
                if (wanted == null && !tags.isEmpty() && !predicateColumns.isEmpty()) {
                    try (VectorSchemaRoot probe = r.readRowGroup(allocator, rg, predicateColumns)) {
                        if (!anyRowPasses(probe, tags)) {
                            continue;
                        }
                    }
                }
                try (VectorSchemaRoot root = r.readRowGroup(allocator, rg, columns)) {
                    sink.accept(root);
                }
            }
        } finally {
            release(h);
        }
    }

    /**
     * Which row groups hold rows of a series that passes {@code tags} within {@code [from, to]},
     * from the segment's series table (its {@code .series} sidecar, rebuilt if missing); {@code null}
     * if there is no usable table, and the caller probes instead.
     */
    private boolean[] rowGroupsWithMatchingSeries(Handle h, SegmentFile file, long from, long to, List<TagPredicate> tags) {
        SeriesIndex index = h.series;
        if (index == null) {
            try {
                index = SeriesSidecar.loadOrRebuild(io, segmentsDir, tmpDir, file);
            } catch (RuntimeException e) {
                return null;
            }
            h.series = index;
        }
        List<SegmentMeta.RowGroup> groups = h.reader.rowGroups();
        boolean[] wanted = new boolean[groups.size()];
        int[] position = new int[tags.size()];
        for (int i = 0; i < tags.size(); i++) {
            position[i] = index.tagNames().indexOf(tags.get(i).key());
        }
        for (SeriesIndex.Key key : index.series()) {
            // no pruning by the key's minTime/maxTime: they once excluded a series with a row in
            // range (README, open questions for segments); row groups are time-pruned anyway
            boolean pass = true;
            for (int i = 0; i < tags.size() && pass; i++) {
                pass = tags.get(i).test(position[i] < 0 ? null : key.tagValues().get(position[i]));
            }
            if (!pass) {
                continue;
            }
            long first = key.firstRow();
            long end = first + key.rowCount();
            for (int g = 0; g < groups.size(); g++) {
                SegmentMeta.RowGroup rg = groups.get(g);
                if (rg.firstRow() < end && rg.firstRow() + rg.rowCount() > first) {
                    wanted[g] = true;
                }
            }
        }
        return wanted;
    }

    private static boolean anyRowPasses(VectorSchemaRoot probe, List<TagPredicate> tags) {
        int rows = probe.getRowCount();
        VarCharVector[] vectors = new VarCharVector[tags.size()];
        byte[][] eq = new byte[tags.size()][];
        for (int i = 0; i < tags.size(); i++) {
            vectors[i] = (VarCharVector) probe.getVector(tags.get(i).key());
            if (tags.get(i) instanceof TagPredicate.Eq e) {
                eq[i] = e.value().getBytes(StandardCharsets.UTF_8);
            }
        }
        for (int row = 0; row < rows; row++) {
            boolean pass = true;
            for (int i = 0; i < tags.size() && pass; i++) {
                VarCharVector v = vectors[i];
                boolean isNull = v == null || v.isNull(row);
                if (eq[i] != null) {
                    pass = !isNull && sameBytes(v, row, eq[i]);
                } else {
                    pass = tags.get(i).test(isNull ? null : new String(v.get(row), StandardCharsets.UTF_8));
                }
            }
            if (pass) {
                return true;
            }
        }
        return false;
    }

    private static boolean sameBytes(VarCharVector v, int row, byte[] expected) {
        if (v.getValueLength(row) != expected.length) {
            return false;
        }
        long start = v.getStartOffset(row);
        for (int b = 0; b < expected.length; b++) {
            if (v.getDataBuffer().getByte(start + b) != expected[b]) {
                return false;
            }
        }
        return true;
    }

    private synchronized Handle acquire(SegmentFile file) {
        if (closed) {
            throw new IllegalStateException("segment store closed");
        }
        Handle h = open.get(file);
        if (h == null) {
            h = new Handle(SegmentReader.open(io, file.resolve(segmentsDir)));
            open.put(file, h);
            Iterator<Map.Entry<SegmentFile, Handle>> it = open.entrySet().iterator();
            while (open.size() > MAX_OPEN && it.hasNext()) {
                Handle old = it.next().getValue();
                it.remove();
                retire(old);
            }
        }
        h.users++;
        return h;
    }

    private synchronized void release(Handle h) {
        h.users--;
        if (h.evicted && h.users == 0) {
            h.reader.close();
        }
    }

    private void retire(Handle h) {
        h.evicted = true;
        if (h.users == 0) {
            h.reader.close();
        }
    }

    @Override
    public void delete(SegmentFile file) {
        synchronized (this) {
            Handle h = open.remove(file);
            if (h != null) {
                retire(h);
            }
        }
        Path path = file.resolve(segmentsDir);
        try {
            io.delete(path);
            io.delete(file.resolveSidecar(segmentsDir));
        } catch (IOException e) {
            throw new StorageIoException("delete segment", path, -1, e);
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        for (Handle h : open.values()) {
            retire(h);
        }
        open.clear();
    }
}
