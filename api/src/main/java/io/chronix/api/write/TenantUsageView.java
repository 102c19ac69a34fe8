package io.chronix.api.write;

import io.chronix.tenancy.usage.NamespaceUsage;
import io.chronix.tenancy.usage.TenantUsage;
import io.chronix.tenancy.usage.UsageService;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * A tenant's series and stored bytes for quota checks, without a database round trip per write:
 * the tenant's totals from the usage table (refreshed at most every {@code refreshNanos}), with
 * each namespace this process writes to replaced by its engine's exact series count. The usage
 * table itself is kept current by {@link UsageReporter}.
 *
 * <p>Threading: thread-safe.
 */
final class TenantUsageView {

    private final UsageService usage;
    private final LongSupplier nanoTime;
    private final long refreshNanos;
    private final Map<UUID, Snapshot> snapshots = new ConcurrentHashMap<>();
    /** namespace id → exact series count from its engine, and the tenant it belongs to. */
    private final Map<Long, Exact> exact = new ConcurrentHashMap<>();

    private record Exact(UUID tenant, long series) {
    }

    /** The table's view at one moment, with the table's per-namespace series of the namespaces known then. */
    private record Snapshot(long at, long series, long storedBytes, Map<Long, Long> seriesAtSnapshot) {
    }

    TenantUsageView(UsageService usage, LongSupplier nanoTime, long refreshNanos) {
        this.usage = usage;
        this.nanoTime = nanoTime;
        this.refreshNanos = refreshNanos;
    }

    /** The namespace's engine now holds {@code series} series. */
    void seriesNow(UUID tenant, long namespaceId, long series) {
        if (exact.put(namespaceId, new Exact(tenant, series)) == null) {
            snapshots.remove(tenant); // the next check takes the table's value of this namespace out of the total
        }
    }

    void forget(long namespaceId) {
        exact.remove(namespaceId);
    }

    long series(UUID tenant) {
        Snapshot s = snapshot(tenant);
        long total = s.series;
        for (Map.Entry<Long, Exact> e : exact.entrySet()) {
            if (e.getValue().tenant().equals(tenant)) {
                Long before = s.seriesAtSnapshot.get(e.getKey());
                // null only between the put above and the refresh it forces
                total += e.getValue().series() - (before == null ? 0 : before);
            }
        }
        return Math.max(0, total);
    }

    long storedBytes(UUID tenant) {
        return snapshot(tenant).storedBytes;
    }

    /** Drops the cached totals (after the reporter wrote the table). */
    void invalidate() {
        snapshots.clear();
    }

    private Snapshot snapshot(UUID tenant) {
        long now = nanoTime.getAsLong();
        Snapshot s = snapshots.get(tenant);
        if (s != null && now - s.at < refreshNanos) {
            return s;
        }
        List<Long> known = new ArrayList<>();
        exact.forEach((id, e) -> {
            if (e.tenant().equals(tenant)) {
                known.add(id);
            }
        });
        Map<Long, NamespaceUsage> rows = usage.ofNamespaces(tenant, known);
        TenantUsage t = usage.ofTenant(tenant);
        Map<Long, Long> at = new ConcurrentHashMap<>();
        rows.forEach((id, u) -> at.put(id, u.series()));
        for (Long id : known) {
            at.putIfAbsent(id, 0L);
        }
        s = new Snapshot(now, t.series(), t.storedBytes(), at);
        snapshots.put(tenant, s);
        return s;
    }
}
