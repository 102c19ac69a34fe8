package io.chronix.api.metrics;

import io.chronix.api.engine.EngineRegistry;
import io.chronix.engine.cache.BlockCache;
import io.chronix.engine.maintenance.MaintenanceScheduler;
import io.chronix.api.namespace.NamespaceLocations;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.stereotype.Component;

/**
 * Engine meters, read from the registry when scraped: {@code chronix_open_engines},
 * {@code chronix_memtable_bytes}, {@code chronix_memtable_budget_bytes},
 * {@code chronix_memtable_budget_flushes_total}, {@code chronix_engine_opens_total},
 * {@code chronix_engine_idle_closes_total}, {@code chronix_maintenance_runs_total} (flushes and
 * other maintenance), and the WAL counters summed over every engine the process opened, closed ones
 * included: {@code chronix_wal_truncations_total} (torn tails cut at recovery),
 * {@code chronix_wal_fsyncs_total}, {@code chronix_wal_fsync_failures_total},
 * {@code chronix_wal_records_total}, {@code chronix_wal_bytes_total} — records per fsync is the
 * group-commit size; write backpressure: {@code chronix_backpressure_delay_seconds} (the delay
 * a write to the most compaction-starved open engine gets now) and
 * {@code chronix_backpressure_delayed_seconds_total} (time writes spent delayed). Caches:
 * {@code chronix_last_value_hits_total} / {@code _misses_total} (answered without I/O / by a
 * reverse segment scan, all engines), and the process-wide block cache ({@link BlockCache#shared()},
 * which every engine of the service reads through): {@code chronix_block_cache_hits_total},
 * {@code _misses_total}, {@code _evictions_total}, {@code chronix_block_cache_bytes} and
 * {@code chronix_block_cache_max_bytes}.
 */
@Component
public class EngineMetrics {

    public EngineMetrics(MeterRegistry registry, EngineRegistry engines, MaintenanceScheduler scheduler, NamespaceLocations locations) {
        FunctionCounter.builder("chronix.namespace.directories.quarantined", locations, NamespaceLocations::quarantined)
                .description("Namespace directories moved to <data>/quarantine: no row, or an identity of another namespace or tenant")
                .register(registry);
        Gauge.builder("chronix.open.engines", engines, EngineRegistry::openEngines).description("Engines open").register(registry);
        Gauge.builder("chronix.memtable.bytes", engines, EngineRegistry::memtableBytes).description("Memtable bytes of all open engines")
                .baseUnit("bytes").register(registry);
        Gauge.builder("chronix.memtable.budget.bytes", engines, EngineRegistry::memtableBudgetBytes).description("Memtable budget")
                .baseUnit("bytes").register(registry);
        FunctionCounter.builder("chronix.memtable.budget.flushes", engines, EngineRegistry::budgetFlushes)
                .description("Flushes forced by the memtable budget").register(registry);
        FunctionCounter.builder("chronix.engine.opens", engines, EngineRegistry::opens).description("Engine opens").register(registry);
        Gauge.builder("chronix.engine.storage.failures", engines, e -> e.storageFailures().size())
                .description("Namespaces whose engine failed an fsync or could not be opened for a storage error").register(registry);
        FunctionCounter.builder("chronix.engine.storage.reopens", engines, EngineRegistry::storageReopens)
                .description("Engines opened again after a storage failure").register(registry);
        FunctionCounter.builder("chronix.engine.idle.closes", engines, EngineRegistry::idleCloses).description("Idle engines closed")
                .register(registry);
        FunctionCounter.builder("chronix.maintenance.runs", scheduler, MaintenanceScheduler::runs)
                .description("Maintenance task runs (flushes and others)").register(registry);
        FunctionCounter.builder("chronix.wal.truncations", engines, e -> e.walTotals().truncations())
                .description("Torn WAL tails cut off at recovery").register(registry);
        FunctionCounter.builder("chronix.wal.fsyncs", engines, e -> e.walTotals().syncs()).description("WAL fsyncs").register(registry);
        FunctionCounter.builder("chronix.wal.fsync.failures", engines, e -> e.walTotals().failedSyncs()).description("Failed WAL fsyncs")
                .register(registry);
        FunctionCounter.builder("chronix.wal.records", engines, e -> e.walTotals().records()).description("WAL records appended")
                .register(registry);
        Gauge.builder("chronix.backpressure.delay", engines, e -> e.backpressureDelayNanos() / 1e9)
                .description("Delay a write gets now from backpressure (too many segments awaiting compaction), worst open engine")
                .baseUnit("seconds").register(registry);
        FunctionCounter.builder("chronix.backpressure.delayed", engines, e -> e.backpressureTotalNanos() / 1e9)
                .description("Time writes spent delayed by backpressure").baseUnit("seconds").register(registry);
        FunctionCounter.builder("chronix.wal.bytes", engines, e -> e.walTotals().bytes()).description("WAL bytes appended")
                .baseUnit("bytes").register(registry);
        FunctionCounter.builder("chronix.last.value.hits", engines, e -> e.lastValueTotals()[0])
                .description("Last values answered from the cache without I/O").register(registry);
        FunctionCounter.builder("chronix.last.value.misses", engines, e -> e.lastValueTotals()[1])
                .description("Last values that needed a reverse segment scan").register(registry);
        BlockCache blocks = BlockCache.shared();
        FunctionCounter.builder("chronix.block.cache.hits", blocks, b -> b.stats().hits()).description("Decoded blocks found in the cache")
                .register(registry);
        FunctionCounter.builder("chronix.block.cache.misses", blocks, b -> b.stats().misses()).description("Blocks read and decoded")
                .register(registry);
        FunctionCounter.builder("chronix.block.cache.evictions", blocks, b -> b.stats().evictions())
                .description("Blocks evicted by the size bound").register(registry);
        Gauge.builder("chronix.block.cache.bytes", blocks, b -> b.stats().weightBytes()).description("Bytes held by the block cache")
                .baseUnit("bytes").register(registry);
        Gauge.builder("chronix.block.cache.max.bytes", blocks, BlockCache::maxBytes).description("The block cache's size bound")
                .baseUnit("bytes").register(registry);
    }
}
