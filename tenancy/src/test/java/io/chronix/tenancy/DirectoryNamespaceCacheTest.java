package io.chronix.tenancy;

import io.chronix.tenancy.namespace.Namespace;
import io.chronix.tenancy.namespace.NamespaceService;
import io.chronix.tenancy.quota.QuotaOverrides;
import io.chronix.tenancy.quota.QuotaService;
import io.chronix.tenancy.tenant.NewTenant;
import io.chronix.tenancy.tenant.TenantService;
import io.chronix.tenancy.token.TokenService;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The directory's namespace and quota caches: served while fresh, never past a change made through the services. */
class DirectoryNamespaceCacheTest extends DatabaseTest {

    @Autowired TenancyDirectory directory;
    @Autowired NamespaceService namespaces;
    @Autowired TenantService tenants;
    @Autowired TokenService tokens;
    @Autowired JdbcClient jdbc;
    @Autowired QuotaService quotaService;

    UUID a;
    UUID b;

    @BeforeEach
    void twoTenants() {
        a = tenants.create(new NewTenant("ca" + UUID.randomUUID().toString().substring(0, 8), null, null, null)).tenant().id();
        b = tenants.create(new NewTenant("cb" + UUID.randomUUID().toString().substring(0, 8), null, null, null)).tenant().id();
    }

    @Test
    void aLookupIsServedFromTheCacheUntilTheTtlPasses() throws InterruptedException {
        Namespace ns = namespaces.create(a, "cached", Duration.ofDays(10), null);
        assertThat(directory.namespace(a, "cached")).contains(ns);
        // a change the services do not see (another node, SQL by hand): the cache answers until the TTL passes
        jdbc.sql("UPDATE namespaces SET retention_ms = ? WHERE id = ?").params(Duration.ofDays(3).toMillis(), ns.id()).update();
        assertThat(directory.namespace(a, "cached")).get().extracting(Namespace::retention).isEqualTo(Duration.ofDays(10));
        Thread.sleep(DatabaseTenancyDirectory.NAMESPACE_TTL.toMillis() + 50);
        assertThat(directory.namespace(a, "cached")).get().extracting(Namespace::retention).isEqualTo(Duration.ofDays(3));
    }

    @Test
    void aNamespaceDeletedThroughTheServiceIsNotFoundAtOnce() {
        namespaces.create(a, "doomed", null, null);
        assertThat(directory.namespace(a, "doomed")).isPresent();
        assertThat(namespaces.delete(a, "doomed")).isTrue();
        assertThat(directory.namespace(a, "doomed")).isEmpty();
    }

    @Test
    void aRecreatedNamespaceIsFoundWithItsNewId() {
        Namespace old = namespaces.create(a, "again", null, null);
        assertThat(directory.namespace(a, "again")).contains(old);
        namespaces.delete(a, "again");
        Namespace fresh = namespaces.create(a, "again", null, null);
        assertThat(directory.namespace(a, "again")).get().extracting(Namespace::id).isEqualTo(fresh.id());
    }

    @Test
    void anUpdateThroughTheServiceIsSeenAtOnce() {
        namespaces.create(a, "changing", Duration.ofDays(10), null);
        assertThat(directory.namespace(a, "changing")).get().extracting(Namespace::retention).isEqualTo(Duration.ofDays(10));
        namespaces.update(a, "changing", Duration.ofDays(2), null);
        assertThat(directory.namespace(a, "changing")).get().extracting(Namespace::retention).isEqualTo(Duration.ofDays(2));
    }

    @Test
    void aDeletedTenantsNamespacesAreNotFoundAtOnce() {
        namespaces.create(b, "orphan", null, null);
        assertThat(directory.namespace(b, "orphan")).isPresent();
        assertThat(tenants.delete(b)).isTrue();
        assertThat(directory.namespace(b, "orphan")).isEmpty();
    }

    @Test
    void tenantsNeverSeeEachOthersCachedNamespaces() {
        Namespace mine = namespaces.create(a, "shared-name", null, null);
        assertThat(directory.namespace(a, "shared-name")).contains(mine);
        assertThat(directory.namespace(b, "shared-name")).isEmpty();
        Namespace theirs = namespaces.create(b, "shared-name", null, null);
        assertThat(directory.namespace(b, "shared-name")).contains(theirs);
        assertThat(directory.namespace(a, "shared-name")).contains(mine);
        assertThat(theirs.id()).isNotEqualTo(mine.id());
    }

    @Test
    void everyChangeThatDecidesAccessAdvancesTheGenerationAfterItsCommit() {
        namespaces.create(a, "gen", null, null);
        long g0 = directory.generation();
        namespaces.update(a, "gen", Duration.ofDays(1), null);
        long g1 = directory.generation();
        assertThat(g1).isGreaterThanOrEqualTo(g0 + 2); // once inside the transaction, once after it
        String id = tokens.issue(a, "t", List.of("read:*"), null).info().id();
        assertThat(tokens.revoke(a, id)).isTrue();
        long g2 = directory.generation();
        assertThat(g2).isGreaterThanOrEqualTo(g1 + 2);
        namespaces.delete(a, "gen");
        long g3 = directory.generation();
        assertThat(g3).isGreaterThanOrEqualTo(g2 + 2);
        tenants.delete(a);
        assertThat(directory.generation()).isGreaterThanOrEqualTo(g3 + 2);
    }

    @Test
    void quotasReplacedThroughTheServiceAreSeenAtOnce() {
        assertThat(directory.quotas(a).maxSeries()).isEqualTo(quotaService.defaults().maxSeries());
        quotaService.replace(a, new QuotaOverrides(null, 42L, null, null, null, null, null, 1));
        assertThat(directory.quotas(a).maxSeries()).isEqualTo(42L);
        assertThat(directory.quotas(a).maxConcurrentQueries()).isEqualTo(1);
        quotaService.replace(a, QuotaOverrides.NONE);
        assertThat(directory.quotas(a)).isEqualTo(quotaService.defaults());
    }

    @Test
    void quotasChangedElsewhereAreServedFromTheCacheUntilTheTtlPasses() throws InterruptedException {
        quotaService.replace(a, new QuotaOverrides(null, 42L, null, null, null, null, null, null));
        assertThat(directory.quotas(a).maxSeries()).isEqualTo(42L);
        // another node or SQL by hand: the services do not see it, so the cached limits answer until the TTL passes
        jdbc.sql("UPDATE tenant_quotas SET max_series = 7 WHERE tenant_id = ?").param(a).update();
        assertThat(directory.quotas(a).maxSeries()).isEqualTo(42L);
        Thread.sleep(DatabaseTenancyDirectory.NAMESPACE_TTL.toMillis() + 50);
        assertThat(directory.quotas(a).maxSeries()).isEqualTo(7L);
    }

    @Test
    void tenantsNeverSeeEachOthersCachedQuotas() {
        quotaService.replace(a, new QuotaOverrides(null, 42L, null, null, null, null, null, null));
        assertThat(directory.quotas(a).maxSeries()).isEqualTo(42L);
        assertThat(directory.quotas(b).maxSeries()).isEqualTo(quotaService.defaults().maxSeries());
    }
}
