package io.chronix.tenancy.usage;

import io.chronix.tenancy.DatabaseTest;
import io.chronix.tenancy.namespace.Namespace;
import io.chronix.tenancy.namespace.NamespaceService;
import io.chronix.tenancy.tenant.NewTenant;
import io.chronix.tenancy.tenant.TenantService;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

class UsageServiceTest extends DatabaseTest {

    @Autowired UsageService usage;
    @Autowired NamespaceService namespaces;
    @Autowired TenantService tenants;

    @Test
    void reportsAreSummedOverTheTenantsLiveNamespaces() {
        UUID t = tenants.create(new NewTenant("u" + UUID.randomUUID().toString().substring(0, 8), null, null, null)).tenant().id();
        Namespace x = namespaces.create(t, "x", Duration.ofDays(3), null);
        Namespace y = namespaces.create(t, "y", Duration.ofDays(9), null);
        usage.report(x.id(), 10, 1000, 400);
        usage.report(y.id(), 5, 500, 0);
        usage.addPointsWritten(x.id(), 7);
        usage.addPointsWritten(x.id(), 3);
        assertThat(usage.ofTenant(t)).isEqualTo(new TenantUsage(2, 15, 1500, 10, Duration.ofDays(9)));
        assertThat(usage.ofNamespaces(t, List.of(x.id(), y.id())).get(x.id())).isEqualTo(new NamespaceUsage(x.id(), 10, 1000, 10, 400));

        namespaces.delete(t, "y");
        usage.report(y.id(), 99, 99, 0); // late report of a deleted namespace: ignored
        assertThat(usage.ofTenant(t)).isEqualTo(new TenantUsage(1, 10, 1000, 10, Duration.ofDays(3)));
    }

    @Test
    void aTenantWithoutNamespacesUsesNothing() {
        UUID t = tenants.create(new NewTenant("u" + UUID.randomUUID().toString().substring(0, 8), null, null, null)).tenant().id();
        assertThat(usage.ofTenant(t)).isEqualTo(new TenantUsage(0, 0, 0, 0, null));
    }
}
