package io.chronix.tenancy.tenant;

import io.chronix.tenancy.InvalidInputException;
import io.chronix.tenancy.NameTakenException;
import io.chronix.tenancy.Page;
import io.chronix.tenancy.ResourceName;
import io.chronix.tenancy.TenancyChanges;
import io.chronix.tenancy.namespace.NamespaceService;
import io.chronix.tenancy.quota.QuotaOverrides;
import io.chronix.tenancy.quota.QuotaService;
import io.chronix.tenancy.token.IssuedToken;
import io.chronix.tenancy.token.TokenService;
import io.chronix.tenancy.user.UserService;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Tenants, as the operator manages them. Creation writes the tenant, its console user, its quotas
 * and its first admin token in one transaction; deletion marks the tenant and all its namespaces
 * deleted, queues their data for removal and removes its tokens, users, quotas and usage, also in
 * one transaction.
 */
@Service
public class TenantService {

    static final List<String> ADMIN_SCOPES = List.of("admin:*", "read:*", "write:*");

    private final JdbcClient jdbc;
    private final UserService users;
    private final TokenService tokens;
    private final TenancyChanges changes;

    TenantService(JdbcClient jdbc, UserService users, TokenService tokens, TenancyChanges changes) {
        this.jdbc = jdbc;
        this.users = users;
        this.tokens = tokens;
        this.changes = changes;
    }

    @Transactional
    public CreatedTenant create(NewTenant request) {
        List<InvalidInputException.FieldError> errors = new ArrayList<>();
        collect(errors, () -> ResourceName.check("name", request.name()));
        QuotaOverrides quotas = request.quotas() == null ? QuotaOverrides.NONE : request.quotas();
        collect(errors, () -> quotas.check("quotas."));
        String[] email = new String[1];
        if (request.adminEmail() != null || request.adminPassword() != null) {
            collect(errors, () -> email[0] = UserService.check("adminEmail", request.adminEmail(), "adminPassword", request.adminPassword()));
        }
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
        if (findByName(request.name()).isPresent()) {
            throw new NameTakenException("name", request.name());
        }
        Tenant tenant;
        try {
            tenant = jdbc.sql("INSERT INTO tenants (name) VALUES (?) RETURNING id, name, created_at").param(request.name())
                    .query(TenantService::row).single();
        } catch (DuplicateKeyException e) {
            throw new NameTakenException("name", request.name());
        }
        if (email[0] != null) {
            users.create(tenant.id(), "adminEmail", email[0], request.adminPassword());
        }
        QuotaService.write(jdbc, tenant.id(), quotas);
        IssuedToken token = tokens.issue(tenant.id(), "admin token created with the tenant", ADMIN_SCOPES, null);
        return new CreatedTenant(tenant, token);
    }

    @Transactional(readOnly = true)
    public List<Tenant> list(Page page) {
        return jdbc.sql("SELECT id, name, created_at FROM tenants WHERE deleted_at IS NULL ORDER BY name LIMIT ? OFFSET ?")
                .params(page.limit(), page.offset()).query(TenantService::row).list();
    }

    @Transactional(readOnly = true)
    public Optional<Tenant> find(UUID id) {
        return jdbc.sql("SELECT id, name, created_at FROM tenants WHERE id = ? AND deleted_at IS NULL").param(id)
                .query(TenantService::row).optional();
    }

    @Transactional(readOnly = true)
    public Optional<Tenant> findByName(String name) {
        if (!ResourceName.isValid(name)) {
            return Optional.empty();
        }
        return jdbc.sql("SELECT id, name, created_at FROM tenants WHERE name = ? AND deleted_at IS NULL").param(name)
                .query(TenantService::row).optional();
    }

    /**
     * Deletes the tenant: every request with its tokens fails and every lookup of its namespaces
     * misses from the commit on; their data is removed in the background.
     *
     * @return false if there was no live tenant of that id
     */
    @Transactional
    public boolean delete(UUID id) {
        changes.changed(); // its tokens and namespaces: cached lookups must miss from the commit on
        int marked = jdbc.sql("UPDATE tenants SET deleted_at = now() WHERE id = ? AND deleted_at IS NULL").param(id).update();
        if (marked == 0) {
            return false;
        }
        NamespaceService.deleteAllOf(jdbc, id);
        jdbc.sql("DELETE FROM api_tokens WHERE tenant_id = ?").param(id).update();
        jdbc.sql("DELETE FROM users WHERE tenant_id = ?").param(id).update();
        jdbc.sql("DELETE FROM tenant_quotas WHERE tenant_id = ?").param(id).update();
        return true;
    }

    private static void collect(List<InvalidInputException.FieldError> errors, Runnable check) {
        try {
            check.run();
        } catch (InvalidInputException e) {
            errors.addAll(e.errors());
        }
    }

    private static Tenant row(ResultSet rs, int n) throws SQLException {
        return new Tenant(rs.getObject("id", UUID.class), rs.getString("name"), rs.getObject("created_at", OffsetDateTime.class).toInstant());
    }
}
