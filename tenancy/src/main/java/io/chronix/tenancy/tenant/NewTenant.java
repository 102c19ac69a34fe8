package io.chronix.tenancy.tenant;

import io.chronix.tenancy.quota.QuotaOverrides;

/**
 * What an operator asks for when creating a tenant.
 *
 * @param adminEmail    optional; with it, {@code adminPassword} is required and a console user is created
 * @param adminPassword never logged ({@link #toString()} leaves it out)
 * @param quotas        null or {@link QuotaOverrides#NONE} for the service defaults
 */
public record NewTenant(String name, String adminEmail, String adminPassword, QuotaOverrides quotas) {

    @Override
    public String toString() {
        return "NewTenant[name=" + name + ", adminEmail=" + adminEmail + ", quotas=" + quotas + "]";
    }
}
