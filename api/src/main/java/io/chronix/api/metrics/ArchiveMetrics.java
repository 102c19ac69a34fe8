package io.chronix.api.metrics;

import io.chronix.api.engine.EngineRegistry;
import io.chronix.archive.parquet.ColdTierMetrics;
import io.chronix.engine.maintenance.MaintenanceScheduler;
import jakarta.annotation.PreDestroy;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Cold-archive meters: {@code chronix_archive_objects_total}, {@code chronix_archive_bytes_total}
 * (objects written, uploaded and verified), {@code chronix_archive_upload_seconds} (count and total
 * of uploads with their read-back), {@code chronix_archive_upload_failures_total},
 * {@code chronix_archive_cache_hits_total} / {@code _misses_total},
 * {@code chronix_archive_download_bytes_total}, {@code chronix_archive_deleted_objects_total}, and
 * {@code chronix_cold_bytes{namespace="<id>"}} for every open engine (namespace ids, never names).
 */
@Component
public class ArchiveMetrics {

    private final MultiGauge coldBytes;
    private final EngineRegistry engines;
    private final ScheduledFuture<?> refresher;

    public ArchiveMetrics(MeterRegistry registry, ColdTierMetrics m, EngineRegistry engines, MaintenanceScheduler scheduler) {
        this.engines = engines;
        FunctionCounter.builder("chronix.archive.objects", m, ColdTierMetrics::objectsArchived).description("Cold objects archived")
                .register(registry);
        FunctionCounter.builder("chronix.archive.bytes", m, ColdTierMetrics::bytesArchived).description("Bytes of cold objects archived")
                .baseUnit("bytes").register(registry);
        FunctionTimer.builder("chronix.archive.upload", m, ColdTierMetrics::uploads, ColdTierMetrics::uploadNanos, TimeUnit.NANOSECONDS)
                .description("Uploads of cold objects with their verifying read-back").register(registry);
        FunctionCounter.builder("chronix.archive.upload.failures", m, ColdTierMetrics::uploadFailures)
                .description("Uploads or verifications that failed (segments stayed hot)").register(registry);
        FunctionCounter.builder("chronix.archive.cache.hits", m, ColdTierMetrics::cacheHits).description("Cold reads served from the local cache")
                .register(registry);
        FunctionCounter.builder("chronix.archive.cache.misses", m, ColdTierMetrics::cacheMisses).description("Cold reads that downloaded the object")
                .register(registry);
        FunctionCounter.builder("chronix.archive.download.bytes", m, ColdTierMetrics::bytesDownloaded).description("Bytes downloaded from the cold store")
                .baseUnit("bytes").register(registry);
        FunctionCounter.builder("chronix.archive.deleted.objects", m, ColdTierMetrics::objectsDeleted).description("Cold objects deleted")
                .register(registry);
        Gauge.builder("chronix.cold.bytes.open.total", engines, e -> e.coldBytesOfOpenEngines().values().stream().mapToLong(Long::longValue).sum())
                .description("Cold bytes of all open namespaces").baseUnit("bytes").register(registry);
        this.coldBytes = MultiGauge.builder("chronix.cold.bytes").description("Cold-tier bytes per open namespace").baseUnit("bytes")
                .register(registry);
        this.refresher = scheduler.scheduleWithFixedDelay(this::refresh, Duration.ofSeconds(15));
    }

    @PreDestroy
    void stop() {
        refresher.cancel(false);
    }

    /** Refreshes the per-namespace rows (every 15 s on the maintenance scheduler, and in tests). */
    public void refresh() {
        List<MultiGauge.Row<?>> rows = engines.coldBytesOfOpenEngines().entrySet().stream()
                .<MultiGauge.Row<?>>map(e -> MultiGauge.Row.of(Tags.of("namespace", Long.toString(e.getKey())), e.getValue()))
                .toList();
        coldBytes.register(rows, true);
    }
}
