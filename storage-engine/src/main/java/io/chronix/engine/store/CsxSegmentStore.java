package io.chronix.engine.store;

import io.chronix.engine.cache.BlockCache;
import io.chronix.engine.error.StorageIoException;
import io.chronix.engine.io.FileIO;
import io.chronix.engine.read.ArrowValues;
import io.chronix.engine.read.FieldPredicate;
import io.chronix.engine.read.LastPoint;
import io.chronix.engine.read.TagPredicate;
import io.chronix.engine.segment.SegmentColumns;
import io.chronix.engine.segment.SegmentFile;
import io.chronix.engine.segment.SegmentMeta;
import io.chronix.engine.segment.SegmentReader;
import io.chronix.engine.segment.SegmentWriter;
import io.chronix.engine.segment.SegmentWriterConfig;
import io.chronix.engine.segment.SeriesIndex;
import io.chronix.engine.segment.SeriesReader;
import io.chronix.engine.segment.SeriesSidecar;
import io.chronix.engine.summary.SegmentSummary;
import io.chronix.engine.summary.SummaryBuilder;
import io.chronix.engine.summary.SummaryReader;
import io.chronix.engine.summary.SummaryWriter;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
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
    /** Bytes of checked summaries a store keeps (about 88 bytes per series and field). */
    static final long SUMMARY_CACHE_BYTES = 32L << 20;
    private static final System.Logger LOG = System.getLogger(CsxSegmentStore.class.getName());

    private final FileIO io;
    private final Path segmentsDir;
    private final Path tmpDir;
    private final SegmentWriterConfig config;
    private final BlockCache blockCache;
    private final com.github.benmanes.caffeine.cache.Cache<SegmentFile, java.util.Optional<SegmentSummary>> summaries =
            com.github.benmanes.caffeine.cache.Caffeine.newBuilder().maximumWeight(SUMMARY_CACHE_BYTES)
                    .weigher((SegmentFile f, java.util.Optional<SegmentSummary> s) -> weight(s)).executor(Runnable::run).build();
    private final LinkedHashMap<SegmentFile, Handle> open = new LinkedHashMap<>(16, 0.75f, true);
    private boolean closed;

    private static final class Handle {
        final SegmentReader reader;
        int users;
        boolean evicted;
        volatile SeriesIndex series; // loaded on the first scan with tag predicates
        /** Per tag position of {@link #series}, value → the keys holding it, ascending; built on first use. */
        final java.util.concurrent.ConcurrentHashMap<Integer, Map<String, int[]>> keysByValue = new java.util.concurrent.ConcurrentHashMap<>();

        Handle(SegmentReader reader) {
            this.reader = reader;
        }

        /**
         * The indices of the series keys that may pass {@code tags}, ascending: those holding the
         * value(s) of the first equality or set predicate on a tag the segment has, else every key.
         * A one-host query over a day touches a dozen segments of hundreds of series each; testing
         * every key was most of its series lookup.
         */
        int[] candidates(SeriesIndex index, List<TagPredicate> tags, int[] position) {
            for (int i = 0; i < tags.size(); i++) {
                if (position[i] < 0 || !(tags.get(i) instanceof TagPredicate.Eq || tags.get(i) instanceof TagPredicate.In)) {
                    continue;
                }
                int at = position[i];
                Map<String, int[]> byValue = keysByValue.computeIfAbsent(at, k -> keysByValue(index, k));
                if (tags.get(i) instanceof TagPredicate.Eq eq) {
                    return byValue.getOrDefault(eq.value(), new int[0]);
                }
                int[] all = new int[0];
                for (String v : ((TagPredicate.In) tags.get(i)).values()) {
                    int[] keys = byValue.get(v);
                    if (keys != null) {
                        int n = all.length;
                        all = Arrays.copyOf(all, n + keys.length);
                        System.arraycopy(keys, 0, all, n, keys.length);
                    }
                }
                Arrays.sort(all);
                return all;
            }
            int[] every = new int[index.series().size()];
            Arrays.setAll(every, k -> k);
            return every;
        }

        private static Map<String, int[]> keysByValue(SeriesIndex index, int position) {
            Map<String, List<Integer>> lists = new java.util.HashMap<>();
            List<SeriesIndex.Key> keys = index.series();
            for (int k = 0; k < keys.size(); k++) {
                String v = keys.get(k).tagValues().get(position);
                if (v != null) {
                    lists.computeIfAbsent(v, x -> new ArrayList<>()).add(k);
                }
            }
            Map<String, int[]> out = new java.util.HashMap<>();
            lists.forEach((v, l) -> out.put(v, l.stream().mapToInt(Integer::intValue).toArray()));
            return out;
        }
    }

    public CsxSegmentStore(FileIO io, Path segmentsDir, Path tmpDir) {
        this(io, segmentsDir, tmpDir, SegmentWriterConfig.defaults());
    }

    public CsxSegmentStore(FileIO io, Path segmentsDir, Path tmpDir, SegmentWriterConfig config) {
        this(io, segmentsDir, tmpDir, config, BlockCache.shared());
    }

    /** @param blockCache where decoded blocks are kept; shared by every store given it (one per process) */
    public CsxSegmentStore(FileIO io, Path segmentsDir, Path tmpDir, SegmentWriterConfig config, BlockCache blockCache) {
        this.io = io;
        this.segmentsDir = segmentsDir;
        this.tmpDir = tmpDir;
        this.config = config;
        this.blockCache = java.util.Objects.requireNonNull(blockCache, "blockCache");
    }

    @Override
    public java.util.Optional<BlockCache> blockCache() {
        return java.util.Optional.of(blockCache);
    }

    /**
     * Writes the segment, its {@code .series} sidecar and its {@code .summary}. The summary is
     * optional: failing to write it is a WARN, and reads of the segment fall back to its blocks.
     */
    @Override
    public long write(SegmentFile file, SegmentColumns columns, long maxWalSequence) {
        SegmentWriter.Written w = SegmentWriter.write(io, tmpDir, segmentsDir, file, columns, config, maxWalSequence);
        SegmentSummary summary = writeSummary(io, tmpDir, segmentsDir, file, List.of(columns), w.meta().crc());
        if (summary != null) {
            summaries.put(file, java.util.Optional.of(summary));
        }
        return w.meta().fileSize();
    }

    /**
     * Writes the {@code .summary} of a segment just written from {@code parts} (with the written
     * segment's CRC), for any writer of segments (flush here; compaction). A failure is logged and
     * swallowed: the summary only saves work.
     *
     * @return the summary written, or {@code null} if none was
     */
    public static SegmentSummary writeSummary(FileIO io, Path tmpDir, Path segmentsDir, SegmentFile file, List<SegmentColumns> parts,
            int segmentCrc) {
        SummaryBuilder b = new SummaryBuilder();
        try {
            parts.forEach(b::add);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "segment summary not written; aggregates read its blocks [segment=" + file + "]", e);
            return null;
        }
        return writeSummary(io, tmpDir, segmentsDir, file, b, segmentCrc);
    }

    /**
     * Like {@link #writeSummary(FileIO, Path, Path, SegmentFile, List, int)} from a builder the
     * writer fed part by part as it streamed them (compaction); {@code null} builder: nothing written.
     */
    public static SegmentSummary writeSummary(FileIO io, Path tmpDir, Path segmentsDir, SegmentFile file, SummaryBuilder builder,
            int segmentCrc) {
        if (builder == null) {
            return null;
        }
        try {
            SegmentSummary summary = builder.build(segmentCrc);
            SummaryWriter.write(io, tmpDir, file.resolveSummary(segmentsDir), summary);
            return summary;
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "segment summary not written; aggregates read its blocks [segment=" + file + "]", e);
            return null;
        }
    }

    @Override
    public SeriesIndex seriesIndex(SegmentFile file) {
        Path sidecar = file.resolveSidecar(segmentsDir);
        try {
            // at open: trust a sidecar that checks out by itself rather than hash every segment; names
            // are never reused, so a sidecar beside a segment is that segment's
            if (io.exists(sidecar)) {
                return SeriesReader.read(io, sidecar);
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "series sidecar unreadable; rebuilding [" + e.getMessage() + "]");
        }
        return SeriesSidecar.loadOrRebuild(io, segmentsDir, tmpDir, file);
    }

    /**
     * Summaries are kept per store once checked against their segment (bounded by bytes, so an
     * aggregate over many segments opens no reader for segments it answers from summaries).
     */
    @Override
    public java.util.Optional<SegmentSummary> summary(SegmentFile file) {
        java.util.Optional<SegmentSummary> cached = summaries.getIfPresent(file);
        if (cached != null) {
            return cached;
        }
        Handle h = acquire(file);
        try {
            java.util.Optional<SegmentSummary> s = loadSummary(file, h.reader.meta().crc());
            summaries.put(file, s);
            return s;
        } finally {
            release(h);
        }
    }

    private static int weight(java.util.Optional<SegmentSummary> s) {
        return s.map(x -> 256 + x.series().size() * (96 + 88 * x.fields().size())).orElse(64);
    }

    private java.util.Optional<SegmentSummary> loadSummary(SegmentFile file, int segmentCrc) {
        Path path = file.resolveSummary(segmentsDir);
        try {
            if (!io.exists(path)) {
                return java.util.Optional.empty();
            }
            SegmentSummary s = SummaryReader.read(io, path);
            if (s.segmentCrc() != segmentCrc) {
                LOG.log(System.Logger.Level.WARNING, "segment summary belongs to another segment; ignored [path=" + path + "]");
                return java.util.Optional.empty();
            }
            return java.util.Optional.of(s);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "segment summary unusable; aggregates read blocks [" + e.getMessage() + "]");
            return java.util.Optional.empty();
        }
    }

    @Override
    public java.util.Optional<LastPoint> newestRow(SegmentFile file, List<String> fields, List<TagPredicate> series,
            BufferAllocator allocator) {
        return newestRow(file, fields, series, allocator, g -> { });
    }

    @Override
    public java.util.Optional<LastPoint> newestRow(SegmentFile file, List<String> fields, List<TagPredicate> series,
            BufferAllocator allocator, java.util.function.IntConsumer rowGroupsRead) {
        Handle h = acquire(file);
        try {
            SeriesIndex index = seriesOf(h, file);
            if (index == null) {
                return SegmentStore.super.newestRow(file, fields, series, allocator, rowGroupsRead); // reads it whole
            }
            SeriesIndex.Key key = matching(index, series);
            if (key == null || key.rowCount() == 0) {
                return java.util.Optional.empty();
            }
            long last = key.firstRow() + key.rowCount() - 1;
            List<SegmentMeta.RowGroup> groups = h.reader.rowGroups();
            for (int g = groups.size() - 1; g >= 0; g--) {
                SegmentMeta.RowGroup rg = groups.get(g);
                if (rg.firstRow() <= last && last < rg.firstRow() + rg.rowCount()) {
                    List<String> columns = new ArrayList<>();
                    columns.add(SegmentColumns.TIME);
                    columns.addAll(fields);
                    rowGroupsRead.accept(g);
                    try (VectorSchemaRoot root = h.reader.readRowGroup(allocator, g, columns)) {
                        return java.util.Optional.of(ArrowValues.point(root, (int) (last - rg.firstRow()), fields));
                    }
                }
            }
            return java.util.Optional.empty();
        } finally {
            release(h);
        }
    }

    private static SeriesIndex.Key matching(SeriesIndex index, List<TagPredicate> series) {
        int[] position = new int[series.size()];
        for (int i = 0; i < series.size(); i++) {
            position[i] = index.tagNames().indexOf(series.get(i).key());
        }
        for (SeriesIndex.Key key : index.series()) {
            boolean pass = true;
            for (int i = 0; i < series.size() && pass; i++) {
                pass = series.get(i).test(position[i] < 0 ? null : key.tagValues().get(position[i]));
            }
            // a series with a tag the predicates do not name is another series
            for (int t = 0; t < index.tagNames().size() && pass; t++) {
                if (key.tagValues().get(t) != null && !contains(position, t)) {
                    pass = false;
                }
            }
            if (pass) {
                return key;
            }
        }
        return null;
    }

    private static boolean contains(int[] a, int v) {
        for (int x : a) {
            if (x == v) {
                return true;
            }
        }
        return false;
    }

    private SeriesIndex seriesOf(Handle h, SegmentFile file) {
        SeriesIndex index = h.series;
        if (index == null) {
            try {
                index = SeriesSidecar.loadOrRebuild(io, segmentsDir, tmpDir, file);
            } catch (RuntimeException e) {
                return null;
            }
            h.series = index;
        }
        return index;
    }

    @Override
    public SegmentWriterConfig writerConfig() {
        return config;
    }

    @Override
    public int rowGroupCount(SegmentFile file) {
        Handle h = acquire(file);
        try {
            return h.reader.rowGroups().size();
        } finally {
            release(h);
        }
    }

    @Override
    public void read(SegmentFile file, List<String> columns, long from, long to, List<TagPredicate> tags, BufferAllocator allocator,
            Consumer<VectorSchemaRoot> sink) {
        read(file, columns, from, to, tags, List.of(), allocator, sink);
    }

    /**
     * Row groups are pruned by time and by the series table as in {@link #read(SegmentFile, List,
     * long, long, List, BufferAllocator, Consumer)}; then each field predicate is evaluated on its
     * column's decoded block ({@link SegmentReader#filterRows}) and only the passing rows of the
     * projected columns are materialised — unless most of the row group passes, which is read
     * whole (gathering most of a group costs what decoding it does).
     */
    @Override
    public void read(SegmentFile file, List<String> columns, long from, long to, List<TagPredicate> tags,
            List<FieldPredicate> fields, BufferAllocator allocator, Consumer<VectorSchemaRoot> sink) {
        Handle h = acquire(file);
        try {
            SegmentReader r = h.reader;
            List<String> predicateColumns = new ArrayList<>();
            for (TagPredicate p : tags) {
                if (columns.contains(p.key()) && !predicateColumns.contains(p.key())) {
                    predicateColumns.add(p.key());
                }
            }
            int[][] wanted = tags.isEmpty() ? null : rowRangesOfMatchingSeries(h, file, tags, from, to);
            for (int rg : r.rowGroupsOverlapping(from, to)) {
                if (wanted != null && wanted[rg] == null) {
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
                int[] ranges = wanted == null || wanted[rg].length == 0 ? null : wanted[rg];
                if (!fields.isEmpty()) {
                    ranges = passingRows(r, rg, ranges, fields);
                    if (ranges != null && ranges.length == 0) {
                        continue;
                    }
                }
                try (VectorSchemaRoot root = ranges == null ? r.readRowGroup(allocator, rg, columns) : r.readRowGroupRows(allocator, rg, columns, ranges)) {
                    sink.accept(root);
                }
            }
        } finally {
            release(h);
        }
    }

    /**
     * The rows of row group {@code rg} within {@code ranges} ({@code null}: all of it) that pass
     * every field predicate the reader can evaluate, as {@code [start0, count0, …]}: empty if none
     * passes, {@code null} to read the row group whole (the predicates are not evaluable here, or
     * most rows of a whole group pass).
     */
    private static int[] passingRows(SegmentReader r, int rg, int[] ranges, List<FieldPredicate> fields) {
        int rowCount = r.rowGroups().get(rg).rowCount();
        // only the rows of the matching series are tested and walked: a one-host scan must not
        // pass over every row of each row group (most of a one-host filter's samples did)
        int[] scope = ranges != null ? ranges : new int[] {0, rowCount};
        boolean[] keep = new boolean[rowCount];
        for (int i = 0; i < scope.length; i += 2) {
            Arrays.fill(keep, scope[i], scope[i] + scope[i + 1], true);
        }
        boolean applied = false;
        for (FieldPredicate p : fields) {
            applied |= r.filterRows(rg, p.field(), p::test, keep, scope);
        }
        if (!applied) {
            return ranges;
        }
        int[] runs = new int[16];
        int n = 0;
        int kept = 0;
        for (int i = 0; i < scope.length; i += 2) {
            for (int row = scope[i], end = row + scope[i + 1]; row < end; row++) {
                if (!keep[row]) {
                    continue;
                }
                int start = row;
                while (row < end && keep[row]) {
                    row++;
                }
                if (n + 2 > runs.length) {
                    runs = Arrays.copyOf(runs, runs.length * 2);
                }
                runs[n++] = start;
                runs[n++] = row - start;
                kept += row - start;
            }
        }
        if (ranges == null && mostOf(kept, rowCount)) {
            return null;
        }
        return Arrays.copyOf(runs, n);
    }

    /**
     * Where the series that pass {@code tags} lie, per row group, from the segment's series table
     * (its {@code .series} sidecar, rebuilt if missing): {@code null} for a row group holding none of
     * them, an empty array for one where they fill most of it (read whole), else their rows as
     * {@code [start0, count0, …]} within the row group, adjacent series joined. {@code null} for
     * the whole answer if there is no usable table, and the caller probes instead.
     */
    private int[][] rowRangesOfMatchingSeries(Handle h, SegmentFile file, List<TagPredicate> tags, long from, long to) {
        SeriesIndex index = seriesOf(h, file);
        if (index == null) {
            return null;
        }
        List<SegmentMeta.RowGroup> groups = h.reader.rowGroups();
        int[][] ranges = new int[groups.size()][];
        int[] counts = new int[groups.size()];
        // per row group reaching past [from, to], its time column: each series' rows are cut to the
        // interval, so rows outside it are never materialised (a one-hour window over hourly shards
        // reads half of each of two) and what is read passes whole
        byte[][] times = new byte[groups.size()][];
        int[] position = new int[tags.size()];
        for (int i = 0; i < tags.size(); i++) {
            position[i] = index.tagNames().indexOf(tags.get(i).key());
        }
        int g = 0;
        for (int k : h.candidates(index, tags, position)) { // stored order: first rows ascend
            SeriesIndex.Key key = index.series().get(k);
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
            g = Math.min(g, groups.size() - 1);
            while (g > 0 && groups.get(g).firstRow() > first) {
                g--; // not expected (keys ascend), but never miss a row group
            }
            for (; g < groups.size(); g++) {
                SegmentMeta.RowGroup rg = groups.get(g);
                long rgEnd = rg.firstRow() + rg.rowCount();
                if (rgEnd <= first) {
                    continue;
                }
                if (rg.firstRow() >= end) {
                    break;
                }
                int start = (int) (Math.max(first, rg.firstRow()) - rg.firstRow());
                int stop = (int) (Math.min(end, rgEnd) - rg.firstRow());
                if (!rg.overlaps(from, to)) {
                    start = stop; // not read: its time bounds miss the interval
                } else if (rg.minTime() < from || rg.maxTime() > to) {
                    byte[] t = times[g] == null ? (times[g] = h.reader.timeImage(g)) : times[g];
                    start = SegmentReader.firstTimeAtLeast(t, start, stop, from);
                    stop = to == Long.MAX_VALUE ? stop : SegmentReader.firstTimeAtLeast(t, start, stop, to + 1);
                }
                if (start < stop) {
                    int[] r = ranges[g] == null ? (ranges[g] = new int[8]) : ranges[g];
                    int n = counts[g];
                    if (n > 0 && r[n - 2] + r[n - 1] == start) {
                        r[n - 1] += stop - start; // the next series in storage: one stretch
                    } else {
                        if (n + 2 > r.length) {
                            r = ranges[g] = Arrays.copyOf(r, r.length * 2);
                        }
                        r[n] = start;
                        r[n + 1] = stop - start;
                        counts[g] = n + 2;
                    }
                }
                if (rgEnd >= end) {
                    break; // the series ends in this row group; the next may start here too
                }
            }
        }
        for (int k = 0; k < groups.size(); k++) {
            if (ranges[k] == null) {
                continue;
            }
            int rows = 0;
            for (int i = 1; i < counts[k]; i += 2) {
                rows += ranges[k][i];
            }
            ranges[k] = mostOf(rows, groups.get(k).rowCount()) ? new int[0] : Arrays.copyOf(ranges[k], counts[k]);
        }
        return ranges;
    }

    /** Whether {@code rows} are most of a row group: gathering them costs what decoding it whole does, in more pieces. */
    private static boolean mostOf(long rows, int groupRows) {
        return rows * 4L >= groupRows * 3L;
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
            h = new Handle(SegmentReader.open(io, file.resolve(segmentsDir)).cachingIn(blockCache));
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
        blockCache.invalidate(path);
        summaries.invalidate(file);
        try {
            io.delete(path);
            io.delete(file.resolveSidecar(segmentsDir));
            io.delete(file.resolveSummary(segmentsDir));
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
