package io.chronix.api.engine;

import io.chronix.engine.EngineConfig;
import io.chronix.engine.wal.FsyncPolicy;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;

/**
 * Service defaults for every namespace's engine ({@code chronix.engine.*}); a namespace's own
 * settings (its record's {@code settings} JSON, see {@link NamespaceEngineSettings}) win over them.
 *
 * @param fsyncPolicy        default {@code PER_BATCH}: group commit, fsync before the answer
 * @param fsyncInterval      background sync period under {@code PERIODIC}
 * @param shardDuration      width of a time shard of a new namespace
 * @param oooToleranceShards shards behind the newest data a write may still land in
 * @param futureTolerance    how far ahead of the clock a timestamp may be
 * @param flushThreshold     a shard's memtable is flushed once it holds about this much, or once its
 *                           shard is closed (more than oooToleranceShards behind the newest data),
 *                           whichever comes first
 * @param memtableBudget     memtable bytes across all open engines; past it the largest is flushed
 * @param idleTimeout        an engine nobody used for this long is flushed and closed
 * @param sweepInterval      how often idle engines and the budget are checked
 * @param maintenanceThreads threads of the shared maintenance scheduler; 0 = half the processors
 * @param storageRetryInterval how often a namespace whose engine met a failed fsync, or could not be
 *                           opened for a storage error, is tried again: the engine is closed (its
 *                           WAL and catalog cut back to what fsyncs covered) and opened again
 * @param diskFreeThreshold  health component {@code diskSpace} is DOWN, and the service not ready,
 *                           while the data directory's file system (or that of {@code namespaces/})
 *                           has less free space than this
 */
@Validated
@ConfigurationProperties("chronix.engine")
public record EngineProperties(
        @NotNull @DefaultValue("PER_BATCH") FsyncPolicy fsyncPolicy,
        @NotNull @DefaultValue("100ms") Duration fsyncInterval,
        @NotNull @DefaultValue("1h") Duration shardDuration,
        @Min(0) @DefaultValue("2") int oooToleranceShards,
        @NotNull @DefaultValue("1h") Duration futureTolerance,
        @NotNull @DefaultValue("64MB") DataSize flushThreshold,
        @NotNull @DefaultValue("512MB") DataSize memtableBudget,
        @NotNull @DefaultValue("10m") Duration idleTimeout,
        @NotNull @DefaultValue("15s") Duration sweepInterval,
        @Min(0) @DefaultValue("0") int maintenanceThreads,
        @NotNull @DefaultValue("10s") Duration storageRetryInterval,
        @NotNull @DefaultValue("64MB") DataSize diskFreeThreshold) {

    /** The engine configuration these defaults give a namespace without settings of its own. */
    public EngineConfig engineConfig() {
        return NamespaceEngineSettings.NONE.apply(this);
    }

    /** Defaults as in the annotations, for tests and embedded use. */
    public static EngineProperties defaults() {
        return new EngineProperties(FsyncPolicy.PER_BATCH, Duration.ofMillis(100), Duration.ofHours(1), 2, Duration.ofHours(1),
                DataSize.ofMegabytes(64), DataSize.ofMegabytes(512), Duration.ofMinutes(10), Duration.ofSeconds(15), 0,
                Duration.ofSeconds(10), DataSize.ofMegabytes(64));
    }
}
