package io.chronix.engine;

import io.chronix.engine.cache.BlockCache;
import io.chronix.engine.io.FileIO;
import io.chronix.engine.io.NioFileIO;
import io.chronix.engine.segment.SegmentWriterConfig;
import io.chronix.engine.store.CsxSegmentStore;
import io.chronix.engine.store.SegmentStore;
import io.chronix.engine.wal.FsyncPolicy;
import io.chronix.engine.wal.WalConfig;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of one engine (one namespace). A plain record: the service maps its validated
 * configuration properties onto it; no Spring type crosses into the engine.
 *
 * @param fsyncPolicy when the WAL forces writes to the device; {@code PER_BATCH} (group commit,
 *     fsync before the acknowledgement) is the service default
 * @param fsyncInterval the background sync period under {@code PERIODIC}
 * @param shardDuration width of a time shard; fixed when the namespace is created (the catalog
 *     records it, and a later open uses the recorded width whatever this says)
 * @param oooToleranceShards how many shards behind the newest data a write may still land in; a
 *     shard further behind is closed and its memtable is sealed (frozen and flushed) at once
 * @param futureTolerance how far ahead of {@link #clock()} a timestamp may be
 * @param flushThresholdBytes a shard's active memtable is frozen and flushed once its estimated
 *     size reaches this, or once its shard is closed, whichever comes first
 * @param targetSegmentSizeBytes a flush splits a measurement's rows into segments of about this
 *     many uncompressed bytes (so files come out smaller)
 * @param walMaxFileSize WAL file rotation size
 * @param clock wall-clock time: the future tolerance, segment names
 * @param io the file I/O seam
 * @param segments how segment files are written and read; by default {@code .csx} files ({@link CsxSegmentStore})
 * @param compactionTrigger a (shard, measurement) group of at least this many segments is compacted
 *     by the maintenance pass (in a closed shard, a group of two or more); past 4 × this, writes
 *     are delayed (backpressure). At least 2
 * @param maintenanceInterval how often the maintenance pass runs (compact, then garbage-collect,
 *     then enforce retention); {@link Duration#ZERO} disables it
 */
public record EngineConfig(FsyncPolicy fsyncPolicy, Duration fsyncInterval, Duration shardDuration, int oooToleranceShards,
        Duration futureTolerance, long flushThresholdBytes, long targetSegmentSizeBytes, long walMaxFileSize, Clock clock, FileIO io,
        SegmentStores segments, int compactionTrigger, Duration maintenanceInterval) {

    public static final Duration DEFAULT_SHARD_DURATION = Duration.ofHours(1);
    public static final int DEFAULT_OOO_TOLERANCE_SHARDS = 2;
    public static final Duration DEFAULT_FUTURE_TOLERANCE = Duration.ofHours(1);
    public static final long DEFAULT_FLUSH_THRESHOLD = 64L * 1024 * 1024;
    public static final long DEFAULT_TARGET_SEGMENT_SIZE = 256L * 1024 * 1024;
    public static final int DEFAULT_COMPACTION_TRIGGER = 4;
    public static final Duration DEFAULT_MAINTENANCE_INTERVAL = Duration.ofSeconds(30);

    /** Creates the segment store of an engine. */
    @FunctionalInterface
    public interface SegmentStores {
        SegmentStore create(FileIO io, Path segmentsDir, Path tmpDir);
    }

    public EngineConfig {
        Objects.requireNonNull(fsyncPolicy, "fsyncPolicy");
        Objects.requireNonNull(fsyncInterval, "fsyncInterval");
        Objects.requireNonNull(shardDuration, "shardDuration");
        Objects.requireNonNull(futureTolerance, "futureTolerance");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(io, "io");
        Objects.requireNonNull(segments, "segments");
        if (shardDuration.isNegative() || shardDuration.isZero()) {
            throw new IllegalArgumentException("shardDuration must be positive: " + shardDuration);
        }
        if (oooToleranceShards < 0 || futureTolerance.isNegative()) {
            throw new IllegalArgumentException("tolerances must not be negative");
        }
        if (flushThresholdBytes <= 0 || targetSegmentSizeBytes <= 0) {
            throw new IllegalArgumentException("flushThresholdBytes and targetSegmentSizeBytes must be positive");
        }
        Objects.requireNonNull(maintenanceInterval, "maintenanceInterval");
        if (compactionTrigger < 2 || maintenanceInterval.isNegative()) {
            throw new IllegalArgumentException("compactionTrigger must be at least 2 and maintenanceInterval not negative [compactionTrigger="
                    + compactionTrigger + ", maintenanceInterval=" + maintenanceInterval + "]");
        }
    }

    /** Group commit, 1 h shards, 2 shards out-of-order, 1 h future, 64 MiB flush threshold, 256 MiB segments, real files, compaction at 4 segments, a maintenance pass every 30 s. */
    public static EngineConfig defaults() {
        return new EngineConfig(FsyncPolicy.PER_BATCH, WalConfig.DEFAULT_FSYNC_INTERVAL, DEFAULT_SHARD_DURATION,
                DEFAULT_OOO_TOLERANCE_SHARDS, DEFAULT_FUTURE_TOLERANCE, DEFAULT_FLUSH_THRESHOLD, DEFAULT_TARGET_SEGMENT_SIZE,
                WalConfig.DEFAULT_MAX_FILE_SIZE, Clock.systemUTC(), NioFileIO.INSTANCE, CsxSegmentStore::new, DEFAULT_COMPACTION_TRIGGER,
                DEFAULT_MAINTENANCE_INTERVAL);
    }

    public EngineConfig withFsyncPolicy(FsyncPolicy p) {
        return new EngineConfig(p, fsyncInterval, shardDuration, oooToleranceShards, futureTolerance, flushThresholdBytes,
                targetSegmentSizeBytes, walMaxFileSize, clock, io, segments, compactionTrigger, maintenanceInterval);
    }

    public EngineConfig withFsyncInterval(Duration d) {
        return new EngineConfig(fsyncPolicy, d, shardDuration, oooToleranceShards, futureTolerance, flushThresholdBytes,
                targetSegmentSizeBytes, walMaxFileSize, clock, io, segments, compactionTrigger, maintenanceInterval);
    }

    public EngineConfig withShardDuration(Duration d) {
        return new EngineConfig(fsyncPolicy, fsyncInterval, d, oooToleranceShards, futureTolerance, flushThresholdBytes,
                targetSegmentSizeBytes, walMaxFileSize, clock, io, segments, compactionTrigger, maintenanceInterval);
    }

    public EngineConfig withOooToleranceShards(int n) {
        return new EngineConfig(fsyncPolicy, fsyncInterval, shardDuration, n, futureTolerance, flushThresholdBytes,
                targetSegmentSizeBytes, walMaxFileSize, clock, io, segments, compactionTrigger, maintenanceInterval);
    }

    public EngineConfig withFutureTolerance(Duration d) {
        return new EngineConfig(fsyncPolicy, fsyncInterval, shardDuration, oooToleranceShards, d, flushThresholdBytes,
                targetSegmentSizeBytes, walMaxFileSize, clock, io, segments, compactionTrigger, maintenanceInterval);
    }

    public EngineConfig withFlushThresholdBytes(long n) {
        return new EngineConfig(fsyncPolicy, fsyncInterval, shardDuration, oooToleranceShards, futureTolerance, n,
                targetSegmentSizeBytes, walMaxFileSize, clock, io, segments, compactionTrigger, maintenanceInterval);
    }

    public EngineConfig withTargetSegmentSizeBytes(long n) {
        return new EngineConfig(fsyncPolicy, fsyncInterval, shardDuration, oooToleranceShards, futureTolerance, flushThresholdBytes,
                n, walMaxFileSize, clock, io, segments, compactionTrigger, maintenanceInterval);
    }

    public EngineConfig withWalMaxFileSize(long n) {
        return new EngineConfig(fsyncPolicy, fsyncInterval, shardDuration, oooToleranceShards, futureTolerance, flushThresholdBytes,
                targetSegmentSizeBytes, n, clock, io, segments, compactionTrigger, maintenanceInterval);
    }

    public EngineConfig withClock(Clock c) {
        return new EngineConfig(fsyncPolicy, fsyncInterval, shardDuration, oooToleranceShards, futureTolerance, flushThresholdBytes,
                targetSegmentSizeBytes, walMaxFileSize, c, io, segments, compactionTrigger, maintenanceInterval);
    }

    public EngineConfig withIo(FileIO f) {
        return new EngineConfig(fsyncPolicy, fsyncInterval, shardDuration, oooToleranceShards, futureTolerance, flushThresholdBytes,
                targetSegmentSizeBytes, walMaxFileSize, clock, f, segments, compactionTrigger, maintenanceInterval);
    }

    /**
     * Segments as {@code .csx} files read through {@code cache} — pass one cache to every engine of
     * the process (as with the maintenance scheduler) so they share one memory bound. Without this
     * call the default store uses {@link BlockCache#shared()}.
     */
    public EngineConfig withBlockCache(BlockCache cache) {
        return withSegments((fio, segmentsDir, tmpDir) -> new CsxSegmentStore(fio, segmentsDir, tmpDir,
                SegmentWriterConfig.defaults(), cache));
    }

    public EngineConfig withSegments(SegmentStores s) {
        return new EngineConfig(fsyncPolicy, fsyncInterval, shardDuration, oooToleranceShards, futureTolerance, flushThresholdBytes,
                targetSegmentSizeBytes, walMaxFileSize, clock, io, s, compactionTrigger, maintenanceInterval);
    }

    public EngineConfig withCompactionTrigger(int n) {
        return new EngineConfig(fsyncPolicy, fsyncInterval, shardDuration, oooToleranceShards, futureTolerance, flushThresholdBytes,
                targetSegmentSizeBytes, walMaxFileSize, clock, io, segments, n, maintenanceInterval);
    }

    public EngineConfig withMaintenanceInterval(Duration d) {
        return new EngineConfig(fsyncPolicy, fsyncInterval, shardDuration, oooToleranceShards, futureTolerance, flushThresholdBytes,
                targetSegmentSizeBytes, walMaxFileSize, clock, io, segments, compactionTrigger, d);
    }
}
