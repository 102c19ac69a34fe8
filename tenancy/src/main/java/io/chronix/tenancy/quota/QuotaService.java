package io.chronix.tenancy.quota;

import io.chronix.tenancy.NotFoundException;
import io.chronix.tenancy.TenancyChanges;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;

/** Quotas per tenant: the operator's values, the service defaults, and the effective limits. */
@Service
public class QuotaService {

    private final JdbcClient jdbc;
    private final Quotas defaults;
    private final TenancyChanges changes;

    QuotaService(JdbcClient jdbc, QuotaDefaults defaults, TenancyChanges changes) {
        this.jdbc = jdbc;
        this.defaults = defaults.quotas();
        this.changes = changes;
    }

    public Quotas defaults() {
        return defaults;
    }

    /** The tenant's own values (nulls for defaults); {@link QuotaOverrides#NONE} if it set none. */
    @Transactional(readOnly = true)
    public QuotaOverrides overrides(UUID tenant) {
        return jdbc.sql("SELECT * FROM tenant_quotas WHERE tenant_id = ?").param(tenant)
                .query(QuotaService::row).optional().orElse(QuotaOverrides.NONE);
    }

    /** The limits in force for the tenant. */
    @Transactional(readOnly = true)
    public Quotas effective(UUID tenant) {
        return overrides(tenant).over(defaults);
    }

    /**
     * Replaces all the tenant's values at once (a null field returns to the default).
     *
     * @throws NotFoundException if the tenant does not exist or is deleted
     */
    @Transactional
    public void replace(UUID tenant, QuotaOverrides q) {
        q.check("");
        boolean live = jdbc.sql("SELECT 1 FROM tenants WHERE id = ? AND deleted_at IS NULL FOR UPDATE").param(tenant)
                .query(Integer.class).optional().isPresent();
        if (!live) {
            throw new NotFoundException(NotFoundException.Kind.TENANT, tenant.toString());
        }
        write(jdbc, tenant, q);
        changes.changed(); // cached effective quotas of the tenant must miss from the commit on
    }

    /** Writes the row inside the caller's transaction (tenant creation). */
    public static void write(JdbcClient jdbc, UUID tenant, QuotaOverrides q) {
        jdbc.sql("""
                        INSERT INTO tenant_quotas (tenant_id, max_namespaces, max_series, max_ingest_points_per_second,
                            max_stored_bytes, max_request_bytes, max_retention_ms, query_timeout_ms, max_concurrent_queries)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT (tenant_id) DO UPDATE SET
                            max_namespaces = excluded.max_namespaces, max_series = excluded.max_series,
                            max_ingest_points_per_second = excluded.max_ingest_points_per_second,
                            max_stored_bytes = excluded.max_stored_bytes, max_request_bytes = excluded.max_request_bytes,
                            max_retention_ms = excluded.max_retention_ms, query_timeout_ms = excluded.query_timeout_ms,
                            max_concurrent_queries = excluded.max_concurrent_queries""")
                .params(tenant, q.maxNamespaces(), q.maxSeries(), q.maxIngestPointsPerSecond(), q.maxStoredBytes(),
                        q.maxRequestBytes(), millis(q.maxRetention()), millis(q.queryTimeout()), q.maxConcurrentQueries())
                .update();
    }

    private static Long millis(Duration d) {
        return d == null ? null : d.toMillis();
    }

    private static QuotaOverrides row(ResultSet rs, int n) throws SQLException {
        return new QuotaOverrides(
                rs.getObject("max_namespaces", Integer.class),
                rs.getObject("max_series", Long.class),
                rs.getObject("max_ingest_points_per_second", Long.class),
                rs.getObject("max_stored_bytes", Long.class),
                rs.getObject("max_request_bytes", Long.class),
                duration(rs.getObject("max_retention_ms", Long.class)),
                duration(rs.getObject("query_timeout_ms", Long.class)),
                rs.getObject("max_concurrent_queries", Integer.class));
    }

    private static Duration duration(Long ms) {
        return ms == null ? null : Duration.ofMillis(ms);
    }
}
