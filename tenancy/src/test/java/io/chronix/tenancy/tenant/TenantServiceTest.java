package io.chronix.tenancy.tenant;

import io.chronix.tenancy.DatabaseTest;
import io.chronix.tenancy.InvalidInputException;
import io.chronix.tenancy.NameTakenException;
import io.chronix.tenancy.Page;
import io.chronix.tenancy.namespace.NamespaceService;
import io.chronix.tenancy.namespace.PendingDeletions;
import io.chronix.tenancy.quota.QuotaOverrides;
import io.chronix.tenancy.quota.QuotaService;
import io.chronix.tenancy.token.TokenService;
import io.chronix.tenancy.user.UserService;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.time.Duration;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TenantServiceTest extends DatabaseTest {

    @Autowired TenantService tenants;
    @Autowired TokenService tokens;
    @Autowired UserService users;
    @Autowired NamespaceService namespaces;
    @Autowired QuotaService quotas;
    @Autowired PendingDeletions pending;
    @Autowired JdbcClient jdbc;

    private static String unique(String prefix) {
        return prefix + UUID.randomUUID().toString().substring(0, 8);
    }

    @Test
    void createdTenantHasUserQuotasAndAWorkingAdminToken() {
        String name = unique("acme-");
        CreatedTenant created = tenants.create(new NewTenant(name, name + "@Example.COM", "correct horse battery",
                new QuotaOverrides(5, null, null, null, null, null, null, null)));
        assertThat(created.tenant().name()).isEqualTo(name);
        assertThat(created.adminToken().token()).startsWith("cx_" + created.adminToken().info().id() + "_");
        assertThat(tokens.verify(created.adminToken().token())).get()
                .satisfies(v -> assertThat(v.tenantId()).isEqualTo(created.tenant().id()))
                .satisfies(v -> assertThat(v.scopes()).extracting(Object::toString).containsExactlyInAnyOrder("admin:*", "read:*", "write:*"));
        assertThat(users.findByEmail(name + "@example.com")).get()
                .satisfies(u -> assertThat(users.encoder().matches("correct horse battery", u.passwordHash())).isTrue());
        assertThat(quotas.effective(created.tenant().id()).maxNamespaces()).isEqualTo(5);
        assertThat(quotas.effective(created.tenant().id()).maxSeries()).isEqualTo(quotas.defaults().maxSeries());
        assertThat(tenants.find(created.tenant().id())).contains(created.tenant());
        assertThat(tenants.list(new Page(1000, 0))).contains(created.tenant());
    }

    @Test
    void duplicateNameIsRefusedAndADeletedNameIsFreeAgain() {
        String name = unique("dup-");
        CreatedTenant first = tenants.create(new NewTenant(name, null, null, null));
        assertThatThrownBy(() -> tenants.create(new NewTenant(name, null, null, null)))
                .isInstanceOfSatisfying(NameTakenException.class, e -> assertThat(e.field()).isEqualTo("name"));
        assertThat(tenants.delete(first.tenant().id())).isTrue();
        assertThat(tenants.create(new NewTenant(name, null, null, null)).tenant().id()).isNotEqualTo(first.tenant().id());
    }

    @Test
    void everyBadFieldIsNamedAtOnce() {
        assertThatThrownBy(() -> tenants.create(new NewTenant("../x", "not-an-email", "short",
                new QuotaOverrides(-1, null, null, null, 0L, Duration.ofDays(100_000), null, null))))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.errors())
                        .extracting(InvalidInputException.FieldError::field)
                        .containsExactlyInAnyOrder("name", "quotas.maxNamespaces", "quotas.maxRequestBytes", "quotas.maxRetention",
                                "adminEmail", "adminPassword"));
    }

    @Test
    void aTakenEmailLeavesNothingHalfWritten() {
        String email = unique("u") + "@example.com";
        tenants.create(new NewTenant(unique("first-"), email, "a good password", null));
        String second = unique("second-");
        long before = jdbc.sql("SELECT count(*) FROM tenants").query(Long.class).single();
        assertThatThrownBy(() -> tenants.create(new NewTenant(second, email.toUpperCase(), "a good password", null)))
                .isInstanceOfSatisfying(NameTakenException.class, e -> assertThat(e.field()).isEqualTo("adminEmail"));
        assertThat(jdbc.sql("SELECT count(*) FROM tenants").query(Long.class).single()).isEqualTo(before);
        assertThat(tenants.findByName(second)).isEmpty();
    }

    @Test
    void deletingATenantRemovesTokensUsersQuotasAndQueuesEveryNamespace() {
        String name = unique("gone-");
        CreatedTenant t = tenants.create(new NewTenant(name, name + "@example.com", "a good password",
                new QuotaOverrides(null, 7L, null, null, null, null, null, null)));
        UUID id = t.tenant().id();
        namespaces.create(id, "a", null, null);
        namespaces.create(id, "b", Duration.ofDays(1), null);
        long queued = pending.count();

        assertThat(tenants.delete(id)).isTrue();

        assertThat(tenants.find(id)).isEmpty();
        assertThat(tenants.delete(id)).isFalse();
        assertThat(tokens.verify(t.adminToken().token())).isEmpty();
        assertThat(users.findByEmail(name + "@example.com")).isEmpty();
        assertThat(namespaces.find(id, "a")).isEmpty();
        assertThat(pending.count()).isEqualTo(queued + 2);
        assertThat(jdbc.sql("SELECT count(*) FROM api_tokens WHERE tenant_id = ?").param(id).query(Long.class).single()).isZero();
        assertThat(jdbc.sql("SELECT count(*) FROM tenant_quotas WHERE tenant_id = ?").param(id).query(Long.class).single()).isZero();
        assertThat(jdbc.sql("SELECT count(*) FROM namespace_usage u JOIN namespaces n ON n.id = u.namespace_id WHERE n.tenant_id = ?")
                .param(id).query(Long.class).single()).isZero();
    }
}
