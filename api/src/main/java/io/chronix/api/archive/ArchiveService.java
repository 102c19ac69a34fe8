package io.chronix.api.archive;

import io.chronix.api.engine.EngineRegistry;
import io.chronix.api.engine.NamespaceGoneException;
import io.chronix.api.namespace.NamespaceLocations;
import io.chronix.engine.archive.ArchiveReport;
import io.chronix.engine.maintenance.MaintenanceScheduler;
import io.chronix.tenancy.namespace.Namespace;
import io.chronix.tenancy.namespace.NamespaceService;
import jakarta.annotation.PreDestroy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;

import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledFuture;

/**
 * Runs archiving passes: for one namespace on request, and for every namespace with data on the
 * shared maintenance scheduler every {@link ArchiveProperties#interval()}. A namespace's cutoff is
 * its own {@code coldAfter}, else {@link ArchiveProperties#coldAfter()}.
 */
@Service
public class ArchiveService {

    private static final Logger log = LoggerFactory.getLogger(ArchiveService.class);
    private static final int PAGE = 200;

    private final EngineRegistry engines;
    private final NamespaceService namespaces;
    private final NamespaceLocations locations;
    private final ArchiveProperties properties;
    private final ApplicationEventPublisher events;
    private final ScheduledFuture<?> periodic;

    ArchiveService(EngineRegistry engines, NamespaceService namespaces, NamespaceLocations locations, ArchiveProperties properties,
                   MaintenanceScheduler scheduler, ApplicationEventPublisher events) {
        this.engines = engines;
        this.events = events;
        this.namespaces = namespaces;
        this.locations = locations;
        this.properties = properties;
        this.periodic = properties.enabled() ? scheduler.scheduleWithFixedDelay(this::passOverAllQuietly, properties.interval()) : null;
    }

    /** The cutoff age of a namespace. */
    public Duration coldAfter(Namespace ns) {
        return ns.coldAfter() != null ? ns.coldAfter() : properties.coldAfter();
    }

    /**
     * One pass over one namespace, now; with {@code flushFirst} the memtables are flushed before,
     * so points old enough but not yet in a segment move too (the endpoint does this; the periodic
     * pass does not, so it never cuts small segments — idle closes and the flush threshold seal
     * memtables anyway).
     */
    public ArchiveReport archive(Namespace ns, boolean flushFirst) {
        long[] series = {0};
        ArchiveReport r = engines.apply(ns, c -> {
            if (flushFirst) {
                c.flush();
            }
            ArchiveReport report = c.archive(coldAfter(ns));
            series[0] = c.seriesCount();
            return report;
        });
        if (r.segments() > 0) {
            events.publishEvent(new SegmentsArchived(ns.id(), series[0])); // hot bytes became cold: usage is reported again
        }
        if (r.segments() > 0 || r.failure().isPresent()) {
            log.info("archiving pass [namespace={}, segments={}, rows={}, hotBytes={}, objectBytes={}, pending={}, failure={}]", ns.id(),
                    r.segments(), r.rows(), r.hotBytes(), r.objectBytes(), r.pending(), r.failure().orElse("none"));
        }
        return r;
    }

    /** One pass over every namespace that has an engine directory; returns the segments moved. */
    public int passOverAll() {
        int moved = 0;
        long after = 0;
        while (true) {
            List<Namespace> page = namespaces.allAfter(after, PAGE);
            for (Namespace ns : page) {
                after = ns.id();
                if (!locations.hasEngineData(NamespaceLocations.engineId(ns))) {
                    continue; // never written: nothing to archive, and no engine to open for it
                }
                try {
                    moved += archive(ns, false).segments();
                } catch (NamespaceGoneException e) {
                    // deleted meanwhile
                } catch (RuntimeException e) {
                    log.warn("archiving pass failed; the next pass retries [namespace={}]", ns.id(), e);
                }
            }
            if (page.size() < PAGE) {
                return moved;
            }
        }
    }

    private void passOverAllQuietly() {
        try {
            passOverAll();
        } catch (RuntimeException e) {
            log.warn("periodic archiving pass failed; retrying at the next interval", e);
        }
    }

    @PreDestroy
    void stop() {
        if (periodic != null) {
            periodic.cancel(false);
        }
    }
}
