package io.chronix.api.lifecycle;

import io.chronix.api.engine.EngineRegistry;
import io.chronix.engine.Chronix;
import io.chronix.engine.lifecycle.DiskBudget;
import io.chronix.engine.lifecycle.RetentionResult;
import io.chronix.tenancy.TenancyDirectory;
import io.chronix.tenancy.namespace.Namespace;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The periodic lifecycle pass: every {@code chronix.engine.retention-interval}, each open
 * namespace's retention (read fresh from its record, so a PATCH takes effect at the next pass) is
 * enforced on its engine, then the disk budget across all open engines. Engines that are closed
 * (idle) are not visited: their retention is enforced when they are next open, and their bytes do
 * not count towards the budget meanwhile.
 *
 * <p>Meters: {@code chronix_retention_segments_deleted_total}, {@code chronix_retention_bytes_freed_total},
 * {@code chronix_disk_budget_bytes}, {@code chronix_disk_budget_segments_deleted_total} and
 * {@code chronix_disk_budget_deleted_inside_retention_total} (each also a WARN: budget and
 * retention conflict).
 *
 * <p>Threading: one pass at a time ({@code synchronized}).
 */
@Component
@EnableConfigurationProperties(LifecycleProperties.class)
public class LifecycleMaintenance {

    private static final Logger log = LoggerFactory.getLogger(LifecycleMaintenance.class);

    private final EngineRegistry engines;
    private final TenancyDirectory directory;
    private final DiskBudget budget;
    private final AtomicLong retentionSegments = new AtomicLong();
    private final AtomicLong retentionBytes = new AtomicLong();

    LifecycleMaintenance(EngineRegistry engines, TenancyDirectory directory, LifecycleProperties properties, MeterRegistry meters) {
        this.engines = engines;
        this.directory = directory;
        this.budget = properties.diskBudget() == null ? null : new DiskBudget(properties.diskBudget().toBytes());
        FunctionCounter.builder("chronix.retention.segments.deleted", retentionSegments, AtomicLong::get)
                .description("Segments removed by retention").register(meters);
        FunctionCounter.builder("chronix.retention.bytes.freed", retentionBytes, AtomicLong::get).baseUnit("bytes")
                .description("Segment bytes removed by retention").register(meters);
        if (budget != null) {
            Gauge.builder("chronix.disk.budget.bytes", budget, DiskBudget::budgetBytes).baseUnit("bytes")
                    .description("The process-wide disk budget for segments").register(meters);
            FunctionCounter.builder("chronix.disk.budget.segments.deleted", budget, DiskBudget::segmentsDeleted)
                    .description("Segments removed by the disk budget").register(meters);
            FunctionCounter.builder("chronix.disk.budget.deleted.inside.retention", budget, DiskBudget::segmentsDeletedInsideRetention)
                    .description("Segments the disk budget removed while still inside their retention window").register(meters);
        }
    }

    @Scheduled(initialDelayString = "${chronix.engine.retention-interval:1m}", fixedDelayString = "${chronix.engine.retention-interval:1m}")
    void scheduled() {
        try {
            runOnce();
        } catch (RuntimeException e) {
            log.warn("lifecycle pass failed; retrying at the next pass", e);
        }
    }

    /** One pass: retention of every open namespace, then the disk budget. Returns what retention removed. */
    public synchronized RetentionResult runOnce() {
        RetentionResult[] total = {RetentionResult.NOTHING};
        List<DiskBudget.Member> members = new ArrayList<>();
        engines.forEachOpen((opened, engine) -> {
            Optional<Namespace> fresh = directory.namespace(opened.tenantId(), opened.name());
            if (fresh.isEmpty() || fresh.get().id() != opened.id()) {
                return; // deleted (or renamed away) since it was opened: the reaper owns its data
            }
            Duration retention = fresh.get().retention();
            engine.retention(retention); // a PATCH reaches the engine's own maintenance pass too
            if (retention != null) {
                RetentionResult r = engine.enforceRetention(retention);
                total[0] = total[0].plus(r);
            }
            members.add(member(fresh.get(), engine));
        });
        retentionSegments.addAndGet(total[0].segmentsDeleted());
        retentionBytes.addAndGet(total[0].bytesFreed());
        if (budget != null && !members.isEmpty()) {
            enforceBudget(members);
        }
        return total[0];
    }

    private static DiskBudget.Member member(Namespace ns, Chronix engine) {
        return engine.budgetMember("namespace " + ns.id(), ns::retention);
    }

    private void enforceBudget(List<DiskBudget.Member> members) {
        List<AutoCloseable> handles = new ArrayList<>();
        try {
            members.forEach(m -> handles.add(budget.register(m)));
            budget.enforce();
        } finally {
            for (AutoCloseable h : handles) {
                try {
                    h.close();
                } catch (Exception ignored) {
                    // unregistering cannot fail
                }
            }
        }
    }

    /** The disk budget, if one is configured. */
    public Optional<DiskBudget> diskBudget() {
        return Optional.ofNullable(budget);
    }
}
