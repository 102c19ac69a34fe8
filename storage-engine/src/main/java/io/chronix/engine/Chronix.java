package io.chronix.engine;

import io.chronix.engine.archive.ArchiveReport;
import io.chronix.engine.archive.Archiver;
import io.chronix.engine.archive.ColdIndex;
import io.chronix.engine.archive.ColdTier;
import io.chronix.engine.cache.BlockCache;
import io.chronix.engine.catalog.ArchivedSegment;
import io.chronix.engine.catalog.Catalog;
import io.chronix.engine.catalog.CatalogFormat;
import io.chronix.engine.catalog.SegmentEntry;
import io.chronix.engine.catalog.TombstoneEntry;
import io.chronix.engine.codec.EncodeBuffer;
import io.chronix.engine.codec.EncodeBufferPool;
import io.chronix.engine.codec.WalCodec;
import io.chronix.engine.codec.WalEntry;
import io.chronix.engine.compaction.Backpressure;
import io.chronix.engine.compaction.CompactionPicker;
import io.chronix.engine.compaction.CompactionResult;
import io.chronix.engine.compaction.DeletedRows;
import io.chronix.engine.compaction.SegmentMerge;
import io.chronix.engine.compaction.SegmentReclaimer;
import io.chronix.engine.error.CompactionFailedException;
import io.chronix.engine.error.EngineClosedException;
import io.chronix.engine.error.FlushFailedException;
import io.chronix.engine.error.SeriesLimitExceededException;
import io.chronix.engine.error.StorageIoException;
import io.chronix.engine.error.UnsupportedWalRecordException;
import io.chronix.engine.io.DirectoryLock;
import io.chronix.engine.io.FileIO;
import io.chronix.engine.lifecycle.DeleteBuilder;
import io.chronix.engine.lifecycle.DeleteRequest;
import io.chronix.engine.lifecycle.DeleteResult;
import io.chronix.engine.lifecycle.DiskBudget;
import io.chronix.engine.lifecycle.RetentionResult;
import io.chronix.engine.lifecycle.RollupRetentionHold;
import io.chronix.engine.lifecycle.Tombstones;
import io.chronix.engine.maintenance.MaintenanceScheduler;
import io.chronix.engine.memtable.FlushController;
import io.chronix.engine.memtable.LastValue;
import io.chronix.engine.memtable.LastValues;
import io.chronix.engine.memtable.Memtable;
import io.chronix.engine.memtable.SeriesRef;
import io.chronix.engine.memtable.SeriesRegistry;
import io.chronix.engine.model.PointBatch;
import io.chronix.engine.read.AggregateRequest;
import io.chronix.engine.read.AggregateResult;
import io.chronix.engine.read.BatchSink;
import io.chronix.engine.read.LastPoint;
import io.chronix.engine.read.RowCount;
import io.chronix.engine.read.RowMask;
import io.chronix.engine.read.RowMerger;
import io.chronix.engine.read.ScanHelpers;
import io.chronix.engine.read.ScanOutput;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.read.ScanResult;
import io.chronix.engine.read.ScanStatistics;
import io.chronix.engine.read.SegmentPassThrough;
import io.chronix.engine.read.SeriesLastPoint;
import io.chronix.engine.read.StreamedScan;
import io.chronix.engine.read.TagPredicate;
import io.chronix.engine.rollup.MaterialiseReport;
import io.chronix.engine.rollup.RollupConfig;
import io.chronix.engine.rollup.RollupInfo;
import io.chronix.engine.rollup.Rollups;
import io.chronix.engine.schema.Column;
import io.chronix.engine.schema.MeasurementSchema;
import io.chronix.engine.schema.SchemaRegistry;
import io.chronix.engine.segment.SegmentColumns;
import io.chronix.engine.segment.SegmentFile;
import io.chronix.engine.shard.ShardRouter;
import io.chronix.engine.shard.ShardWindow;
import io.chronix.engine.store.MetadataCache;
import io.chronix.engine.store.SegmentStatistics;
import io.chronix.engine.store.SegmentStore;
import io.chronix.engine.wal.FsyncPolicy;
import io.chronix.engine.wal.WalConfig;
import io.chronix.engine.wal.WalMetrics;
import io.chronix.engine.wal.WalRecord;
import io.chronix.engine.wal.WalRecordType;
import io.chronix.engine.wal.WalWriter;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;

/**
 * The embedded engine of one namespace directory. See the module README, "Engine API".
 *
 * <h2>Ownership</h2>
 * {@code Chronix} → {@link ShardRouter} → per shard a {@link FlushController} (active and frozen
 * {@link Memtable}) ; {@link MetadataCache} → segments through a {@link SegmentStore}; {@link
 * Catalog}; {@link WalWriter}; {@link SchemaRegistry}; {@link SeriesRegistry} (whose series carry
 * the last-value cache). Recovery is {@link #open}'s job, in the order described there. Deletes,
 * retention and the repairs after them are {@link EngineLifecycle}'s, over the same components.
 *
 * <h2>Write path</h2>
 * {@link #write}: validate the whole batch (schema, shard window) → under the write gate (shared)
 * register new fields and log them (WAL {@code Schema}; under the schema-log lock, so that no
 * record reaches the WAL before the declarations it needs, see {@link #commitAndLogSchema}), append
 * the batch to the WAL and wait for it to be durable (group commit) → insert into the shard
 * memtables → update the last-value cache → return. A batch refused by validation leaves no trace.
 *
 * <h2>Write gate</h2>
 * A read–write lock: writers hold it shared from WAL append to memtable insert; freezing and the
 * WAL-truncation decision hold it exclusively. So when a memtable freezes at WAL sequence S, every
 * record up to S that routes to its shard is in it (or an older memtable) and none after S is —
 * which is what lets a segment's {@code walSequence} mean "replay may skip up to here".
 *
 * <h2>Flush</h2>
 * A shard's active memtable is sealed — frozen and flushed in the background — as soon as its
 * shard is closed (below {@link ShardRouter#openFrom()}: {@code oooToleranceShards} behind the
 * shard of the newest timestamp held, so no write without the backfill option can reach it) or it
 * reaches {@link EngineConfig#flushThresholdBytes()}, whichever comes first; a backfill into a
 * closed shard is sealed again right after its write. The write path only looks at the shards it
 * wrote to and at whether it moved the newest timestamp into a later shard, and then requests the
 * flush task; the flush finds the due shards. Runs on the shared {@link MaintenanceScheduler} (or
 * in {@link #flush()}), one at a time per engine: freeze → per shard, write one segment per
 * measurement (split by the target size), then record all of the shard's segments in one catalog
 * record → drop the frozen memtable → once every shard succeeded, persist schema declarations to
 * the catalog and truncate the WAL below the oldest sequence still only in memory. A failed shard keeps its frozen memtable and the WAL; the
 * flush is retried with back-off.
 *
 * <h2>Compaction</h2>
 * {@link #compact()} and the maintenance pass (every {@link EngineConfig#maintenanceInterval()}, and
 * at once when a flush brings a group to the trigger or leaves a closed shard with more than one
 * segment of a measurement): per (shard, measurement) group, a streaming merge ({@link
 * SegmentMerge}) → one {@code REPLACE_SEGMENTS} catalog record → metadata cache swapped → inputs
 * deleted once no scan may read them ({@link SegmentReclaimer}). Writes sleep first when the L0 count passes 4 × the trigger
 * ({@link Backpressure}). See the module README, "Compaction".
 *
 * <p>Threading: every public method is thread-safe.
 */
public final class Chronix implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(Chronix.class.getName());
    private static final int SCAN_BATCH_ROWS = 64 * 1024;
    /** Up to this many series in a measurement, a scan's tag selectivity is counted to size it ({@link #estimatedRows}). */
    private static final int SELECTIVITY_MAX_SERIES = 20_000;
    /** About this many of them are counted, evenly spaced. */
    private static final int SELECTIVITY_SAMPLE = 64;

    private final Path dir;
    private final EngineConfig config;
    private final FileIO io;
    private final DirectoryLock lock;
    private final Catalog catalog;
    private final SegmentStore store;
    private final SchemaRegistry schema = new SchemaRegistry();
    private final SeriesRegistry series = new SeriesRegistry();
    private final MetadataCache metadata = new MetadataCache();
    private final ColdIndex cold = new ColdIndex();
    private final ColdTier coldTier; // null: no cold tier attached
    private final Archiver archiver;
    private final Tombstones tombstones = new Tombstones();
    private final EngineLifecycle lifecycle;
    private volatile RollupRetentionHold rollupHold = RollupRetentionHold.NONE;
    private final Rollups rollups;
    private volatile Duration retention;
    private final ShardRouter router;
    private final WalMetrics walMetrics = new WalMetrics();
    private final WalWriter wal;
    private final MaintenanceScheduler.Task flushTask;
    private final LastPointReader lastPoints;
    /** The tag columns of the last {@link #scanLatest} answer, for the next one over the same series. */
    private final TagImages tagImages = new TagImages();
    private final Aggregator aggregator;
    /** New series that limited writes in flight may add (see {@link #write(PointBatch, long)}). */
    private final java.util.concurrent.atomic.AtomicLong seriesReserved = new java.util.concurrent.atomic.AtomicLong();
    private final ReentrantReadWriteLock gate = new ReentrantReadWriteLock();
    private final ReentrantLock flushLock = new ReentrantLock();
    /**
     * Held from a schema commit through the append of its {@code Schema} record, and taken by any
     * writer that finds a committed field unlogged (see {@link #commitAndLogSchema}). Inside the
     * write gate's read lock, outside the WAL's.
     */
    private final ReentrantLock schemaLog = new ReentrantLock();
    /** Held by a compaction (explicit or a maintenance pass) from picking its groups to deleting its inputs. */
    private final ReentrantLock compactionLock = new ReentrantLock();
    private final MaintenanceScheduler.Task maintenanceTask;
    private final ScheduledFuture<?> maintenanceTimer;
    private final Backpressure backpressure;
    private final SegmentReclaimer reclaimer;
    /** Set by close: a running merge abandons its output at the next part. */
    private volatile boolean stopping;
    /** Rows compaction drops; the deletes work points this at the tombstones. */
    private volatile DeletedRows deletedRows = DeletedRows.NONE;
    // lent per write, not per thread: a service writes from a new virtual thread per request
    private final EncodeBufferPool encodeBuffers = new EncodeBufferPool(64 * 1024, 8, 16 << 20);
    private volatile boolean closed;
    private volatile Consumer<String> testHook = point -> { };
    private volatile RuntimeException lastFlushFailure;
    private volatile int flushFailuresInARow;
    /** {@link ShardRouter#openFrom()} when the background flush last looked for closed shards to compact; flush thread only. */
    private long compactionCheckedOpenFrom = Long.MIN_VALUE;

    /** Points of the open's replay, for tests and the log. */
    private long replayedPoints;
    private long skippedPoints;

    private Chronix(Path dir, EngineConfig config, MaintenanceScheduler scheduler, ColdTier coldTier) {
        this.dir = dir;
        this.config = config;
        this.coldTier = coldTier;
        this.io = config.io();
        try {
            io.createDirectories(dir);
        } catch (IOException e) {
            throw new StorageIoException("create namespace directory", dir, -1, e);
        }
        this.lock = DirectoryLock.acquire(dir);
        Catalog cat = null;
        WalWriter w = null;
        try {
            DataDirectory.checkVersion(io, dir);
            DataDirectory.emptyTmp(io, dir);
            cat = Catalog.open(io, dir);
            if (cat.settings() == null) {
                cat.writeSettings(new CatalogFormat.Settings(config.shardDuration().toNanos()));
            }
            this.catalog = cat;
            long shardNanos = cat.settings().shardDurationNanos();
            if (shardNanos != config.shardDuration().toNanos()) {
                LOG.log(Level.INFO, "namespace keeps its recorded shard duration: dir={0} recorded={1} configured={2}", dir,
                        Duration.ofNanos(shardNanos), config.shardDuration());
            }
            this.router = new ShardRouter(shardNanos, config.oooToleranceShards(), config.futureTolerance().toNanos());
            this.store = config.segments().create(io, dir.resolve(DataDirectory.SEGMENTS), dir.resolve(DataDirectory.TMP));
            this.reclaimer = new SegmentReclaimer(store::delete);
            this.backpressure = new Backpressure(config.compactionTrigger());
            for (var d : cat.declarations()) {
                if (d.type() == null) {
                    schema.declareTag(d.measurement(), d.column());
                } else {
                    schema.declareField(d.measurement(), d.column(), d.type());
                }
            }
            schema.markPersisted(schema.unpersisted().size());
            List<SegmentEntry> segments = cat.segments();
            metadata.load(segments);
            cold.load(cat.archived());
            tombstones.load(cat.tombstones());
            backpressure.update(CompactionPicker.largestGroup(segments));
            Map<Long, Map<String, Long>> floors = new HashMap<>();
            for (SegmentEntry e : segments) {
                floors.computeIfAbsent(e.shard(), k -> new HashMap<>()).merge(e.measurement(), e.walSequence(), Math::max);
                router.observe(e.maxTime());
            }
            deleteOrphans(segments);
            long seriesStart = System.nanoTime();
            boolean allSeriesKnown = LiveSeries.load(segments, store, series);
            if (!allSeriesKnown) {
                LOG.log(Level.WARNING, "series count may be short: a segment's series could not be read: dir={0}", dir);
            }
            if (!segments.isEmpty()) {
                LOG.log(Level.DEBUG, "series loaded from sidecars: dir={0} segments={1} series={2} ms={3}", dir, segments.size(),
                        series.liveSize(), (System.nanoTime() - seriesStart) / 1_000_000);
            }
            WalConfig walConfig = WalConfig.defaults(dir.resolve(DataDirectory.WAL)).withFsyncPolicy(config.fsyncPolicy())
                    .withFsyncInterval(config.fsyncInterval()).withMaxFileSize(config.walMaxFileSize()).withIo(io);
            ReplayDeclarations declarations = new ReplayDeclarations(io, walConfig.directory(), schema);
            w = WalWriter.open(walConfig, walMetrics, cat.walFloor(), record -> replay(record, WalCodec.decode(record.payload()),
                    floors, declarations));
            this.wal = w;
            if (declarations.appliedEarly() > 0) {
                LOG.log(Level.WARNING, "WAL replay met records ahead of the Schema records they need and applied {0} "
                        + "declarations early (the next flush records them in the catalog): dir={1}", declarations.appliedEarly(), dir);
            }
            if (declarations.declaredFromRecord() > 0) {
                LOG.log(Level.WARNING, "WAL replay met records using fields no Schema record declared and declared {0} "
                        + "from the records'' own types (the next flush records them in the catalog): dir={1}",
                        declarations.declaredFromRecord(), dir);
            }
            if (!allSeriesKnown) {
                // a series of an unreadable segment may have been registered by the replay as new:
                // trust no last-value entry of this open without a scan
                for (String m : series.measurements()) {
                    for (SeriesRef ref : series.seriesOf(m)) {
                        ref.lastValue().markIncomplete();
                    }
                }
            }
            if (config.fsyncPolicy() == FsyncPolicy.PERIODIC) {
                w.startPeriodicSync(scheduler.executor());
            }
        } catch (RuntimeException e) {
            if (w != null) {
                w.close();
            }
            if (cat != null) {
                cat.close();
            }
            lock.close();
            throw e;
        }
        this.archiver = new Archiver(catalog, metadata, store, cold);
        this.lastPoints = new LastPointReader(schema, metadata, store);
        this.aggregator = new Aggregator(store, series);
        this.flushTask = scheduler.task("flush " + dir, this::backgroundFlush);
        // deletes, retention and segment drops take the compaction lock: a merge never runs while
        // tombstones are issued or its inputs dropped, and applies every tombstone issued before it
        this.lifecycle = new EngineLifecycle(new LifecycleAccess(), io, dir, catalog, store, metadata, tombstones, series, schema,
                compactionLock);
        this.deletedRows = tombstones::deletedTimes;
        this.rollups = new Rollups(new ChronixRollupHost(this), new RollupCatalog(catalog), router.shardDuration());
        rollups.load(RollupCatalog.load(catalog));
        this.rollupHold = rollups.hold();
        this.lastPoints.masking(tombstones::touches, lifecycle::newestRow);
        if (tombstones.size() > 0) {
            lifecycle.repairLiveSeries(); // the sidecars read at open still list series tombstones took whole
        }
        this.maintenanceTask = scheduler.task("maintenance " + dir, this::maintenancePass);
        this.maintenanceTimer = config.maintenanceInterval().isZero() ? null
                : scheduler.scheduleWithFixedDelay(maintenanceTask::request, config.maintenanceInterval());
        if (replayedPoints > 0 || skippedPoints > 0) {
            LOG.log(Level.INFO, "WAL replayed: dir={0} points={1} skippedAsInSegments={2}", dir, replayedPoints, skippedPoints);
        }
        if (anySealDue()) { // a replay of closed shards, or of one over the threshold
            flushTask.request();
        }
    }

    /**
     * Opens the namespace in {@code dir}, creating it if new.
     *
     * <p>Recovery, in order: take {@code LOCK}; check {@code VERSION}; empty {@code tmp/}; replay
     * the catalog (segments, schema, settings — no segment file is opened); delete segment files
     * the catalog does not know (a flush that crashed before its catalog record); replay the WAL,
     * skipping each point that a sealed segment of its shard and measurement already holds.
     *
     * @param scheduler the process's shared maintenance scheduler; the engine submits work to it
     *     and owns no thread
     * @throws io.chronix.engine.error.DirectoryLockedException if another engine has the directory
     * @throws io.chronix.engine.error.UnsupportedFormatVersionException naming both versions
     * @throws io.chronix.engine.error.WalReplayException for an intact WAL record replay cannot apply
     *     (a field given another type than its declaration), naming file, offset and sequence
     */
    public static Chronix open(Path dir, EngineConfig config, MaintenanceScheduler scheduler) {
        return new Chronix(dir, config, scheduler, null);
    }

    /**
     * Opens the namespace with a cold tier attached: {@link #archive} moves old segments there and
     * scans read archived segments from it. An engine whose catalog holds archived segments and that
     * was opened without a cold tier fails a scan that reaches them, rather than answer without them.
     */
    public static Chronix open(Path dir, EngineConfig config, MaintenanceScheduler scheduler, ColdTier coldTier) {
        return new Chronix(dir, config, scheduler, java.util.Objects.requireNonNull(coldTier, "coldTier"));
    }

    private void deleteOrphans(List<SegmentEntry> segments) {
        Set<String> known = new HashSet<>();
        for (SegmentEntry e : segments) {
            SegmentFile f = SegmentFile.parse(e.file());
            known.add(f.relativeName());
            known.add(f.shardDirectory() + "/" + f.sidecarFileName());
            known.add(f.shardDirectory() + "/" + f.summaryFileName());
        }
        for (Path shardDir : DataDirectory.shardDirectories(io, dir)) {
            try {
                for (Path p : io.list(shardDir)) {
                    String rel = shardDir.getFileName() + "/" + p.getFileName();
                    if (!known.contains(rel)) {
                        LOG.log(Level.WARNING, "deleting segment file the catalog does not hold: {0}", p);
                        io.delete(p);
                    }
                }
            } catch (IOException e) {
                throw new StorageIoException("delete orphan segments", shardDir, -1, e);
            }
        }
    }

    private void replay(WalRecord record, WalEntry entry, Map<Long, Map<String, Long>> floors, ReplayDeclarations declarations) {
        switch (entry) {
            case WalEntry.Schema s -> declarations.declare(s, record);
            case WalEntry.Points p -> {
                declarations.require(p.points(), record); // every field declared, or a typed failure naming the record
                schema.declareTags(p.points());
                insert(p.points(), record.sequence(), floors);
            }
            // a delete flushes first and records its tombstones in the catalog only: every point it covers
            // is then below the WAL floor, so a WAL tombstone has nothing to say this engine would write
            case WalEntry.Tombstone t -> throw new UnsupportedWalRecordException("Tombstone", record.sequence(),
                    "deletes are recorded in the catalog, never in the WAL");
        }
    }

    // ------------------------------------------------------------------------------------ writes

    /**
     * Writes {@code batch} and returns once it is durable under the configured fsync policy.
     *
     * @return the batch's WAL sequence
     * @throws io.chronix.engine.error.FieldTypeConflictException naming measurement, field, stored
     *     and offered type; nothing of the batch is written
     * @throws io.chronix.engine.error.ColumnConflictException for a tag and a field of one name, or a column named {@code time}
     * @throws io.chronix.engine.error.ShardOutOfRangeException naming the accepted window; nothing is written
     * @throws io.chronix.engine.error.WalPoisonedException if the WAL cannot make it durable
     */
    public long write(PointBatch batch) {
        return writeChecked(batch, false, null, true);
    }

    /**
     * Writes {@code batch} as {@code options} say: with {@link WriteOptions#backfill()} any
     * timestamp from the retention cutoff ({@link #retentionCutoff}) of the options' retention — or
     * of the engine's ({@link #retention(Duration)}); without either, any age — up to the clock
     * plus the future tolerance is accepted and lands in its own shard; with a series limit as
     * {@link #write(PointBatch, long)}. Either way a point below the watermark of a rollup reading
     * its measurement invalidates that rollup's bucket, durably, before the batch is written.
     *
     * @throws io.chronix.engine.error.ShardOutOfRangeException naming the accepted window (for a
     *     backfill: from the retention cutoff); nothing is written
     */
    public long write(PointBatch batch, WriteOptions options) {
        if (options.maxSeries() != Long.MAX_VALUE) {
            return limited(batch, options.maxSeries(), () -> writeChecked(batch, options.backfill(), options.retention(), true));
        }
        return writeChecked(batch, options.backfill(), options.retention(), true);
    }

    private static final Duration NO_RETENTION_BOUND = Duration.ofNanos(-1);

    /**
     * A rollup's points: the backfill path with no retention bound (a repair may rewrite any bucket
     * its source still holds), not waiting for the fsync — the pass syncs the WAL once ({@link
     * #syncWal}) before it persists the watermark that claims them.
     */
    long writeRollupPoints(PointBatch batch) {
        if (stopping) {
            throw new EngineClosedException(dir);
        }
        return writeChecked(batch, true, NO_RETENTION_BOUND, false);
    }

    /**
     * @param retention for a backfill: its bound ({@code null}: the engine's; negative: none)
     * @param acknowledge return only once durable under the fsync policy (else once in the kernel)
     */
    private long writeChecked(PointBatch batch, boolean backfill, Duration retention, boolean acknowledge) {
        if (batch.size() == 0) {
            throw new IllegalArgumentException("empty batch");
        }
        ensureOpen();
        SchemaRegistry.Plan plan = schema.validate(batch);
        ShardWindow window = router.window(nowNanos());
        if (backfill) {
            Duration r = retention != null ? retention : this.retention;
            long from = r == null || r.isNegative() ? Long.MIN_VALUE : lifecycle.cutoff(r);
            window = new ShardWindow(from, window.to());
        }
        for (int p = 0; p < batch.size(); p++) {
            router.check(batch.timestamp(p), window);
        }
        backpressure.pause(); // outside the gate: a delayed writer holds nothing up
        java.util.concurrent.locks.Lock rollupGate = rollups.beforeWrite(batch); // late points invalidate, durably, first
        long seq;
        boolean flushDue;
        gate.readLock().lock();
        try {
            ensureOpen();
            EncodeBuffer buf = encodeBuffers.borrow();
            try {
                commitAndLogSchema(plan, buf);
                WalCodec.encodePoints(batch, buf);
                WalRecordType type = batch.size() == 1 ? WalRecordType.DATA : WalRecordType.BATCH;
                seq = acknowledge ? wal.appendDurable(type, buf.view()) : wal.append(type, buf.view());
            } finally {
                encodeBuffers.giveBack(buf); // the append has returned: the WAL holds no reference to its bytes
            }
            flushDue = insert(batch, seq, null);
        } finally {
            gate.readLock().unlock();
            if (rollupGate != null) {
                rollupGate.unlock();
            }
        }
        if (flushDue) {
            flushTask.request();
        }
        return seq;
    }

    /**
     * Commits what {@code plan} adds to the schema and sees to it that every field declaration the
     * batch may rely on is in the WAL before the batch's own record: the WAL's order must carry
     * every dependency, because replay reads it front to back.
     *
     * <p>Another writer's field is visible from the moment it commits, but its {@code Schema} record
     * is appended a little later; a batch that saw the field (in {@link SchemaRegistry#validate},
     * with an empty plan) and got its record in first would precede the declaration it needs. So
     * commits and their {@code Schema} appends happen under {@link #schemaLog}, and a writer goes
     * through that lock whenever a committed field is still unlogged: it then waits until the
     * committing writer has appended the record, or appends it itself if that append failed. The
     * registry raises its unlogged count before it publishes a field, so a writer that saw the
     * field and then reads the count as zero knows the record is in.
     *
     * <p>Cost: a write that adds no field and finds nothing unlogged — every write but a
     * measurement's or field's first — pays one volatile read ({@link SchemaRegistry#hasUnlogged})
     * and takes no lock. Only first writes (and writes that meet one in flight) serialise here, and
     * only for the {@code Schema} append itself, which waits for no group commit: the batch's own
     * durable append makes every record before it durable too.
     */
    private void commitAndLogSchema(SchemaRegistry.Plan plan, EncodeBuffer buf) {
        if (plan.isEmpty() && !schema.hasUnlogged()) {
            return;
        }
        schemaLog.lock();
        try {
            schema.commit(plan);
            appendUnloggedSchema(buf);
        } finally {
            schemaLog.unlock();
        }
    }

    /** Appends one {@code Schema} record holding every unlogged field, if there is one; under {@link #schemaLog}. */
    private void appendUnloggedSchema(EncodeBuffer buf) {
        assert schemaLog.isHeldByCurrentThread() : "unlogged fields are appended under the schema-log lock";
        List<WalEntry.FieldDeclaration> pending = schema.unlogged();
        if (!pending.isEmpty()) {
            // a failure leaves them unlogged: the next writer through here appends them before its batch
            wal.append(WalRecordType.SCHEMA, WalCodec.encode(new WalEntry.Schema(pending), buf).view());
            schema.markLogged(pending.size());
        }
    }

    /**
     * Routes and inserts a batch; with {@code floors} (replay) skips points a segment already holds.
     * Under the write gate (shared), or in the open's replay.
     *
     * @return whether a flush is due because of this batch (see {@link #sealDue}): a shard it wrote
     *     to reached the flush threshold or is closed (a backfill), or it moved the newest timestamp
     *     into a later shard and so closed the shards that fell out of the window. Only the batch's
     *     own shards are looked at: a write never scans the others
     */
    private boolean insert(PointBatch batch, long seq, Map<Long, Map<String, Long>> floors) {
        int n = batch.size();
        SeriesRef[] refs = new SeriesRef[n];
        int[] ordinalStart = new int[n];
        int[] ordinals = new int[batch.totalFields()];
        long[] shards = new long[n];
        boolean oneShard = true;
        int f0 = 0;
        long newest = Long.MIN_VALUE;
        FieldOrdinals fieldOrdinals = new FieldOrdinals(batch);
        series.resolveAll(batch, refs);
        for (int p = 0; p < n; p++) {
            ordinalStart[p] = f0;
            for (int f = 0; f < batch.fieldCount(p); f++) {
                ordinals[f0++] = fieldOrdinals.of(p, f);
            }
            long t = batch.timestamp(p);
            shards[p] = router.shardOf(t);
            oneShard &= shards[p] == shards[0];
            newest = Math.max(newest, t);
        }
        int[] idx = new int[n];
        int count = 0;
        FlushController written = null; // the one shard written to, else writtenTo the shards
        List<FlushController> writtenTo = List.of();
        if (oneShard && floors == null) {
            for (int p = 0; p < n; p++) {
                idx[p] = p;
            }
            FlushController c = router.controller(shards[0]);
            c.active().insertBatch(batch, idx, 0, n, refs, ordinals, ordinalStart, seq);
            written = c;
            count = n;
        } else {
            // group by shard: a handful of shards per batch at most
            TreeMap<Long, List<Integer>> groups = new TreeMap<>();
            writtenTo = new ArrayList<>(4);
            for (int p = 0; p < n; p++) {
                if (floors != null) {
                    Map<String, Long> f = floors.get(shards[p]);
                    Long floor = f == null ? null : f.get(batch.measurement(p));
                    if (floor != null && seq <= floor) {
                        skippedPoints++;
                        continue;
                    }
                }
                groups.computeIfAbsent(shards[p], k -> new ArrayList<>()).add(p);
            }
            for (Map.Entry<Long, List<Integer>> g : groups.entrySet()) {
                int from = count;
                for (int p : g.getValue()) {
                    idx[count++] = p;
                }
                FlushController c = router.controller(g.getKey());
                c.active().insertBatch(batch, idx, from, count, refs, ordinals, ordinalStart, seq);
                writtenTo.add(c);
            }
            if (floors != null) {
                replayedPoints += count;
            }
        }
        for (int i = 0; i < count; i++) {
            int p = idx[i];
            LastValueAccess.offer(refs[p].lastValue(), batch.timestamp(p), batch, p, ordinals, ordinalStart[p]);
        }
        if (count == 0) {
            return false;
        }
        boolean due = router.observe(newest);
        long openFrom = router.openFrom();
        if (written != null) {
            due |= sealDue(written, openFrom);
        }
        for (FlushController c : writtenTo) {
            due |= sealDue(c, openFrom);
        }
        return due;
    }

    /**
     * The flush rule, time and size, whichever comes first: a shard's active memtable is sealed
     * (frozen and flushed in the background) once its shard is closed — below {@code openFrom}, the
     * oldest shard a write without the backfill option still accepts — or once it reaches the
     * flush threshold.
     */
    private boolean sealDue(FlushController c, long openFrom) {
        return c.shard() < openFrom || c.active().estimatedBytes() >= config.flushThresholdBytes();
    }

    /**
     * The schema's ordinal of each point's fields, looked up once per (measurement, field name) of
     * the batch instead of once per value: a 5,000-point batch of one measurement and ten fields
     * does ten lookups, not 50,000. Keyed by the batch's dictionary ids; kept for the first
     * {@link #MAX_MEASUREMENTS} measurements of the batch, the rest are looked up each time.
     */
    private final class FieldOrdinals {
        private static final int MAX_MEASUREMENTS = 8;
        private final PointBatch batch;
        private final int[] measurementIds = new int[MAX_MEASUREMENTS];
        private final int[][] byName = new int[MAX_MEASUREMENTS][]; // [measurement slot][name id] → ordinal + 1
        private int measurements;

        FieldOrdinals(PointBatch batch) {
            this.batch = batch;
        }

        int of(int point, int field) {
            int m = batch.measurementId(point);
            int slot = 0;
            while (slot < measurements && measurementIds[slot] != m) {
                slot++;
            }
            if (slot == measurements) {
                if (measurements == MAX_MEASUREMENTS) {
                    return lookup(point, field);
                }
                measurementIds[slot] = m;
                byName[slot] = new int[batch.stringCount()];
                measurements++;
            }
            int name = batch.fieldNameId(point, field);
            int o = byName[slot][name];
            if (o == 0) {
                o = lookup(point, field) + 1;
                byName[slot][name] = o;
            }
            return o - 1;
        }

        private int lookup(int point, int field) {
            // every field is declared: by the write's commit, or at replay by ReplayDeclarations.require
            return schema.field(batch.measurement(point), batch.fieldName(point, field)).ordinal();
        }
    }

    /** Whether any shard's active memtable is due to be sealed ({@link #sealDue}); scans every shard (the open's check). */
    private boolean anySealDue() {
        long openFrom = router.openFrom();
        for (FlushController c : router.shards()) {
            if (!c.active().isEmpty() && sealDue(c, openFrom)) {
                return true;
            }
        }
        return false;
    }

    private long nowNanos() {
        Instant now = config.clock().instant();
        try {
            return Math.addExact(Math.multiplyExact(now.getEpochSecond(), 1_000_000_000L), now.getNano());
        } catch (ArithmeticException e) {
            return now.getEpochSecond() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    // ------------------------------------------------------------------------------------ reads

    /** Measurement names, sorted. */
    public List<String> measurements() {
        ensureOpen();
        rollups.currentShapes(); // a rollup target is a measurement from its definition on
        return schema.measurements();
    }

    /** A measurement's columns in canonical order: {@code time}, tags by name, fields by name. */
    public Optional<MeasurementSchema> schema(String measurement) {
        ensureOpen();
        rollups.currentShape(measurement);
        return schema.schema(measurement);
    }

    /** The schema as registered, no rollup shape brought up to date (what rollups themselves read). */
    Optional<MeasurementSchema> registeredSchema(String measurement) {
        return schema.schema(measurement);
    }

    /**
     * Reads rows of one measurement: active and frozen memtables merged with segments, last write
     * wins field by field, NULL for absent tags and fields.
     *
     * @param allocator where the result's vectors live; the caller closes the result
     * @throws IllegalArgumentException for a column an existing measurement does not have (an
     *     unknown measurement answers no batch, with a schema of {@code time} only)
     */
    public ScanResult scan(ScanRequest request, BufferAllocator allocator) {
        ensureOpen();
        ScanResult view = rollups.scanView(request, allocator, true);
        return view != null ? view : scan(request, allocator, false, NO_SKIP, true);
    }

    /** The stored rows, ordered as {@link #scan} or not, with no rollup view (what rollups read). */
    ScanResult scanStored(ScanRequest request, BufferAllocator allocator, boolean ordered) {
        return scan(request, allocator, !ordered, NO_SKIP, true);
    }

    private static final Aggregator.SegmentPlanner NO_SKIP = (candidates, memtables) -> Set.of();

    /**
     * {@link #scan} without the order: the same rows (each (series, time) once, last write wins
     * field by field), in batches whose order — across batches, and across series within one — is
     * unspecified. For consumers that reorder anyway, such as SQL. It is much cheaper where the data
     * is settled: a segment whose rows in the range overlap no other segment's and no memtable's in
     * time cannot have them overwritten, so its decoded batches are the answer as they are ({@link
     * SegmentPassThrough}: filtered, projected, moved over without a copy where every row passes, and
     * no column decoded that the answer and the predicates do not need). The other sources — and a
     * segment a tombstone applies to — go through the row merge as in {@link #scan}.
     */
    public ScanResult scanUnordered(ScanRequest request, BufferAllocator allocator) {
        return scanUnordered(request, allocator, null);
    }

    /**
     * {@link #scanUnordered(ScanRequest, BufferAllocator)}, reading settled segments side by side
     * on the calling thread and {@code helpers}' threads ({@code null}: the calling thread alone).
     * The answer is the same; only its batches' order may differ.
     */
    public ScanResult scanUnordered(ScanRequest request, BufferAllocator allocator, ScanHelpers helpers) {
        ensureOpen();
        ScanResult view = rollups.scanView(request, allocator, false);
        return view != null ? view : scan(request, allocator, true, NO_SKIP, true, helpers);
    }

    /**
     * {@link #scanUnordered(ScanRequest, BufferAllocator, ScanHelpers)} handing each batch to
     * {@code sink} as soon as it is read, on the thread that read it, and closing it after: the
     * same rows in the same batches, none kept by the scan. For consumers that fold rows into
     * something small, such as an aggregate: the scan then holds a batch per thread instead of all
     * of them, and a consumer can stop it early.
     *
     * @return what was handed over; {@link StreamedScan#complete()} false when a consumer stopped the scan
     */
    public StreamedScan scanUnordered(ScanRequest request, BufferAllocator allocator, ScanHelpers helpers, BatchSink sink) {
        ensureOpen();
        ScanOutput.Streamed out = ScanOutput.streaming(sink);
        ScanResult view = rollups.scanView(request, allocator, false);
        if (view != null) {
            try (view) {
                return out.feed(view);
            }
        }
        Scanned s = scan(request, allocator, true, NO_SKIP, true, helpers, out);
        return out.summary(s.settledSegments(), s.statistics());
    }

    /**
     * How many rows {@link #scanUnordered} answers for {@code request} (its columns do not matter),
     * without decoding what need not be: a segment that lies wholly inside the range, that no
     * other source overlaps in time (no other segment, memtable or archived segment — so nothing
     * can overwrite a row of it) and that no tombstone touches contributes its row count from the
     * catalog; everything else is scanned as {@link #scanUnordered} scans it, {@code time} only.
     * With tag predicates every segment is scanned (its series table could answer; not done yet).
     */
    public long countRows(ScanRequest request, BufferAllocator allocator) {
        return count(request, allocator).rows();
    }

    /**
     * {@link #countRows}, with what counting read: a segment whose count came from the catalog
     * counts as not read ({@link ScanStatistics}).
     */
    public RowCount count(ScanRequest request, BufferAllocator allocator) {
        ensureOpen();
        long from = request.from();
        long to = request.to();
        ScanRequest timeOnly = new ScanRequest(request.measurement(), List.of(Column.TIME), from, to, request.tags());
        // a rollup target counts its view (stored buckets plus those computed from the source),
        // which no catalog row count knows
        ScanResult view = rollups.scanView(timeOnly, allocator, false);
        if (view != null) {
            try (view) {
                return new RowCount(view.rowCount(), view.statistics());
            }
        }
        long[] counted = {0};
        Aggregator.SegmentPlanner planner = new Aggregator.SegmentPlanner() {
            @Override
            public Set<String> skip(List<SegmentEntry> candidates, List<Memtable> memtables) {
                return Set.of(); // never called by the scan; skipping nothing is always right
            }

            @Override
            public Set<String> skip(List<SegmentEntry> candidates, List<Memtable> memtables, List<ArchivedSegment> archived) {
                if (!request.tags().isEmpty()) {
                    return Set.of();
                }
                Set<String> skip = new HashSet<>();
                // the scan calls this only when no tombstone touches any candidate
                for (SegmentEntry e : settledSegments(candidates, memtables, List.of(), archived, from, to)) {
                    if (e.minTime() >= from && e.maxTime() <= to) {
                        counted[0] += e.rowCount();
                        skip.add(e.file());
                    }
                }
                return skip;
            }
        };
        try (ScanResult r = scan(timeOnly, allocator, true, planner, true)) {
            return new RowCount(counted[0] + r.rowCount(), r.statistics());
        }
    }

    /** The scan; {@code planner} picks segments to leave out, from the scan's own snapshot (aggregates answered from summaries); without
     * {@code memtables} only what segments hold (a delete's count of stored rows). */
    private ScanResult scan(ScanRequest request, BufferAllocator allocator, boolean anyOrder, Aggregator.SegmentPlanner planner,
            boolean withMemtables) {
        return scan(request, allocator, anyOrder, planner, withMemtables, null);
    }

    private ScanResult scan(ScanRequest request, BufferAllocator allocator, boolean anyOrder, Aggregator.SegmentPlanner planner,
            boolean withMemtables, ScanHelpers helpers) {
        try (ScanOutput.Collected out = ScanOutput.collecting()) {
            Scanned s = scan(request, allocator, anyOrder, planner, withMemtables, helpers, out);
            return new ScanResult(s.schema(), out.batches(), s.settledSegments(), s.statistics());
        }
    }

    /** What a scan answers besides its batches. */
    private record Scanned(org.apache.arrow.vector.types.pojo.Schema schema, int settledSegments, ScanStatistics statistics) {
    }

    /** The scan, its batches put in {@code out}. */
    private Scanned scan(ScanRequest request, BufferAllocator allocator, boolean anyOrder, Aggregator.SegmentPlanner planner,
            boolean withMemtables, ScanHelpers helpers, ScanOutput out) {
        ensureOpen();
        // segments a compaction replaces meanwhile stay on disk until this scan is done with them
        // (helpers included: they finish before the scan returns)
        long ticket = reclaimer.enter();
        try {
            return scanSegmentsAndMemtables(request, allocator, anyOrder, planner, withMemtables, helpers, out);
        } finally {
            reclaimer.exit(ticket);
        }
    }

    private Scanned scanSegmentsAndMemtables(ScanRequest request, BufferAllocator allocator, boolean anyOrder,
            Aggregator.SegmentPlanner planner, boolean withMemtables, ScanHelpers helpers, ScanOutput out) {
        Optional<MeasurementSchema> found = schema.schema(request.measurement());
        if (found.isEmpty()) {
            // nothing written yet (or a measurement being created right now): no rows, whatever the columns
            List<Column> timeOnly = List.of(Column.time());
            return new Scanned(MeasurementSchema.toArrow(timeOnly), 0, ScanStatistics.NONE);
        }
        MeasurementSchema ms = found.get();
        List<Column> output = outputColumns(ms, request);
        List<Column> wantedFields = output.stream().filter(c -> c.kind() == Column.Kind.FIELD).toList();
        RowMerger merger = new RowMerger(ms, wantedFields, request.tags());
        ScanStatistics.Counter stats = new ScanStatistics.Counter();
        countStored(request.measurement(), stats);
        long from = request.from();
        long to = request.to();

        // snapshot order matters: tombstones before segments (Tombstones#snapshot), active before
        // frozen (a freeze moves active to frozen), frozen before segments (a flush publishes
        // segments, then drops frozen)
        Tombstones tombstones = this.tombstones.snapshot();
        List<FlushController> controllers = router.shards();
        List<Memtable> actives = new ArrayList<>();
        List<Memtable> frozens = new ArrayList<>();
        for (FlushController c : withMemtables ? controllers : List.<FlushController>of()) {
            actives.add(c.active());
        }
        for (FlushController c : withMemtables ? controllers : List.<FlushController>of()) {
            Memtable f = c.frozen();
            if (f != null) {
                frozens.add(f);
            }
        }
        List<SegmentEntry> segments = metadata.candidates(request.measurement(), from, to, request.tags());
        List<ArchivedSegment> archived = cold.candidates(request.measurement(), from, to, request.tags());
        List<Memtable> memtables = new ArrayList<>(frozens);
        memtables.addAll(actives);
        // a summary counts rows a tombstone deletes: with one in play, every segment is read
        Set<String> skipped = segments.stream().anyMatch(tombstones::touches) ? Set.of() : planner.skip(segments, memtables, archived);
        if (!skipped.isEmpty()) {
            segments = segments.stream().filter(e -> !skipped.contains(e.file())).toList();
        }
        List<SegmentEntry> settled = anyOrder ? settledSegments(segments, frozens, actives, archived, from, to) : List.of();
        if (!settled.isEmpty() && tombstones.size() > 0) {
            settled = new ArrayList<>(settled);
            settled.removeIf(tombstones::touches); // masked rows need the merge's series runs
        }
        if (!settled.isEmpty()) {
            segments = new ArrayList<>(segments);
            segments.removeAll(settled);
        }

        List<String> segmentColumns = new ArrayList<>();
        segmentColumns.add(Column.TIME);
        for (Column c : ms.tags()) {
            segmentColumns.add(c.name());
        }
        for (Column c : wantedFields) {
            segmentColumns.add(c.name());
        }
        // oldest first across both tiers, so last write wins between a hot and an archived segment too
        int h = 0;
        int a = 0;
        while (h < segments.size() || a < archived.size()) {
            boolean takeCold = a < archived.size() && (h == segments.size() || archived.get(a).segment().id() < segments.get(h).id());
            SegmentEntry e = takeCold ? archived.get(a++).segment() : segments.get(h++);
            List<String> present = new ArrayList<>();
            for (String c : segmentColumns) {
                if (c.equals(Column.TIME) || e.column(c) != null) {
                    present.add(c);
                }
            }
            RowMask mask = tombstones.touches(e) ? tombstones.maskFor(e, merger.tagKeys()) : RowMask.NONE;
            Consumer<VectorSchemaRoot> coldSink = root -> {
                stats.coldBatchRead(root.getRowCount());
                merger.addArrow(root, from, to, mask);
            };
            if (takeCold) {
                stats.segmentOpened(e.file(), 0);
                readCold(archived.get(a - 1), present, from, to, request.tags(), allocator, coldSink);
                continue;
            }
            try {
                SegmentFile file = SegmentFile.parse(e.file());
                stats.segmentOpened(e.file(), store.rowGroupCount(file));
                store.read(file, present, from, to, request.tags(), allocator, root -> {
                    stats.rowGroupRead(root.getRowCount());
                    merger.addArrow(root, from, to, mask);
                });
            } catch (RuntimeException ex) {
                // archived (and its files deleted) between our snapshot and the read: read the archived
                // copy; rows of it the hot read already added are identical and fold into one
                ArchivedSegment moved = cold.bySegmentId(e.id());
                if (moved == null) {
                    throw ex;
                }
                readCold(moved, present, from, to, request.tags(), allocator, coldSink);
            }
        }
        int fieldCount = schema.fieldCount(request.measurement());
        int[] ordinalToField = new int[fieldCount];
        for (int o = 0; o < fieldCount; o++) {
            ordinalToField[o] = merger.fieldIndex(schema.fieldByOrdinal(request.measurement(), o).name());
        }
        SeriesRef[] candidates = series.seriesOf(request.measurement());
        int fromSegments = merger.collected();
        for (List<Memtable> tier : List.of(frozens, actives)) {
            for (Memtable m : tier) {
                if (m.isEmpty() || m.maxTime() < from || m.minTime() > to) {
                    continue;
                }
                for (SeriesRef s : candidates) {
                    if (m.contains(s)) {
                        merger.addMemtable(m, s, from, to, ordinalToField);
                    }
                }
            }
        }
        stats.memtableRows(merger.collected() - fromSegments);
        readSettled(settled, output, request, allocator, helpers, stats, out);
        if (!out.stopped() && (merger.collected() > 0 || settled.isEmpty())) {
            merger.finish(output, allocator, SCAN_BATCH_ROWS, out.open(), settled.size()); // a batch at a time, as built
        }
        return new Scanned(MeasurementSchema.toArrow(output), settled.size(), stats.snapshot());
    }

    /** Counts into {@code stats} what the segments of {@code measurement}, hot and archived, hold as the catalog counts it. */
    private void countStored(String measurement, ScanStatistics.Counter stats) {
        List<SegmentEntry> hot = metadata.segments(measurement);
        int count = hot.size();
        long rows = 0;
        for (SegmentEntry e : hot) {
            rows += e.rowCount();
        }
        for (ArchivedSegment a : cold.all()) { // every scan counts: no candidate list built and sorted
            if (a.segment().measurement().equals(measurement)) {
                count++;
                rows += a.segment().rowCount();
            }
        }
        stats.stored(count, rows);
    }

    /**
     * The rows of the settled segments, through {@link SegmentPassThrough}, into {@code out} as part
     * {@code i} for the {@code i}-th segment. With {@code helpers} the segments are shared out among
     * the calling thread and the helpers' (each with its own pass-through and taker), and each batch
     * goes to the taker of the thread that read it as soon as its row group is decoded. Reading
     * stops at the first failure (rethrown here) or once {@code out} is {@link ScanOutput#stopped}.
     */
    private void readSettled(List<SegmentEntry> settled, List<Column> output, ScanRequest request,
            BufferAllocator allocator, ScanHelpers helpers, ScanStatistics.Counter stats, ScanOutput out) {
        int n = settled.size();
        List<String> projection = SegmentPassThrough.projection(output, request.tags());
        java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicReference<Throwable> failure = new java.util.concurrent.atomic.AtomicReference<>();
        Runnable worker = () -> {
            ScanOutput.Taker taker = out.open();
            try (SegmentPassThrough pass = new SegmentPassThrough(output, request.tags(), request.from(), request.to(), allocator)) {
                for (int i = next.getAndIncrement(); i < n && failure.get() == null && !out.stopped(); i = next.getAndIncrement()) {
                    SegmentEntry e = settled.get(i);
                    List<String> present = new ArrayList<>();
                    for (String c : projection) {
                        if (c.equals(Column.TIME) || e.column(c) != null) {
                            present.add(c);
                        }
                    }
                    int part = i;
                    // nothing can overwrite a settled segment's rows, so the field predicates may drop some
                    SegmentFile file = SegmentFile.parse(e.file());
                    stats.segmentOpened(e.file(), store.rowGroupCount(file));
                    store.read(file, present, request.from(), request.to(), request.tags(), request.fields(), allocator, root -> {
                        if (out.stopped()) {
                            return; // the rest of this segment's row groups are decoded for nothing; rare
                        }
                        stats.rowGroupRead(root.getRowCount());
                        pass.add(root);
                        ScanOutput.takeAll(taker, part, pass.takeBatches()); // a refusal stops the scan (out.stopped())
                    });
                }
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            }
        };
        if (helpers == null || n < 2 || !helpers.worthWaking(estimatedRows(settled, request, helpers.minRows()))) {
            worker.run();
        } else {
            helpers.run(n, worker);
        }
        Throwable t = failure.get();
        if (t instanceof RuntimeException re) {
            throw re;
        }
        if (t instanceof Error err) {
            throw err;
        }
        if (t != null) {
            throw new IllegalStateException(t);
        }
    }

    /**
     * About how many rows reading {@code settled} for {@code request} decodes: each segment's row
     * count times the share of its time span the range covers, times the share of the
     * measurement's series the tag predicates keep (counted over about {@link #SELECTIVITY_SAMPLE}
     * evenly spaced series when there are at most {@link #SELECTIVITY_MAX_SERIES}, else taken as
     * one). It only decides whether helpers are worth waking, so a rough figure is enough; it never
     * changes what is read.
     */
    private long estimatedRows(List<SegmentEntry> settled, ScanRequest request, long enough) {
        double rows = 0;
        for (SegmentEntry e : settled) {
            double span = (double) e.maxTime() - e.minTime() + 1;
            double covered = (double) Math.min(request.to(), e.maxTime()) - Math.max(request.from(), e.minTime()) + 1;
            rows += e.rowCount() * Math.clamp(covered / span, 0.0, 1.0);
        }
        if (!request.tags().isEmpty() && rows >= enough) { // below it the series need no counting
            SeriesRef[] all = series.seriesOf(request.measurement());
            if (all.length > 0 && all.length <= SELECTIVITY_MAX_SERIES) {
                // every step-th series: a share of a sample is as good a guess here, and counting all
                // of a few hundred series was a tenth of a one-series query's CPU
                int step = Math.max(1, all.length / SELECTIVITY_SAMPLE);
                int kept = 0;
                int counted = 0;
                for (int i = 0; i < all.length; i += step) {
                    kept += TagPredicate.allHold(request.tags(), all[i]) ? 1 : 0;
                    counted++;
                }
                rows *= (double) kept / counted;
            }
        }
        return (long) rows;
    }

    /**
     * The candidate segments whose rows in {@code [from, to]} no other source can overwrite: their
     * time range, clipped to the scan's, overlaps no other candidate's, no non-empty memtable's and
     * no archived candidate's.
     */
    private static List<SegmentEntry> settledSegments(List<SegmentEntry> segments, List<Memtable> frozens, List<Memtable> actives,
            List<ArchivedSegment> archived, long from, long to) {
        int n = segments.size();
        if (n == 0) {
            return List.of();
        }
        long[][] busy = new long[n][];
        for (int i = 0; i < n; i++) {
            SegmentEntry e = segments.get(i);
            busy[i] = new long[] {Math.max(from, e.minTime()), Math.min(to, e.maxTime()), i};
        }
        java.util.Arrays.sort(busy, (a, b) -> Long.compare(a[0], b[0]));
        List<long[]> memtables = new ArrayList<>();
        for (List<Memtable> tier : List.of(frozens, actives)) {
            for (Memtable m : tier) {
                if (!m.isEmpty() && m.maxTime() >= from && m.minTime() <= to) {
                    memtables.add(new long[] {Math.max(from, m.minTime()), Math.min(to, m.maxTime())});
                }
            }
        }
        for (ArchivedSegment a : archived) { // archived rows go through the merge: a hot segment they overlap is not settled
            memtables.add(new long[] {Math.max(from, a.segment().minTime()), Math.min(to, a.segment().maxTime())});
        }
        List<SegmentEntry> settled = new ArrayList<>();
        long endBefore = Long.MIN_VALUE; // the furthest end of the intervals sorted before k
        for (int k = 0; k < n; k++) {
            long lo = busy[k][0];
            long hi = busy[k][1];
            // sorted by start: the next interval starts first of all later ones
            boolean alone = (k == 0 || endBefore < lo) && (k == n - 1 || busy[k + 1][0] > hi);
            endBefore = Math.max(endBefore, hi);
            for (long[] m : memtables) {
                alone &= m[1] < lo || m[0] > hi;
            }
            if (alone) {
                settled.add(segments.get((int) busy[k][2]));
            }
        }
        settled.sort(java.util.Comparator.comparingLong(SegmentEntry::minTime));
        return settled;
    }

    /**
     * The newest point of one series — its timestamp and every field it holds there — or empty if
     * the series has none. Answered from the last-value cache with no I/O when its entry is
     * complete (the series was written by this process, or a miss filled it); otherwise by a
     * reverse segment scan — the series' segments newest first, one row group each, stopping at
     * the first that cannot hold anything newer — whose result then fills the cache.
     *
     * @param tags the series' complete tag set
     */
    public Optional<LastPoint> lastValue(String measurement, Map<String, String> tags, BufferAllocator allocator) {
        ensureOpen();
        Optional<MeasurementSchema> found = schema.schema(measurement);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        TreeMap<String, String> sorted = new TreeMap<>(tags);
        SeriesRef ref = series.find(measurement, sorted.keySet().toArray(String[]::new), sorted.values().toArray(String[]::new));
        if (ref == null || !ref.isLive()) {
            return Optional.empty(); // every series held anywhere is registered (at open from the segments' sidecars)
        }
        return lastPoints.of(ref, found.get(), allocator);
    }

    /** The columns a scan answers, canonical order; every column for an empty list. */
    private static List<Column> outputColumns(MeasurementSchema ms, ScanRequest request) {
        return ms.columnsFor(request.columns());
    }

    /**
     * The newest row of every series that passes the request's tag predicates, as one batch of
     * the request's columns (canonical order), leaving out a series whose newest point lies outside
     * {@code [from, to]} — from the last-value cache ({@link #lastValues}), so no segment is read
     * for series whose entry is complete. With {@code to} at or past every newest point (unbounded,
     * as the query layer asks) this is exactly "each series' newest row in the range", which is
     * what a {@code DISTINCT ON (tags) … ORDER BY tags, time DESC} statement keeps.
     */
    public ScanResult scanLatest(ScanRequest request, BufferAllocator allocator) {
        return scanLatest(request, List.of(), allocator);
    }

    /**
     * {@link #scanLatest(ScanRequest, BufferAllocator)} with the rows ordered by the values of
     * {@code orderTags} (ascending, {@code String} order, a series without the tag after those
     * with it), series with equal values in canonical order. A hint for a caller that orders by
     * those tags: it may find the rows already in its order and keep them as they are. A rollup
     * view answers in canonical order whatever the hint.
     */
    public ScanResult scanLatest(ScanRequest request, List<String> orderTags, BufferAllocator allocator) {
        ensureOpen();
        ScanResult view = rollups.scanLatestView(request, allocator);
        return view != null ? view : scanLatestStored(request, orderTags, allocator);
    }

    /** {@link #scanLatest} with no rollup view, in canonical series order. */
    ScanResult scanLatestStored(ScanRequest request, BufferAllocator allocator) {
        return scanLatestStored(request, List.of(), allocator);
    }

    private ScanResult scanLatestStored(ScanRequest request, List<String> orderTags, BufferAllocator allocator) {
        Optional<MeasurementSchema> found = schema.schema(request.measurement());
        if (found.isEmpty()) {
            return new ScanResult(MeasurementSchema.toArrow(List.of(Column.time())), List.of());
        }
        MeasurementSchema ms = found.get();
        List<Column> tagColumns = ms.tags();
        List<String> order = new ArrayList<>();
        for (String t : orderTags) {
            ms.column(t).filter(tagColumns::contains).ifPresent(c -> order.add(c.name()));
        }
        List<LastPointReader.Latest> rows = new ArrayList<>();
        ScanStatistics.Counter stats = new ScanStatistics.Counter();
        for (LastPointReader.Latest p : latest(ms, request.tags(), order, allocator, stats)) {
            if (p.point().timestamp() >= request.from() && p.point().timestamp() <= request.to()) {
                rows.add(p);
            }
        }
        return LatestBatch.of(ms, outputColumns(ms, request), rows, schema, tagImages, allocator, stats.snapshot());
    }

    /**
     * The newest point of every live series of {@code measurement} passing {@code predicates}, in
     * canonical series order (the query layer's {@code lastpoint} and {@code GET …/last}): each
     * from the last-value cache, reverse segment scans only for entries that are not complete.
     */
    public List<SeriesLastPoint> lastValues(String measurement, List<TagPredicate> predicates, BufferAllocator allocator) {
        ensureOpen();
        Optional<MeasurementSchema> found = schema.schema(measurement);
        if (found.isEmpty()) {
            return List.of();
        }
        List<SeriesLastPoint> out = new ArrayList<>();
        for (LastPointReader.Latest p : latest(found.get(), predicates, List.of(), allocator, new ScanStatistics.Counter())) {
            out.add(lastPoints.asSeriesLastPoint(found.get(), p));
        }
        return out;
    }

    /**
     * {@link #lastValues} in the cache's own form, ordered by the values of the tags {@code order}
     * names ({@link SeriesRegistry#seriesInOrder(String, List)}'s order; none: canonical order);
     * {@code stats} counts what finding them read.
     */
    private List<LastPointReader.Latest> latest(MeasurementSchema ms, List<TagPredicate> predicates, List<String> order,
            BufferAllocator allocator, ScanStatistics.Counter stats) {
        if (!cold.candidates(ms.measurement(), Long.MIN_VALUE, Long.MAX_VALUE, predicates).isEmpty()) {
            // archived rows: series only there are not in the registry, and reverse segment scans
            // read the hot tier only, so take the newest rows from a scan of both tiers instead
            List<LastPointReader.Latest> rows = newestByScan(ms, predicates, allocator, stats);
            Comparator<LastPointReader.Latest> byTags = (x, y) -> 0;
            for (String t : order) {
                int at = ms.tags().indexOf(ms.column(t).orElseThrow());
                byTags = byTags.thenComparing(p -> p.tags()[at], Comparator.nullsLast(Comparator.naturalOrder()));
            }
            rows.sort(byTags); // stable: equal values keep canonical order, as the registry's order does
            return rows;
        }
        countStored(ms.measurement(), stats);
        return lastPoints.ofAll(series.seriesInOrder(ms.measurement(), order), ms, predicates, allocator, stats);
    }

    /** Each matching series' newest point from an ordered scan (series by series, time ascending). */
    private List<LastPointReader.Latest> newestByScan(MeasurementSchema ms, List<TagPredicate> predicates, BufferAllocator allocator,
            ScanStatistics.Counter stats) {
        List<LastPointReader.Latest> out = new ArrayList<>();
        try (ScanResult r = scan(new ScanRequest(ms.measurement(), List.of(), Long.MIN_VALUE, Long.MAX_VALUE, predicates), allocator)) {
            stats.add(r.statistics());
            List<VectorSchemaRoot> batches = r.batches();
            for (int b = 0; b < batches.size(); b++) {
                VectorSchemaRoot root = batches.get(b);
                for (int row = 0; row < root.getRowCount(); row++) {
                    boolean lastOfSeries;
                    if (row + 1 < root.getRowCount()) {
                        lastOfSeries = !sameSeries(ms, root, row, root, row + 1);
                    } else {
                        VectorSchemaRoot next = null;
                        for (int n = b + 1; n < batches.size() && next == null; n++) {
                            next = batches.get(n).getRowCount() > 0 ? batches.get(n) : null;
                        }
                        lastOfSeries = next == null || !sameSeries(ms, root, row, next, 0);
                    }
                    if (lastOfSeries) {
                        out.add(rowAsLatest(ms, root, row));
                    }
                }
            }
        }
        return out;
    }

    private static boolean sameSeries(MeasurementSchema ms, VectorSchemaRoot a, int ra, VectorSchemaRoot b, int rb) {
        for (Column t : ms.tags()) {
            Object x = a.getVector(t.name()).getObject(ra);
            Object y = b.getVector(t.name()).getObject(rb);
            if (!java.util.Objects.equals(x == null ? null : x.toString(), y == null ? null : y.toString())) {
                return false;
            }
        }
        return true;
    }

    private LastPointReader.Latest rowAsLatest(MeasurementSchema ms, VectorSchemaRoot root, int row) {
        List<Column> tagColumns = ms.tags();
        String[] tags = new String[tagColumns.size()];
        byte[][] utf8 = new byte[tags.length][];
        for (int t = 0; t < tags.length; t++) {
            FieldVector v = root.getVector(tagColumns.get(t).name());
            if (!v.isNull(row)) {
                utf8[t] = ((VarCharVector) v).get(row);
                tags[t] = new String(utf8[t], java.nio.charset.StandardCharsets.UTF_8);
            }
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        for (Column c : ms.fields()) {
            FieldVector v = root.getVector(c.name());
            if (v == null || v.isNull(row)) {
                continue;
            }
            fields.put(c.name(), switch (c.type()) {
                case FLOAT -> ((Float8Vector) v).get(row);
                case INTEGER -> ((BigIntVector) v).get(row);
                case UNSIGNED -> ((UInt8Vector) v).get(row);
                case BOOLEAN -> ((BitVector) v).get(row) != 0;
                case STRING -> new String(((VarCharVector) v).get(row), java.nio.charset.StandardCharsets.UTF_8);
            });
        }
        long ts = ((TimeStampVector) root.getVector(Column.TIME)).get(row);
        return new LastPointReader.Latest(tags, utf8, lastPoints.snapshot(ms.measurement(), ts, fields));
    }

    /**
     * Count, sum, min, max, first and last of one numeric field over a time range, per series:
     * from segment summaries for segments wholly inside the range whose series no other source
     * overlaps, from blocks and memtables for the rest. Same answer either way.
     *
     * @throws IllegalArgumentException for an unknown or non-numeric field of an existing measurement
     */
    public AggregateResult aggregate(AggregateRequest request, BufferAllocator allocator) {
        ensureOpen();
        Optional<MeasurementSchema> found = schema.schema(request.measurement());
        if (found.isEmpty()) {
            return new AggregateResult(List.of(), 0, 0);
        }
        // any row order will do (the aggregator keys rows by their tags): settled segments skip the merge
        return aggregator.aggregate(request, found.get(), (r, a, planner) -> scan(r, a, true, planner, true), allocator);
    }

    /** Hit and miss counts of the last-value cache and the state of the block cache this engine reads through. */
    public CacheStats cacheStats() {
        return new CacheStats(lastPoints.hits(), lastPoints.misses(), store.blockCache().map(BlockCache::stats).orElse(null));
    }

    /**
     * Cache counts.
     *
     * @param lastValueHits answers given by the last-value cache without I/O
     * @param lastValueMisses answers that needed a reverse segment scan
     * @param blockCache the (process-wide) block cache's counts; {@code null} if the store has none
     */
    public record CacheStats(long lastValueHits, long lastValueMisses, BlockCache.Stats blockCache) {
    }

    private void readCold(ArchivedSegment a, List<String> columns, long from, long to, List<TagPredicate> tags,
            BufferAllocator allocator, Consumer<VectorSchemaRoot> sink) {
        if (coldTier == null) {
            throw new IllegalStateException("scan reaches an archived segment but no cold tier is attached [dir=" + dir
                    + ", key=" + a.key() + "]");
        }
        coldTier.read(a, columns, from, to, tags, allocator, sink);
    }

    // ------------------------------------------------------------------------------------ cold tier

    /**
     * Runs an archiving pass now: every segment whose newest point is older than {@code coldAfter}
     * by the wall clock ({@link EngineConfig#clock()}) moves to the cold tier (see {@link Archiver}).
     * Memtables are not flushed first: only sealed segments move.
     *
     * @throws IllegalStateException if no cold tier is attached
     */
    public ArchiveReport archive(Duration coldAfter) {
        ensureOpen();
        if (coldTier == null) {
            throw new IllegalStateException("no cold tier attached [dir=" + dir + "]");
        }
        if (coldAfter.isNegative()) {
            throw new IllegalArgumentException("coldAfter must not be negative [coldAfter=" + coldAfter + "]");
        }
        long now = nowNanos();
        long cutoff;
        try {
            cutoff = Math.subtractExact(now, coldAfter.toNanos());
        } catch (ArithmeticException e) {
            cutoff = Long.MIN_VALUE; // longer than the epoch range: nothing is that old
        }
        return archiver.pass(coldTier, cutoff, now, testHook);
    }

    /**
     * Removes archived segments whose newest point is before {@code cutoffNanos} (age retention of
     * the cold tier): catalog record first, then the objects.
     *
     * @return the removed segments (for usage accounting and reports)
     */
    public List<ArchivedSegment> removeArchivedBefore(long cutoffNanos) {
        ensureOpen();
        if (cold.all().isEmpty()) {
            return List.of();
        }
        if (coldTier == null) {
            throw new IllegalStateException("no cold tier attached [dir=" + dir + "]");
        }
        return archiver.removeBefore(coldTier, cutoffNanos);
    }

    /** Archived segments, archive order. */
    public List<ArchivedSegment> archivedSegments() {
        return cold.all();
    }

    /** Bytes of this namespace's archived objects (what the cold tier holds for it). */
    public long coldBytes() {
        return cold.bytes();
    }

    /** Bytes of this namespace's live hot segment files. */
    public long hotSegmentBytes() {
        return segmentBytes();
    }

    // ------------------------------------------------------------------------------------ lifecycle

    /**
     * A delete, fluently: {@code delete().measurement("cpu").tag("host", "a").range(t0, t1).execute()}
     * (add {@code .dryRun()} to only count). See {@link #delete(DeleteRequest)}.
     */
    public DeleteBuilder delete() {
        ensureOpen();
        return new DeleteBuilder(this::delete);
    }

    /**
     * Deletes the points of the matching series in the request's range, for good (seed 001 "Delete
     * Operations"): flushes every memtable, records one tombstone per matching series — bounded by
     * that series' newest stored point in range, so a later write of it is not deleted — fsynced in
     * the catalog before it takes effect, evicts those series' last values and releases from the
     * cardinality count each series the delete took whole. Returns once durable. Deleted points
     * never come back: not in a scan, not after restart, not after further writes.
     *
     * <p>A write that lands while a delete runs is a later write (it survives) — unless it is flushed
     * before the delete's own flush, in which case it is deleted with the rest.
     *
     * @throws FlushFailedException if the flush fails (nothing is deleted)
     */
    public DeleteResult delete(DeleteRequest request) {
        ensureOpen();
        // under the compaction lock no materialisation runs between the invalidation and the tombstones
        compactionLock.lock();
        try {
            ensureOpen();
            if (!request.dryRun()) {
                rollups.beforeDelete(request.measurement(), request.start(), request.end());
            }
            return lifecycle.delete(request);
        } finally {
            compactionLock.unlock();
        }
    }

    /** Deletes every point of exactly this series (tag set {@code tags}, no other tag) up to its newest stored point. */
    public DeleteResult deleteSeries(String measurement, Map<String, String> tags) {
        return delete(new DeleteRequest(measurement, tags, Long.MIN_VALUE, Long.MAX_VALUE, false, true));
    }

    /**
     * Drops every shard whose newest point is before {@code reference − retention}, where the
     * reference is {@code min(wall clock, newest timestamp held)} (a quiet namespace keeps its last
     * {@code retention} of data). Catalog entries go before files; tombstones no segment needs any
     * more are collected; the live series are re-derived ({@link #repairLiveSeries()}) if anything
     * went. A shard a memtable still holds data of is kept, and segments a rollup still needs
     * ({@link #rollupRetentionHold}) are preserved.
     */
    public RetentionResult enforceRetention(Duration retention) {
        ensureOpen();
        RetentionResult hot;
        compactionLock.lock();
        try {
            ensureOpen();
            rollups.materialise(); // what a rollup still needs is kept; materialised first, it needs less
            hot = lifecycle.enforceRetention(retention, rollupHold);
        } finally {
            compactionLock.unlock();
        }
        if (cold.all().isEmpty() || coldTier == null) {
            return hot;
        }
        // the cold tier ages out by the same rule: reference = min(wall clock, newest point held, either tier)
        long newest = Long.MIN_VALUE;
        for (SegmentEntry e : metadata.all()) {
            newest = Math.max(newest, e.maxTime());
        }
        for (ArchivedSegment a : cold.all()) {
            newest = Math.max(newest, a.segment().maxTime());
        }
        for (FlushController c : router.shards()) {
            if (!c.active().isEmpty()) {
                newest = Math.max(newest, c.active().maxTime());
            }
        }
        long reference = Math.min(nowNanos(), newest);
        long cutoff = reference - retention.toNanos() > reference ? Long.MIN_VALUE : reference - retention.toNanos();
        List<ArchivedSegment> gone = removeArchivedBefore(cutoff);
        long rows = 0;
        long bytes = 0;
        for (ArchivedSegment a : gone) {
            rows += a.segment().rowCount();
            bytes += a.object().sizeBytes();
        }
        return new RetentionResult(hot.shardsDropped(), hot.segmentsDeleted() + gone.size(), hot.segmentsPreserved(),
                hot.rowsDeleted() + rows, hot.bytesFreed() + bytes);
    }

    /** The oldest timestamp {@code retention} keeps now: {@code reference − retention}; {@link Long#MIN_VALUE} if nothing is held. */
    public long retentionCutoff(Duration retention) {
        ensureOpen();
        return lifecycle.cutoff(retention);
    }

    /**
     * Removes these segments (the disk budget's way; those no longer live are skipped): catalog
     * first, then files, then tombstone collection and {@link #repairLiveSeries()}.
     */
    public RetentionResult dropSegments(List<SegmentEntry> segments) {
        ensureOpen();
        return lifecycle.dropSegments(segments);
    }


    /** Collects tombstones every segment of which has left the catalog; returns how many. The maintenance pass's "gc". */
    public int gc() {
        ensureOpen();
        return lifecycle.gc();
    }

    // ------------------------------------------------------------------------------------ rollups

    /**
     * Defines a rollup (see {@link Rollups#add}), durably (catalog fsync) before returning; the
     * target's shape is declared at once, so it can be queried before its first materialisation.
     *
     * @throws io.chronix.engine.rollup.InvalidRollupException for a duplicate name, a target another
     *     rollup writes, a cycle, or a target holding a same-named column of another kind or type
     */
    public RollupInfo addRollup(RollupConfig config) {
        return underCompactionLock(() -> rollups.add(config));
    }

    /** Removes a rollup, durably. The target keeps its materialised points (drop them with a delete); its view ends. */
    public boolean removeRollup(String name) {
        return underCompactionLock(() -> rollups.remove(name));
    }

    /** Every rollup with its state, sources before the tiers that read their targets. */
    public List<RollupInfo> rollups() {
        ensureOpen();
        return rollups.list();
    }

    public Optional<RollupInfo> rollup(String name) {
        ensureOpen();
        return rollups.get(name);
    }

    /** The rollups reading {@code measurement}. */
    public List<RollupInfo> rollupsForSource(String measurement) {
        ensureOpen();
        return rollups.forSource(measurement);
    }

    /**
     * Marks {@code [fromNanos, toNanos)} of a rollup for recomputation by the next materialisation
     * (widened to its buckets; what lies past the watermark is computed anyway), durably.
     *
     * @throws io.chronix.engine.rollup.InvalidRollupException for an unknown rollup
     */
    public void refreshRollup(String name, long fromNanos, long toNanos) {
        ensureOpen();
        rollups.refresh(name, fromNanos, toNanos);
    }

    /**
     * Runs a materialisation pass now (repair, then advance, per rollup; see {@link Rollups}); the
     * compaction and retention passes run one too. Waits for a running pass.
     */
    public MaterialiseReport materialiseRollups() {
        return underCompactionLock(rollups::materialise);
    }

    /** {@code body} on an open engine, holding the compaction lock: no compaction, retention or materialisation runs meanwhile. */
    private <T> T underCompactionLock(java.util.function.Supplier<T> body) {
        ensureOpen();
        compactionLock.lock();
        try {
            ensureOpen();
            return body.get();
        } finally {
            compactionLock.unlock();
        }
    }

    /** Declares columns of a measurement (a rollup target's shape). */
    void declareColumns(String measurement, List<Column> columns) {
        // new fields are committed and logged as a write's are (commitAndLogSchema): under the
        // schema-log lock, so no rollup point that relies on them reaches the WAL before their record
        gate.readLock().lock();
        try {
            schemaLog.lock();
            try {
                for (Column c : columns) {
                    switch (c.kind()) {
                        case TAG -> schema.declareTag(measurement, c.name());
                        case FIELD -> schema.commitField(measurement, c.name(), c.type());
                        case TIME -> { }
                    }
                }
                EncodeBuffer buf = encodeBuffers.borrow();
                try {
                    appendUnloggedSchema(buf);
                } finally {
                    encodeBuffers.giveBack(buf);
                }
            } finally {
                schemaLog.unlock();
            }
        } finally {
            gate.readLock().unlock();
        }
    }

    /** Every WAL record written so far made durable, whatever the fsync policy. */
    void syncWal() {
        wal.sync();
    }

    /** The start of the oldest shard the out-of-order window still admits. */
    long finalHorizon() {
        return router.window(nowNanos()).from();
    }

    /** The oldest timestamp {@code measurement} may hold (memtables are counted whole: an earlier answer only costs empty reads). */
    java.util.OptionalLong oldestTime(String measurement) {
        long oldest = Long.MAX_VALUE;
        boolean any = false;
        for (SegmentEntry e : metadata.all()) {
            if (e.measurement().equals(measurement)) {
                oldest = Math.min(oldest, e.minTime());
                any = true;
            }
        }
        for (ArchivedSegment a : cold.all()) {
            if (a.segment().measurement().equals(measurement)) {
                oldest = Math.min(oldest, a.segment().minTime());
                any = true;
            }
        }
        for (FlushController c : router.shards()) {
            for (Memtable m : new Memtable[] {c.active(), c.frozen()}) {
                if (m != null && !m.isEmpty()) {
                    oldest = Math.min(oldest, m.minTime());
                    any = true;
                }
            }
        }
        return any ? java.util.OptionalLong.of(oldest) : java.util.OptionalLong.empty();
    }

    void hook(String point) {
        testHook.accept(point);
    }

    /** How rollups hold retention back; {@link RollupRetentionHold#NONE} until rollups exist. */
    public void rollupRetentionHold(RollupRetentionHold hold) {
        this.rollupHold = java.util.Objects.requireNonNull(hold, "hold");
    }

    /** Live tombstones. */
    public List<TombstoneEntry> tombstones() {
        return tombstones.all();
    }

    /** Live segments (from the metadata cache). */
    public List<SegmentEntry> segments() {
        return metadata.all();
    }

    /** Bytes of the live segment files, as the catalog recorded them. */
    public long segmentBytes() {
        long n = 0;
        for (SegmentEntry e : metadata.all()) {
            n += e.sizeBytes();
        }
        return n;
    }

    /**
     * This engine as a member of a process-wide {@link DiskBudget}: its segments, its retention
     * cutoff under {@code retention} (asked at each pass; {@code null} = no retention) and
     * {@link #dropSegments}.
     */
    public DiskBudget.Member budgetMember(String name, java.util.function.Supplier<Duration> retention) {
        return new DiskBudget.Member() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public List<SegmentEntry> segments() {
                return closed ? List.of() : Chronix.this.segments();
            }

            @Override
            public long retentionCutoff() {
                Duration r = retention.get();
                try {
                    return r == null ? Long.MIN_VALUE : Chronix.this.retentionCutoff(r);
                } catch (EngineClosedException e) {
                    return Long.MIN_VALUE;
                }
            }

            @Override
            public RetentionResult dropSegments(List<SegmentEntry> segments) {
                try {
                    return Chronix.this.dropSegments(segments);
                } catch (EngineClosedException e) {
                    return RetentionResult.NOTHING; // closed since the pass listed it: its files stay for the next pass
                }
            }
        };
    }

    /** What the lifecycle needs of this engine. */
    private final class LifecycleAccess implements EngineLifecycle.Engine {
        @Override
        public <T> T underFlushLock(java.util.function.Supplier<T> body) {
            flushLock.lock();
            try {
                ensureOpen();
                return body.get();
            } finally {
                flushLock.unlock();
            }
        }

        @Override
        public void flushHeld() {
            runFlush(true);
        }

        @Override
        public ScanResult scanSegments(ScanRequest request, BufferAllocator allocator) {
            return scan(request, allocator, false, NO_SKIP, false);
        }

        @Override
        public boolean inMemtables(SeriesRef s) {
            for (FlushController c : router.shards()) {
                Memtable f = c.frozen();
                if (c.active().contains(s) || f != null && f.contains(s)) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public Set<Long> memtableShards() {
            return Chronix.this.memtableShards();
        }

        @Override
        public long nowNanos() {
            return Chronix.this.nowNanos();
        }

        @Override
        public void hook(String point) {
            testHook.accept(point);
        }

        @Override
        public void retire(List<SegmentFile> files) {
            segmentsChanged();
            reclaimer.retire(files);
        }

        @Override
        public List<SegmentEntry> archivedCandidates(String measurement, long from, long to, List<TagPredicate> predicates) {
            return cold.candidates(measurement, from, to, predicates).stream().map(ArchivedSegment::segment).toList();
        }

        @Override
        public Set<Long> archivedIds() {
            Set<Long> ids = new HashSet<>();
            for (ArchivedSegment a : cold.all()) {
                ids.add(a.segment().id());
            }
            return ids;
        }
    }

    // ------------------------------------------------------------------------------------ flush

    /**
     * Freezes every non-empty active memtable, writes them as segments and truncates the WAL;
     * returns when done. Runs at most one flush per engine at a time (waits for a background one).
     *
     * @throws FlushFailedException if a shard could not be flushed; nothing is lost (its frozen
     *     memtable and the WAL are kept) and a retry is scheduled
     */
    public void flush() {
        ensureOpen();
        flushLock.lock();
        try {
            ensureOpen();
            runFlush(true);
        } finally {
            flushLock.unlock();
        }
    }

    private void backgroundFlush() {
        if (closed || !flushLock.tryLock()) {
            if (!closed) {
                flushTask.request(Duration.ofMillis(50));
            }
            return;
        }
        try {
            if (!closed) {
                runFlush(false);
                long openFrom = router.openFrom();
                if (openFrom != compactionCheckedOpenFrom) {
                    // shards closed since: one whose segments were all written while it was open
                    // (nothing left to seal, so no flush of it) may need the pass as well
                    compactionCheckedOpenFrom = openFrom;
                    segmentsChanged();
                }
            }
        } catch (RuntimeException e) {
            // logged and retried by runFlush's bookkeeping
        } finally {
            flushLock.unlock();
        }
    }

    private void runFlush(boolean force) {
        assert flushLock.isHeldByCurrentThread();
        // a shard whose earlier flush failed (or a closed shard a backfill wrote to while its sealed
        // memtable was being written) still has a frozen memtable and cannot freeze its active one;
        // a second pass freezes it once the first has written the old one
        for (int pass = 0; pass < 2; pass++) {
            boolean blocked = false;
            gate.writeLock().lock();
            try {
                long seq = wal.lastSequence();
                long openFrom = router.openFrom();
                for (FlushController c : router.shards()) {
                    if (force || sealDue(c, openFrom)) {
                        boolean froze = c.freeze(seq);
                        blocked |= !froze && c.frozen() != null && !c.active().isEmpty();
                    }
                }
            } finally {
                gate.writeLock().unlock();
            }
            flushFrozen();
            if (!blocked) {
                break;
            }
        }
        flushFailuresInARow = 0;
        truncateWal();
    }

    private void flushFrozen() {
        RuntimeException failure = null;
        for (FlushController c : router.shards()) {
            Memtable frozen = c.frozen();
            if (frozen == null) {
                continue;
            }
            try {
                flushShard(c, frozen);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "flush of shard " + c.shard() + " failed; its memtable and the WAL are kept", e);
                if (failure == null) {
                    failure = e;
                }
            }
        }
        if (failure != null) {
            lastFlushFailure = failure;
            int n = ++flushFailuresInARow;
            flushTask.request(Duration.ofMillis(Math.min(30_000, 100L << Math.min(n, 8))));
            throw failure instanceof FlushFailedException ffe ? ffe : new FlushFailedException(-1, "", failure);
        }
    }

    private void flushShard(FlushController c, Memtable frozen) {
        Map<String, List<SegmentColumns>> chunks;
        try {
            chunks = MemtableFlush.columns(frozen, schema, config.targetSegmentSizeBytes());
        } catch (RuntimeException e) {
            throw new FlushFailedException(c.shard(), "", e);
        }
        int total = chunks.values().stream().mapToInt(List::size).sum();
        long id = catalog.reserveIds(total);
        long nanos = Math.max(0, nowNanos());
        List<SegmentEntry> entries = new ArrayList<>(total);
        List<SegmentFile> written = new ArrayList<>(total);
        for (Map.Entry<String, List<SegmentColumns>> m : chunks.entrySet()) {
            for (SegmentColumns cols : m.getValue()) {
                SegmentFile file = SegmentFile.of(c.shard(), nanos, id);
                try {
                    long size = store.write(file, cols, frozen.frozenAtSequence());
                    written.add(file);
                    long[] t = cols.time();
                    long min = Long.MAX_VALUE;
                    long max = Long.MIN_VALUE;
                    int seriesCount = 0;
                    for (int i = 0; i < cols.rowCount(); i++) {
                        min = Math.min(min, t[i]);
                        max = Math.max(max, t[i]);
                        if (i == 0 || differentSeries(cols, i - 1, i)) {
                            seriesCount++;
                        }
                    }
                    entries.add(new SegmentEntry(id, file.relativeName(), c.shard(), m.getKey(), min, max, cols.rowCount(),
                            seriesCount, size, frozen.frozenAtSequence(), SegmentStatistics.of(cols)));
                    id++;
                    testHook.accept("segment-written");
                } catch (RuntimeException e) {
                    throw new FlushFailedException(c.shard(), m.getKey(), e);
                }
            }
        }
        testHook.accept("before-catalog-commit");
        try {
            catalog.addSegments(entries);
        } catch (RuntimeException e) {
            for (SegmentFile f : written) {
                try {
                    store.delete(f);
                } catch (RuntimeException ignored) {
                    // an orphan; the next open deletes it
                }
            }
            throw new FlushFailedException(c.shard(), "", e);
        }
        metadata.add(entries);
        segmentsChanged();
        c.flushed(frozen);
        testHook.accept("after-catalog-commit");
    }

    private static boolean differentSeries(SegmentColumns cols, int a, int b) {
        for (SegmentColumns.TagColumn t : cols.tags()) {
            String x = t.values()[a];
            String y = t.values()[b];
            if (x == null ? y != null : !x.equals(y)) {
                return true;
            }
        }
        return false;
    }

    private void truncateWal() {
        long floor;
        List<SchemaRegistry.CatalogDeclaration> decls;
        gate.writeLock().lock();
        try {
            long oldestInMemory = Long.MAX_VALUE;
            for (FlushController c : router.shards()) {
                oldestInMemory = Math.min(oldestInMemory, c.active().minSequence());
                Memtable f = c.frozen();
                if (f != null) {
                    oldestInMemory = Math.min(oldestInMemory, f.minSequence());
                }
                router.retire(c);
            }
            floor = oldestInMemory == Long.MAX_VALUE ? wal.lastSequence() : oldestInMemory - 1;
            decls = schema.unpersisted();
        } finally {
            gate.writeLock().unlock();
        }
        catalog.addDeclarations(decls);
        schema.markPersisted(decls.size());
        catalog.raiseWalFloor(floor);
        testHook.accept("before-wal-truncate");
        wal.truncateBefore(floor);
        testHook.accept("after-wal-truncate");
    }

    // ------------------------------------------------------------------------------------ compaction

    /**
     * Flushes, then compacts every (shard, measurement) group of two or more live segments into one
     * segment each (seed 001 "Integration in db.compact()"); returns what was done. Runs one
     * compaction at a time per engine (waits for a maintenance pass). Writes and scans go on
     * meanwhile: the merge holds no lock they need.
     *
     * @throws FlushFailedException if the flush before it fails (nothing is compacted then)
     * @throws CompactionFailedException if a group could not be merged; groups before it stay compacted,
     *     its inputs stay live
     */
    public CompactionResult compact() {
        ensureOpen();
        compactionLock.lock();
        try {
            ensureOpen();
            CompactionResult r = runCompaction(2, Long.MIN_VALUE, true);
            lifecycle.collectTombstones(); // those whose segments were all compacted away
            rollups.materialise(); // after every pass: a bucket becomes final by time passing, not by segment count
            return r;
        } catch (CancellationException e) {
            throw new EngineClosedException(dir);
        } finally {
            compactionLock.unlock();
        }
    }

    /**
     * The periodic pass (every {@link EngineConfig#maintenanceInterval()}, and after a flush that
     * brings a group to the trigger): compact the groups at or above the trigger, then collect
     * garbage, then enforce retention. Never waits for a compaction already running.
     */
    private void maintenancePass() {
        if (closed || stopping || !compactionLock.tryLock()) {
            return;
        }
        try {
            if (closed || stopping) {
                return;
            }
            CompactionResult r = runCompaction(config.compactionTrigger(), router.openFrom(), false);
            if (r.groups() > 0) {
                LOG.log(Level.DEBUG, "maintenance compaction: dir={0} {1}", dir, r);
            }
            rollups.materialise();
            collectGarbage();
            enforceRetention();
        } catch (CancellationException e) {
            // the engine is closing
        } finally {
            compactionLock.unlock();
        }
    }

    /** Maintenance step 2: collect the tombstones compaction (or a drop) made unreachable. */
    private void collectGarbage() {
        lifecycle.collectTombstones();
    }

    /** Maintenance step 3: drop shards past the retention set by {@link #retention(Duration)}, if one is. */
    private void enforceRetention() {
        Duration r = retention;
        if (r != null) {
            rollups.materialise();
            lifecycle.enforceRetention(r, rollupHold);
        }
    }

    /**
     * The retention the maintenance pass enforces ({@code null}: none — the default; the service
     * sets the namespace's). {@link #enforceRetention(Duration)} works with or without it.
     */
    public void retention(Duration retention) {
        if (retention != null && retention.isNegative()) {
            throw new IllegalArgumentException("retention must not be negative: " + retention);
        }
        this.retention = retention;
    }

    /**
     * @param minSegments a group is merged from this many segments up
     * @param openFrom a group of a shard below it (closed) is merged from two segments up
     */
    private CompactionResult runCompaction(int minSegments, long openFrom, boolean flushFirst) {
        assert compactionLock.isHeldByCurrentThread();
        long start = System.nanoTime();
        List<CompactionPicker.Group> groups;
        long firstId;
        long nanos = Math.max(0, nowNanos());
        // Under the flush lock no flush is between reserving its ids and recording its segments, so
        // every segment recorded later gets a higher id than these outputs: an output (which holds
        // older writes) sorts before them, and last write wins stays right.
        flushLock.lock();
        try {
            ensureOpen();
            if (flushFirst) {
                runFlush(true);
            }
            groups = CompactionPicker.pick(metadata.all(), minSegments, openFrom);
            firstId = groups.isEmpty() ? 0 : catalog.reserveIds(groups.size());
        } finally {
            flushLock.unlock();
        }
        SegmentMerge merge = new SegmentMerge(io, dir.resolve(DataDirectory.SEGMENTS), dir.resolve(DataDirectory.TMP),
                store.writerConfig(), deletedRows, () -> stopping, point -> testHook.accept(point));
        CompactionResult result = CompactionResult.NOTHING;
        for (int g = 0; g < groups.size(); g++) {
            if (stopping) {
                break;
            }
            CompactionPicker.Group group = groups.get(g);
            SegmentMerge.Output out;
            try {
                out = merge.merge(group, firstId + g, nanos);
            } catch (CancellationException e) {
                throw e;
            } catch (RuntimeException e) {
                throw new CompactionFailedException(group.shard(), group.measurement(), group.segments().size(), e);
            }
            testHook.accept("compaction-output-published");
            List<SegmentEntry> added = out.entry() == null ? List.of() : List.of(out.entry());
            Set<String> removed = new HashSet<>();
            List<SegmentFile> files = new ArrayList<>();
            for (SegmentEntry e : group.segments()) {
                removed.add(e.file());
                files.add(SegmentFile.parse(e.file()));
            }
            try {
                catalog.replaceSegments(removed, added);
            } catch (RuntimeException e) {
                if (out.entry() != null) {
                    store.delete(SegmentFile.parse(out.entry().file())); // not recorded: an orphan otherwise
                }
                throw new CompactionFailedException(group.shard(), group.measurement(), group.segments().size(), e);
            }
            metadata.replace(removed, added);
            segmentsChanged();
            testHook.accept("compaction-catalog-committed");
            reclaimer.retire(files);
            result = result.plus(group.segments().size(), out);
        }
        return result.took(Duration.ofNanos(System.nanoTime() - start));
    }

    /**
     * After the live segments changed: the L0 count for backpressure, and a pass at once when a group
     * reached the trigger or a closed shard holds a group of more than one segment — a sealed shard
     * that had been flushed before, or a backfill's segment (unless passes are disabled: then only
     * {@link #compact()} compacts).
     */
    private void segmentsChanged() {
        List<SegmentEntry> live = metadata.all();
        backpressure.update(CompactionPicker.largestGroup(live));
        if (!stopping && maintenanceTimer != null
                && !CompactionPicker.pick(live, config.compactionTrigger(), router.openFrom()).isEmpty()) {
            maintenanceTask.request();
        }
    }

    /**
     * The rows compaction drops from its inputs (tombstones). {@link DeletedRows#NONE} until the
     * deletes work sets it; a compaction uses the value current when it starts.
     */
    public void deletedRows(DeletedRows rows) {
        this.deletedRows = java.util.Objects.requireNonNull(rows, "rows");
    }

    /** The most live segments one (shard, measurement) group holds: the count the trigger and backpressure go by. */
    public int l0Count() {
        return backpressure.l0();
    }

    /** The delay a write gets now (zero unless the L0 count passed 4 × the compaction trigger). */
    public Duration backpressureDelay() {
        return backpressure.currentDelay();
    }

    /** Time writes of this engine have spent delayed by backpressure, in total since open. */
    public Duration backpressureTotalDelay() {
        return backpressure.totalDelay();
    }

    /** Writes of this engine delayed by backpressure since open. */
    public long backpressureDelayedWrites() {
        return backpressure.delayedWrites();
    }

    /** The live segments' catalog entries (tests). */
    List<SegmentEntry> liveSegments() {
        return metadata.all();
    }

    /** Replaced segment files waiting for scans that may still read them. */
    int pendingReclaims() {
        return reclaimer.pendingFiles();
    }

    // ------------------------------------------------------------------------------------ lifecycle

    private void ensureOpen() {
        if (closed) {
            throw new EngineClosedException(dir);
        }
    }

    public Path directory() {
        return dir;
    }

    public EngineConfig config() {
        return config;
    }

    public WalMetrics walMetrics() {
        return walMetrics;
    }

    /**
     * Zeros the WAL's active file holds past its last record (its preallocation): bytes on disk
     * that hold no data, which a count of stored bytes leaves out.
     */
    public long walPreallocatedBytes() {
        return wal.preallocatedBytes();
    }

    /**
     * A failed fsync that makes this engine refuse work until it is closed and opened again, if
     * one failed: the WAL's ({@link io.chronix.engine.error.WalPoisonedException}: every write is
     * refused) or else the catalog's (a {@link StorageIoException}: every flush, compaction and
     * delete is refused; writes go on into the memtables). Call {@link
     * #prepareReopenAfterSyncFailure} before closing such an engine.
     */
    public Optional<io.chronix.engine.error.EngineException> syncFailure() {
        Optional<io.chronix.engine.error.WalPoisonedException> w = wal.failure();
        if (w.isPresent()) {
            return Optional.of(w.get());
        }
        return catalog.failure().map(e -> new StorageIoException("fsync catalog (failed earlier; reopen to recover)", catalog.file(),
                catalog.size(), e));
    }

    /**
     * Readies an engine whose WAL or catalog fsync failed to be closed and opened again, so that the
     * reopen brings back every acknowledged point and nothing else. The active WAL file and the
     * catalog are cut back to the end of what fsyncs covered ({@link WalWriter#discardUnsynced},
     * {@link Catalog#discardUnsynced}): the bytes after it were never acknowledged, and after a
     * failed fsync the page cache may show them though the device does not hold them (PostgreSQL's
     * fsync lesson), so reading them back would be wrong twice — it would bring back a write that
     * was refused, and a crash later would leave a damaged record in front of newer ones. Under
     * {@code PERIODIC}, which acknowledges before the fsync, the memtables are flushed first, so
     * the points acknowledged after the last good fsync no longer depend on the WAL (which takes a
     * catalog that can still be written).
     *
     * <p>Close the engine once this returned true, and only then open it again. False: the device
     * still fails (or, under {@code PERIODIC}, the flush could not be made durable); leave the
     * engine open as it is and try again later. True at once for an engine with no failed fsync.
     */
    public boolean prepareReopenAfterSyncFailure() {
        if (syncFailure().isEmpty()) {
            return true;
        }
        if (wal.failure().isPresent() && wal.config().fsyncPolicy() == FsyncPolicy.PERIODIC) {
            try {
                flush();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "engine with a failed WAL fsync: flush before reopening failed; will retry [dir={0}]: {1}",
                        dir, e.toString());
                return false;
            }
        }
        return wal.discardUnsynced() && catalog.discardUnsynced();
    }

    /** The last flush failure, if the latest flush failed. */
    public Optional<RuntimeException> lastFlushFailure() {
        return flushFailuresInARow == 0 ? Optional.empty() : Optional.ofNullable(lastFlushFailure);
    }

    /** Live segments, from the metadata cache. */
    public int segmentCount() {
        return metadata.all().size();
    }

    /** The shards whose memtables (active or frozen) hold points, ascending; a snapshot under no lock. */
    java.util.SortedSet<Long> memtableShards() {
        java.util.SortedSet<Long> out = new java.util.TreeSet<>();
        for (FlushController c : router.shards()) {
            if (!c.active().isEmpty() || c.frozen() != null) {
                out.add(c.shard());
            }
        }
        return out;
    }

    /** The shard of {@code timestamp} (tests). */
    long shardOf(long timestamp) {
        return router.shardOf(timestamp);
    }

    /** Points held in memtables (active and frozen). */
    public long memtablePoints() {
        long n = 0;
        for (FlushController c : router.shards()) {
            n += c.active().pointCount();
            Memtable f = c.frozen();
            n += f == null ? 0 : f.pointCount();
        }
        return n;
    }

    /**
     * Estimated bytes held in memtables (active and frozen) — what a memory budget shared by many
     * engines adds up. A snapshot under no lock.
     */
    public long memtableBytes() {
        long n = 0;
        for (FlushController c : router.shards()) {
            n += c.active().estimatedBytes();
            Memtable f = c.frozen();
            n += f == null ? 0 : f.estimatedBytes();
        }
        return n;
    }

    /**
     * Distinct live series (measurement + tag set) this engine holds in memtables and segments: its
     * exact cardinality, including series known only from segments written before this open (read
     * from the sidecars at open). After deletes or retention, {@link #repairLiveSeries()} makes it
     * exact again.
     */
    public long seriesCount() {
        return series.liveSize();
    }

    /**
     * Recounts the live series from the segments left and the memtables, marking every series with
     * no data anywhere as dead (a later write brings it back). Deletes and retention call this
     * after their removals took effect. Holds flushes and writes off while it reads the segments'
     * sidecars.
     *
     * @return the live series count
     */
    public long repairLiveSeries() {
        ensureOpen();
        flushLock.lock();
        try {
            gate.writeLock().lock();
            // a compaction may replace segments meanwhile: like a scan, keep their files until done
            long ticket = reclaimer.enter();
            try {
                return lifecycle.repairLiveSeries(); // sidecars, plus the tombstones applying to each segment
            } finally {
                reclaimer.exit(ticket);
                gate.writeLock().unlock();
            }
        } finally {
            flushLock.unlock();
        }
    }

    /**
     * Forgets the last-value cache entries of {@code measurement}'s series passing {@code
     * predicates} (deletes call this after their tombstone took effect; retention for what it
     * dropped); their next read scans the segments again. Returns how many entries were evicted.
     */
    public int evictLastValues(String measurement, List<TagPredicate> predicates) {
        int n = 0;
        for (SeriesRef ref : series.seriesOf(measurement)) {
            if (TagPredicate.allHold(predicates, ref)) {
                ref.lastValue().evict();
                n++;
            }
        }
        return n;
    }

    /**
     * {@link #write(PointBatch)} unless the batch would take {@link #seriesCount()} past {@code
     * maxSeries}. Limited writes never take the count past the limit together: each reserves the
     * new series it may add (first the batch's size, an upper bound; near the limit the exact
     * count) until it has written, and a reservation that would pass the limit is refused. Near the
     * limit that is conservative — two in-flight batches bringing the same new series both reserve
     * it. Plain {@link #write(PointBatch)} calls reserve nothing.
     *
     * @throws SeriesLimitExceededException naming the limit, the current count and the batch's new
     *     series; nothing of the batch is written
     */
    public long write(PointBatch batch, long maxSeries) {
        return limited(batch, maxSeries, () -> write(batch));
    }

    private long limited(PointBatch batch, long maxSeries, java.util.function.LongSupplier write) {
        long adding = batch.size();
        boolean exact = false;
        while (true) {
            long reserved = seriesReserved.get();
            long current = series.liveSize();
            if (current + reserved + adding > maxSeries) {
                if (!exact) {
                    adding = newSeriesCount(batch);
                    exact = true;
                    continue;
                }
                throw new SeriesLimitExceededException(maxSeries, current, adding);
            }
            if (seriesReserved.compareAndSet(reserved, reserved + adding)) {
                break;
            }
        }
        try {
            return write.getAsLong();
        } finally {
            seriesReserved.addAndGet(-adding);
        }
    }

    /**
     * How many distinct series of {@code batch} the engine does not hold yet (what writing it would
     * add to {@link #seriesCount()}). Allocates two small arrays per point: for quota checks near a
     * limit, not for every write.
     */
    public int newSeriesCount(PointBatch batch) {
        Set<String> seen = null;
        int n = 0;
        for (int p = 0; p < batch.size(); p++) {
            int tags = batch.tagCount(p);
            String[] keys = new String[tags];
            String[] values = new String[tags];
            for (int i = 0; i < tags; i++) {
                keys[i] = batch.tagKey(p, i);
                values[i] = batch.tagValue(p, i);
            }
            SeriesRef known = series.find(batch.measurement(p), keys, values);
            if (known == null || !known.isLive()) {
                if (seen == null) {
                    seen = new HashSet<>();
                }
                StringBuilder key = new StringBuilder(batch.measurement(p));
                for (int i = 0; i < tags; i++) {
                    key.append('\u0000').append(keys[i]).append('\u0000').append(values[i]);
                }
                if (seen.add(key.toString())) {
                    n++;
                }
            }
        }
        return n;
    }

    /** Points the open's WAL replay inserted, and skipped because a segment held them. */
    long[] replayCounts() {
        return new long[] {replayedPoints, skippedPoints};
    }

    /**
     * Test hook at named points of a flush ("segment-written", "before-catalog-commit", "after-catalog-commit",
     * "before-wal-truncate", "after-wal-truncate"), of a delete ("before-tombstone-persist", "after-tombstone-persist")
     * and of a segment drop ("segments-unlisted": catalog and cache updated, files not yet deleted).
     */
    void testHook(Consumer<String> hook) {
        this.testHook = hook;
    }

    /**
     * Closes the engine without flushing: memtables are dropped and rebuilt from the WAL at the next
     * open, so close and reopen are cheap. Waits for a running flush. Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        stopMaintenance();
        flushTask.cancel();
        flushLock.lock();
        try {
            gate.writeLock().lock();
            try {
                if (closed) {
                    return;
                }
                closed = true;
            } finally {
                gate.writeLock().unlock();
            }
            wal.close();
            catalog.close();
            reclaimer.drain();
            store.close();
            lock.close();
        } finally {
            flushLock.unlock();
            compactionLock.unlock();
        }
    }

    /**
     * Cancels the next maintenance pass and waits for a running one (or an explicit compaction),
     * which abandons its merge at the next output part; leaves the compaction lock held.
     */
    private void stopMaintenance() {
        stopping = true;
        if (maintenanceTimer != null) {
            maintenanceTimer.cancel(false);
        }
        maintenanceTask.cancel();
        compactionLock.lock();
    }

    /** Simulates a process crash for tests: releases everything without any further write. */
    void crashForTest() {
        closed = true;
        stopMaintenance();
        compactionLock.unlock();
        flushTask.cancel();
        flushLock.lock(); // a background flush that is running finishes (or crashes at its hook) first
        flushLock.unlock();
        wal.close(); // a crashed process' written bytes are in the kernel: the close's sync changes nothing a test can see
        catalog.close();
        store.close();
        lock.close();
    }

    /** Bridges to the package-private last-value updates of the memtable package. */
    private static final class LastValueAccess {
        static void offer(LastValue lv, long ts, PointBatch batch, int point, int[] ordinals, int base) {
            LastValues.offer(lv, ts, batch, point, ordinals, base);
        }
    }
}
