package io.chronix.tenancy.quota;

import io.chronix.tenancy.DatabaseTest;
import io.chronix.tenancy.InvalidInputException;
import io.chronix.tenancy.NotFoundException;
import io.chronix.tenancy.tenant.NewTenant;
import io.chronix.tenancy.tenant.TenantService;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import java.time.Duration;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class QuotaServiceTest extends DatabaseTest {

    @Autowired QuotaService quotas;
    @Autowired TenantService tenants;

    @Test
    void defaultsComeFromConfigurationAndOverridesReplaceThemFieldByField() {
        UUID t = tenants.create(new NewTenant("q" + UUID.randomUUID().toString().substring(0, 8), null, null, null)).tenant().id();
        assertThat(quotas.effective(t)).isEqualTo(quotas.defaults());
        assertThat(quotas.defaults().maxNamespaces()).isEqualTo(3);

        QuotaOverrides o = new QuotaOverrides(null, 10L, null, null, null, Duration.ofDays(7), Duration.ofSeconds(5), 2);
        quotas.replace(t, o);
        assertThat(quotas.overrides(t)).isEqualTo(o);
        Quotas e = quotas.effective(t);
        assertThat(e.maxSeries()).isEqualTo(10);
        assertThat(e.maxRetention()).isEqualTo(Duration.ofDays(7));
        assertThat(e.maxNamespaces()).isEqualTo(3);

        quotas.replace(t, QuotaOverrides.NONE);
        assertThat(quotas.effective(t)).isEqualTo(quotas.defaults());
    }

    @Test
    void negativeAndAbsurdValuesAreRefusedNamingTheField() {
        UUID t = tenants.create(new NewTenant("q" + UUID.randomUUID().toString().substring(0, 8), null, null, null)).tenant().id();
        assertThatThrownBy(() -> quotas.replace(t, new QuotaOverrides(null, -1L, Long.MAX_VALUE, null, null, null, Duration.ofDays(3), null)))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.errors())
                        .extracting(InvalidInputException.FieldError::field)
                        .containsExactly("maxSeries", "maxIngestPointsPerSecond", "queryTimeout"));
    }

    @Test
    void unknownTenantIsNotFound() {
        assertThatThrownBy(() -> quotas.replace(UUID.randomUUID(), QuotaOverrides.NONE)).isInstanceOf(NotFoundException.class);
    }
}
