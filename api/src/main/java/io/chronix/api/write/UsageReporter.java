package io.chronix.api.write;

import io.chronix.api.archive.ColdTiers;
import io.chronix.api.archive.SegmentsArchived;
import io.chronix.api.engine.EngineRegistry;
import io.chronix.api.namespace.NamespaceLocations;
import io.chronix.engine.storage.NamespaceId;
import io.chronix.tenancy.usage.UsageService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import jakarta.annotation.PreDestroy;
import org.springframework.context.event.EventListener;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Usage counters to PostgreSQL in the background, never on the write path: the write path adds
 * points here (a map update); every {@code chronix.usage.report-interval} (default 5 s), and once
 * more at shutdown, each namespace written since gets its points added and its series count and
 * stored bytes set: hot (the size of its engine directory, the local cache of cold objects and the
 * zeros its WAL preallocated past its records left out) plus cold (the archived objects its engine's catalog records), which is what
 * {@code maxStoredBytes} limits.
 *
 * <p>Threading: thread-safe; reports run on Spring's scheduler, one at a time.
 */
@Component
class UsageReporter {

    private static final Logger log = LoggerFactory.getLogger(UsageReporter.class);

    private final UsageService usage;
    private final NamespaceLocations locations;
    private final TenantUsageView view;
    private final Map<Long, Pending> pending = new ConcurrentHashMap<>();

    private static final class Pending {
        final AtomicLong points = new AtomicLong();
        volatile long series;
    }

    private final EngineRegistry engines;

    UsageReporter(UsageService usage, NamespaceLocations locations, EngineRegistry engines) {
        this.usage = usage;
        this.locations = locations;
        this.engines = engines;
        this.view = new TenantUsageView(usage, System::nanoTime, 5_000_000_000L);
    }

    TenantUsageView view() {
        return view;
    }

    /**
     * A last report at shutdown, while the database is still there — waited for at most 5 s, so a
     * database that is already gone (its own shutdown hook ran first) does not hold the shutdown
     * for the pool's connection timeout.
     */
    @PreDestroy
    void reportAtShutdown() {
        Thread t = Thread.ofVirtual().name("usage-report-at-shutdown").start(() -> {
            try {
                report();
            } catch (RuntimeException e) {
                log.warn("usage report at shutdown failed", e);
            }
        });
        try {
            if (!t.join(java.time.Duration.ofSeconds(5))) {
                log.warn("usage report at shutdown did not finish in 5 s; points since the last report are not counted");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    void wrote(long namespaceId, long points, long seriesNow) {
        Pending p = pending.computeIfAbsent(namespaceId, id -> new Pending());
        p.points.addAndGet(points);
        p.series = seriesNow;
    }

    /**
     * An archiving pass moved segments to the cold tier: what the namespace stores changed
     * without a write, so it is reported at the next pass like a write of no points.
     */
    @EventListener
    void archived(SegmentsArchived e) {
        pending.computeIfAbsent(e.namespaceId(), id -> new Pending()).series = e.seriesNow();
    }

    void forget(long namespaceId) {
        pending.remove(namespaceId);
    }

    @Scheduled(initialDelayString = "${chronix.usage.report-interval:PT5S}", fixedDelayString = "${chronix.usage.report-interval:PT5S}")
    synchronized void report() {
        if (pending.isEmpty()) {
            return;
        }
        Map<Long, Long> coldOfOpen = engines.coldBytesOfOpenEngines(); // written since the last report: open
        Map<Long, Long> walZerosOfOpen = engines.walPreallocationOfOpenEngines();
        for (Long id : pending.keySet().toArray(Long[]::new)) {
            Pending p = pending.remove(id);
            if (p == null) {
                continue;
            }
            long points = p.points.get();
            try {
                if (points > 0) {
                    usage.addPointsWritten(id, points);
                }
                long cold = coldOfOpen.getOrDefault(id, 0L);
                long hot = Math.max(0, directorySize(locations.directory(new NamespaceId(id))) - walZerosOfOpen.getOrDefault(id, 0L));
                usage.report(id, p.series, hot + cold, cold);
            } catch (RuntimeException e) {
                // keep the count for the next pass
                Pending back = pending.computeIfAbsent(id, k -> new Pending());
                back.points.addAndGet(points);
                if (back.series == 0) {
                    back.series = p.series;
                }
                log.warn("usage report failed; retrying at the next pass [namespace={}]", id, e);
            }
        }
        view.invalidate();
    }

    static long directorySize(Path dir) {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        Path coldCache = dir.resolve(ColdTiers.CACHE_DIRECTORY); // copies of cold objects: counted as cold bytes instead
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(f -> !f.startsWith(coldCache)).mapToLong(f -> {
                try {
                    return Files.isRegularFile(f) ? Files.size(f) : 0;
                } catch (NoSuchFileException e) {
                    return 0; // removed by a flush or compaction meanwhile
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).sum();
        } catch (IOException | UncheckedIOException e) {
            log.debug("could not size {}", dir, e);
            return 0;
        }
    }
}
