package io.chronix.tenancy.usage;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Usage per namespace, reported by the data plane, summed per tenant for the usage endpoint.
 * Reports for a deleted namespace are ignored (its usage row is gone).
 */
@Service
public class UsageService {

    private final JdbcClient jdbc;

    UsageService(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Sets the namespace's current series count and stored bytes (hot + cold). */
    @Transactional
    public void report(long namespaceId, long series, long storedBytes, long coldBytes) {
        if (series < 0 || storedBytes < 0 || coldBytes < 0 || coldBytes > storedBytes) {
            throw new IllegalArgumentException("usage must not be negative, nor cold bytes more than stored [series=" + series
                    + ", storedBytes=" + storedBytes + ", coldBytes=" + coldBytes + "]");
        }
        jdbc.sql("UPDATE namespace_usage SET series = ?, stored_bytes = ?, cold_bytes = ?, updated_at = now() WHERE namespace_id = ?")
                .params(series, storedBytes, coldBytes, namespaceId).update();
    }

    /** Adds to the namespace's count of points written. */
    @Transactional
    public void addPointsWritten(long namespaceId, long points) {
        if (points < 0) {
            throw new IllegalArgumentException("points must not be negative [points=" + points + "]");
        }
        jdbc.sql("UPDATE namespace_usage SET points_written = points_written + ?, updated_at = now() WHERE namespace_id = ?")
                .params(points, namespaceId).update();
    }

    /** Usage of the given namespaces of the tenant, by namespace id; missing ids read as empty. */
    @Transactional(readOnly = true)
    public Map<Long, NamespaceUsage> ofNamespaces(UUID tenant, List<Long> ids) {
        Map<Long, NamespaceUsage> out = new HashMap<>();
        if (ids.isEmpty()) {
            return out;
        }
        jdbc.sql("""
                        SELECT u.namespace_id, u.series, u.stored_bytes, u.points_written, u.cold_bytes FROM namespace_usage u
                        JOIN namespaces n ON n.id = u.namespace_id WHERE n.tenant_id = ? AND u.namespace_id = ANY(?)""")
                .params(tenant, ids.toArray(Long[]::new))
                .query((rs, n) -> new NamespaceUsage(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5)))
                .list().forEach(u -> out.put(u.namespaceId(), u));
        return out;
    }

    /** The tenant's totals over its live namespaces. */
    @Transactional(readOnly = true)
    public TenantUsage ofTenant(UUID tenant) {
        return jdbc.sql("""
                        SELECT count(n.id), coalesce(sum(u.series), 0), coalesce(sum(u.stored_bytes), 0),
                               coalesce(sum(u.points_written), 0), max(n.retention_ms)
                        FROM namespaces n LEFT JOIN namespace_usage u ON u.namespace_id = n.id
                        WHERE n.tenant_id = ? AND n.deleted_at IS NULL""")
                .param(tenant)
                .query((rs, n) -> {
                    Long ms = rs.getObject(5, Long.class);
                    return new TenantUsage(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4),
                            ms == null ? null : Duration.ofMillis(ms));
                })
                .single();
    }
}
