package io.chronix.tenancy.namespace;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.UUID;

/** Row mapping shared by the namespace services. */
final class NamespaceRows {

    static final String COLUMNS = "id, tenant_id, name, retention_ms, cold_after_ms, settings::text AS settings, created_at";

    private NamespaceRows() {
    }

    static Namespace namespace(ResultSet rs, int n) throws SQLException {
        Long cold = rs.getObject("cold_after_ms", Long.class);
        return new Namespace(rs.getLong("id"), rs.getObject("tenant_id", UUID.class), rs.getString("name"),
                Duration.ofMillis(rs.getLong("retention_ms")), cold == null ? null : Duration.ofMillis(cold),
                rs.getString("settings"), rs.getObject("created_at", OffsetDateTime.class).toInstant());
    }
}
