package io.chronix.engine;

import io.chronix.engine.catalog.Catalog;
import io.chronix.engine.catalog.SegmentEntry;
import io.chronix.engine.catalog.TombstoneEntry;
import io.chronix.engine.io.FileIO;
import io.chronix.engine.lifecycle.DeletePlan;
import io.chronix.engine.lifecycle.DeleteRequest;
import io.chronix.engine.lifecycle.DeleteResult;
import io.chronix.engine.lifecycle.Retention;
import io.chronix.engine.lifecycle.RetentionResult;
import io.chronix.engine.lifecycle.RollupRetentionHold;
import io.chronix.engine.lifecycle.Tombstones;
import io.chronix.engine.memtable.LastValues;
import io.chronix.engine.memtable.SeriesRef;
import io.chronix.engine.memtable.SeriesRegistry;
import io.chronix.engine.read.RowMask;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.read.ScanResult;
import io.chronix.engine.read.TagPredicate;
import io.chronix.engine.schema.Column;
import io.chronix.engine.schema.MeasurementSchema;
import io.chronix.engine.schema.SchemaRegistry;
import io.chronix.engine.segment.SegmentFile;
import io.chronix.engine.segment.SeriesIndex;
import io.chronix.engine.segment.SeriesSidecar;
import io.chronix.engine.store.MetadataCache;
import io.chronix.engine.store.SegmentStore;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Deletes, retention and the repairs after them, for one {@link Chronix} (seed 001 "Data
 * Lifecycle"). Split from {@code Chronix} by concern; it shares the engine's components.
 *
 * <p><b>Delete</b> (under the engine's compaction lock and flush lock, so no merge runs and no flush
 * publishes a segment meanwhile):
 * flush every memtable → scan the matching series' stored rows (live tombstones applied) over all
 * time → per series the points in range and the newest of them → one {@link TombstoneEntry} per
 * series, bounded by that newest point and scoped to the segments that may hold its rows → an
 * fsynced catalog record → the in-memory set → last-value eviction, and a series the delete took
 * whole is released from the cardinality count. A crash before the catalog record deletes nothing;
 * after it, the reopened engine applies the tombstones from the catalog.
 *
 * <p><b>Retention</b>: {@link Retention} decides, this class removes — catalog record first, then
 * metadata cache, then files (a crash between leaves orphans, deleted at open), then tombstones
 * whose segments are all gone are collected, then the live series are re-derived.
 *
 * <p>Threading: every entry point takes {@code lock} (the engine's compaction lock); reads run
 * concurrently and see a tombstone from the moment it is in the in-memory set.
 */
final class EngineLifecycle {

    private static final System.Logger LOG = System.getLogger(EngineLifecycle.class.getName());

    /** What the lifecycle needs of the engine it belongs to. */
    interface Engine {
        /** Runs {@code body} holding the flush lock (no flush runs meanwhile). */
        <T> T underFlushLock(Supplier<T> body);

        /** A forced flush of every memtable; the caller holds the flush lock. */
        void flushHeld();

        /** A scan of segments only. */
        ScanResult scanSegments(ScanRequest request, BufferAllocator allocator);

        boolean inMemtables(SeriesRef s);

        /** Shards a memtable holds data of. */
        Set<Long> memtableShards();

        long nowNanos();

        void hook(String point);

        /** Deletes these files once no scan that may read them runs (the caller unlisted them). */
        void retire(List<SegmentFile> files);

        /**
         * Archived segments that may hold rows of {@code measurement} in the range passing the
         * predicates: a delete's tombstones are issued against them too (they keep their ids in the
         * cold tier, and scans apply tombstones to their rows).
         */
        List<SegmentEntry> archivedCandidates(String measurement, long from, long to, List<TagPredicate> predicates);

        /** Ids of every archived segment: a tombstone issued against one is still needed. */
        Set<Long> archivedIds();
    }

    private final Engine engine;
    private final FileIO io;
    private final Path dir;
    private final Catalog catalog;
    private final SegmentStore store;
    private final MetadataCache metadata;
    private final Tombstones tombstones;
    private final SeriesRegistry series;
    private final SchemaRegistry schema;
    private final long shardNanos;
    private final ReentrantLock lock;

    EngineLifecycle(Engine engine, FileIO io, Path dir, Catalog catalog, SegmentStore store, MetadataCache metadata,
            Tombstones tombstones, SeriesRegistry series, SchemaRegistry schema, ReentrantLock lock) {
        this.engine = engine;
        this.io = io;
        this.dir = dir;
        this.catalog = catalog;
        this.store = store;
        this.metadata = metadata;
        this.tombstones = tombstones;
        this.series = series;
        this.schema = schema;
        this.shardNanos = catalog.settings().shardDurationNanos();
        this.lock = lock;
    }

    // ---------------------------------------------------------------------------------- delete

    DeleteResult delete(DeleteRequest request) {
        lock.lock();
        try {
            return engine.underFlushLock(() -> deleteHeld(request));
        } finally {
            lock.unlock();
        }
    }

    private DeleteResult deleteHeld(DeleteRequest request) {
        engine.flushHeld(); // step 1: every point the tombstones may cover is now in a segment
        Optional<MeasurementSchema> found = schema.schema(request.measurement());
        if (found.isEmpty()) {
            return new DeleteResult(0, 0, 0, 0, request.dryRun());
        }
        MeasurementSchema ms = found.get();
        List<String> tagKeys = ms.tags().stream().map(Column::name).toList();
        if (!tagKeys.containsAll(request.tagKeys())) {
            return new DeleteResult(0, 0, 0, 0, request.dryRun()); // a tag the measurement never had: no series
        }
        List<TagPredicate> predicates = new ArrayList<>();
        request.tags().forEach((k, v) -> predicates.add(new TagPredicate.Eq(k, v)));
        if (request.exactSeries()) {
            for (String k : tagKeys) {
                if (!request.tags().containsKey(k)) {
                    predicates.add(new TagPredicate.IsNull(k));
                }
            }
        }
        // step 2: the stored rows of the matching series over all time (to know which go whole)
        List<String> columns = new ArrayList<>();
        columns.add(Column.TIME);
        columns.addAll(tagKeys);
        DeletePlan plan = new DeletePlan(request.start(), request.end(), tagKeys);
        List<SegmentEntry> candidates = new ArrayList<>(metadata.candidates(request.measurement(), request.start(), request.end(), predicates));
        candidates.addAll(engine.archivedCandidates(request.measurement(), request.start(), request.end(), predicates));
        try (BufferAllocator allocator = new RootAllocator();
             ScanResult r = engine.scanSegments(new ScanRequest(request.measurement(), columns, Long.MIN_VALUE, Long.MAX_VALUE,
                     predicates), allocator)) {
            r.batches().forEach(plan::add);
        }
        List<DeletePlan.Series> affected = plan.affected();
        long released = affected.stream().filter(s -> s.whollyDeleted() && !inMemtables(request.measurement(), s.tags())).count();
        if (request.dryRun() || affected.isEmpty()) {
            return new DeleteResult(affected.size(), plan.points(), request.dryRun() ? released : 0, 0, request.dryRun());
        }
        // step 3 and 4: one tombstone per series, durable before it takes effect
        List<TombstoneEntry> entries = plan.tombstones(request.measurement(), catalog.reserveTombstoneIds(affected.size()), candidates);
        engine.hook("before-tombstone-persist");
        catalog.addTombstones(entries);
        engine.hook("after-tombstone-persist");
        tombstones.add(entries);
        // step 5: last values, cardinality
        long releasedNow = 0;
        for (DeletePlan.Series s : affected) {
            SeriesRef ref = find(request.measurement(), s.tags());
            if (ref == null) {
                continue;
            }
            LastValues.evict(ref.lastValue());
            if (s.whollyDeleted() && !engine.inMemtables(ref) && ref.isLive()) {
                series.markDead(ref);
                releasedNow++;
            }
        }
        LOG.log(Level.INFO, "delete recorded [dir={0}, measurement={1}, tags={2}, series={3}, points={4}, released={5}]", dir,
                request.measurement(), request.tags(), affected.size(), plan.points(), releasedNow);
        return new DeleteResult(affected.size(), plan.points(), releasedNow, entries.size(), false);
    }

    private SeriesRef find(String measurement, Map<String, String> tags) {
        return series.find(measurement, tags.keySet().toArray(String[]::new), tags.values().toArray(String[]::new));
    }

    private boolean inMemtables(String measurement, Map<String, String> tags) {
        SeriesRef ref = find(measurement, tags);
        return ref != null && engine.inMemtables(ref);
    }

    // ---------------------------------------------------------------------------------- retention

    /** The newest timestamp held: newest segment point, or the start of the newest shard memtables write to. */
    long newestHeld() {
        long newest = Long.MIN_VALUE;
        for (SegmentEntry e : metadata.all()) {
            newest = Math.max(newest, e.maxTime());
        }
        for (long shard : engine.memtableShards()) {
            long start;
            try {
                start = Math.multiplyExact(shard, shardNanos);
            } catch (ArithmeticException e) {
                start = shard < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
            }
            newest = Math.max(newest, start);
        }
        return newest;
    }

    long cutoff(Duration retention) {
        long newest = newestHeld();
        if (newest == Long.MIN_VALUE) {
            return Long.MIN_VALUE; // nothing held: nothing is past retention
        }
        return Retention.cutoff(Retention.reference(engine.nowNanos(), newest), retention);
    }

    RetentionResult enforceRetention(Duration retention, RollupRetentionHold hold) {
        lock.lock();
        try {
            long cutoff = cutoff(retention);
            Retention.Plan plan = Retention.plan(metadata.all(), engine.memtableShards(), cutoff, hold);
            RetentionResult removed = removeHeld(plan.drop());
            RetentionResult r = new RetentionResult(plan.shardsDropped(), removed.segmentsDeleted(), plan.preserved(),
                    removed.rowsDeleted(), removed.bytesFreed());
            if (r.deletedAnything() || r.segmentsPreserved() > 0) {
                LOG.log(Level.INFO, "retention enforced [dir={0}, retention={1}, cutoff={2}, shards={3}, segments={4}, preserved={5}, "
                        + "bytes={6}]", dir, retention, cutoff, r.shardsDropped(), r.segmentsDeleted(), r.segmentsPreserved(), r.bytesFreed());
            }
            return r;
        } finally {
            lock.unlock();
        }
    }

    /** Removes these segments (those still live); shards left without segment or memtable data count as dropped. */
    RetentionResult dropSegments(List<SegmentEntry> segments) {
        lock.lock();
        try {
            Set<Long> touched = new HashSet<>();
            segments.forEach(e -> touched.add(e.shard()));
            RetentionResult removed = removeHeld(segments);
            Set<Long> remaining = new HashSet<>();
            metadata.all().forEach(e -> remaining.add(e.shard()));
            remaining.addAll(engine.memtableShards());
            int shards = 0;
            for (long s : touched) {
                shards += remaining.contains(s) ? 0 : 1;
            }
            return new RetentionResult(removed.segmentsDeleted() == 0 ? 0 : shards, removed.segmentsDeleted(), 0,
                    removed.rowsDeleted(), removed.bytesFreed());
        } finally {
            lock.unlock();
        }
    }

    /** Catalog first, metadata cache second, files third; then tombstone collection and the live series. */
    private RetentionResult removeHeld(List<SegmentEntry> segments) {
        Set<String> live = new HashSet<>();
        catalog.segments().forEach(e -> live.add(e.file()));
        List<SegmentEntry> going = segments.stream().filter(e -> live.contains(e.file())).toList();
        if (going.isEmpty()) {
            return RetentionResult.NOTHING;
        }
        Set<String> files = new HashSet<>();
        long rows = 0;
        long bytes = 0;
        for (SegmentEntry e : going) {
            files.add(e.file());
            rows += e.rowCount();
            bytes += e.sizeBytes();
        }
        catalog.removeSegments(files);
        metadata.remove(files);
        // a last value may have been a point of a dropped segment: let those series' next read scan
        going.stream().map(SegmentEntry::measurement).distinct()
                .forEach(m -> java.util.Arrays.stream(series.seriesOf(m)).forEach(s -> LastValues.evict(s.lastValue())));
        engine.hook("segments-unlisted");
        try {
            engine.retire(files.stream().map(SegmentFile::parse).toList());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "segment files left behind; the next open deletes them [files=" + files + "]", e);
        }
        collectTombstones();
        repairLiveSeries();
        return new RetentionResult(0, going.size(), 0, rows, bytes);
    }

    /** Collects tombstones every segment of which has left the catalog; answers how many. */
    int collectTombstones() {
        Set<Long> liveIds = new HashSet<>();
        catalog.segments().forEach(e -> liveIds.add(e.id()));
        liveIds.addAll(engine.archivedIds()); // archived rows are masked by the same tombstones
        List<Long> ids = tombstones.collectible(liveIds);
        if (!ids.isEmpty()) {
            catalog.dropTombstones(ids);
            tombstones.remove(Set.copyOf(ids));
        }
        return ids.size();
    }

    int gc() {
        lock.lock();
        try {
            return collectTombstones();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The newest row of the series {@code exact} names in {@code e} with the tombstones applied (the
     * last-value reverse scan's path for a segment a tombstone applies to), or empty if none is left.
     */
    Optional<io.chronix.engine.read.LastPoint> newestRow(SegmentEntry e, List<String> fields, List<TagPredicate> exact,
            BufferAllocator allocator) {
        Optional<MeasurementSchema> found = schema.schema(e.measurement());
        if (found.isEmpty()) {
            return Optional.empty();
        }
        MeasurementSchema ms = found.get();
        List<Column> wanted = ms.fields().stream().filter(c -> fields.contains(c.name())).toList();
        io.chronix.engine.read.RowMerger merger = new io.chronix.engine.read.RowMerger(ms, wanted, exact);
        RowMask mask = tombstones.maskFor(e, merger.tagKeys());
        List<String> columns = new ArrayList<>();
        columns.add(Column.TIME);
        for (Column c : ms.tags()) {
            if (e.column(c.name()) != null) {
                columns.add(c.name());
            }
        }
        columns.addAll(fields);
        store.read(SegmentFile.parse(e.file()), columns, Long.MIN_VALUE, Long.MAX_VALUE, exact, allocator,
                root -> merger.addArrow(root, Long.MIN_VALUE, Long.MAX_VALUE, mask));
        List<Column> output = new ArrayList<>();
        output.add(Column.time());
        output.addAll(wanted);
        List<VectorSchemaRoot> batches = merger.finish(output, allocator, Integer.MAX_VALUE);
        try {
            VectorSchemaRoot last = batches.getLast();
            int row = last.getRowCount() - 1;
            if (row < 0) {
                return Optional.empty();
            }
            long ts = ((TimeStampVector) last.getVector(Column.TIME)).get(row);
            Map<String, Object> values = new java.util.LinkedHashMap<>();
            for (Column c : wanted) {
                var v = last.getVector(c.name());
                if (!v.isNull(row)) {
                    Object o = v.getObject(row);
                    values.put(c.name(), o instanceof org.apache.arrow.vector.util.Text t ? t.toString() : o);
                }
            }
            return Optional.of(new io.chronix.engine.read.LastPoint(ts, values));
        } finally {
            batches.forEach(VectorSchemaRoot::close);
        }
    }

    // ---------------------------------------------------------------------------------- live series

    /**
     * Re-derives the live series from the memtables (first: data only moves memtable → segment) and
     * the segments' series tables (their sidecars; a segment a tombstone applies to is read, with
     * the tombstones applied, so a series only deleted rows remain of counts as gone). Registers
     * live series the registry did not know (after a restart it knows only what the WAL replayed)
     * and releases, with their last values, those no longer held.
     *
     * @return the live series count
     */
    long repairLiveSeries() {
        Set<List<String>> live = new HashSet<>();
        for (SeriesRef s : allSeries()) {
            if (engine.inMemtables(s)) {
                live.add(key(s));
            }
        }
        Path segmentsDir = dir.resolve(DataDirectory.SEGMENTS);
        Path tmpDir = dir.resolve(DataDirectory.TMP);
        try (BufferAllocator allocator = new RootAllocator()) {
            for (SegmentEntry e : metadata.all()) {
                SegmentFile file = SegmentFile.parse(e.file());
                SeriesIndex index = null;
                if (!tombstones.touches(e)) {
                    try {
                        index = SeriesSidecar.loadOrRebuild(io, segmentsDir, tmpDir, file);
                    } catch (RuntimeException ex) {
                        LOG.log(Level.DEBUG, "series table unavailable; reading the segment's tags [file=" + e.file() + "]");
                    }
                }
                if (index != null) {
                    for (SeriesIndex.Key k : index.series()) {
                        live.add(key(e.measurement(), index.tagNames(), k.tagValues()));
                    }
                } else {
                    readLiveSeries(e, file, allocator, live::add);
                }
            }
        }
        for (SeriesRef s : allSeries()) {
            if (!live.remove(key(s)) && s.isLive()) {
                series.markDead(s);
                LastValues.evict(s.lastValue());
            }
        }
        for (List<String> k : live) { // held but not registered
            int tags = (k.size() - 1) / 2;
            String[] keys = new String[tags];
            String[] values = new String[tags];
            for (int i = 0; i < tags; i++) {
                keys[i] = k.get(1 + 2 * i);
                values[i] = k.get(2 + 2 * i);
            }
            series.resolve(k.getFirst(), keys, values);
        }
        return series.liveSize();
    }

    private List<SeriesRef> allSeries() {
        List<SeriesRef> out = new ArrayList<>();
        for (String m : series.measurements()) {
            out.addAll(java.util.Arrays.asList(series.seriesOf(m)));
        }
        return out;
    }

    /** The series with a row left in {@code e} after its tombstones, from its time and tag columns. */
    private void readLiveSeries(SegmentEntry e, SegmentFile file, BufferAllocator allocator, Consumer<List<String>> sink) {
        List<String> tagNames = new ArrayList<>();
        for (var c : e.columns()) {
            if (c.kind() == Column.Kind.TAG) {
                tagNames.add(c.name());
            }
        }
        String[] names = tagNames.toArray(String[]::new);
        RowMask mask = tombstones.maskFor(e, names);
        List<String> columns = new ArrayList<>();
        columns.add(Column.TIME);
        columns.addAll(tagNames);
        store.read(file, columns, Long.MIN_VALUE, Long.MAX_VALUE, List.of(), allocator, root -> {
            TimeStampVector time = (TimeStampVector) root.getVector(Column.TIME);
            for (int r = 0; r < root.getRowCount(); r++) {
                String[] tuple = tuple(root, names, r);
                long[] deleted = mask.deletedRanges(tuple);
                if (deleted == null || !RowMask.covered(deleted, time.get(r))) {
                    sink.accept(key(e.measurement(), tagNames, java.util.Arrays.asList(tuple)));
                }
            }
        });
    }

    private static String[] tuple(VectorSchemaRoot root, String[] names, int row) {
        String[] t = new String[names.length];
        for (int i = 0; i < names.length; i++) {
            VarCharVector v = (VarCharVector) root.getVector(names[i]);
            t[i] = v == null || v.isNull(row) ? null : new String(v.get(row), StandardCharsets.UTF_8);
        }
        return t;
    }

    /** {@code [measurement, k1, v1, k2, v2, …]}, tags sorted by key, absent ones left out. */
    private static List<String> key(String measurement, List<String> tagNames, List<String> values) {
        TreeMap<String, String> sorted = new TreeMap<>();
        for (int i = 0; i < tagNames.size(); i++) {
            if (values.get(i) != null) {
                sorted.put(tagNames.get(i), values.get(i));
            }
        }
        List<String> k = new ArrayList<>(1 + 2 * sorted.size());
        k.add(measurement);
        sorted.forEach((a, b) -> {
            k.add(a);
            k.add(b);
        });
        return k;
    }

    private static List<String> key(SeriesRef s) {
        List<String> k = new ArrayList<>(1 + 2 * s.tagCount());
        k.add(s.measurement());
        for (int i = 0; i < s.tagCount(); i++) {
            k.add(s.tagKey(i));
            k.add(s.tagValue(i));
        }
        return k;
    }
}
