package io.chronix.tenancy;

import java.util.UUID;

/**
 * The operation would exceed one of the tenant's limits (a quota such as {@code maxNamespaces} or
 * {@code maxRetention}). Retrying does not help until the limit or the usage changes.
 *
 * @param limit the quota's API name ({@code maxNamespaces})
 * @param value the quota's value, as shown in the API ({@code 10}, {@code P30D})
 */
public final class LimitExceededException extends TenancyException {

    private final UUID tenant;
    private final String limit;
    private final String value;

    public LimitExceededException(UUID tenant, String limit, String value, String message) {
        super(message + " [tenant=" + tenant + ", limit=" + limit + ", value=" + value + "]");
        this.tenant = tenant;
        this.limit = limit;
        this.value = value;
    }

    public UUID tenant() {
        return tenant;
    }

    public String limit() {
        return limit;
    }

    public String value() {
        return value;
    }
}
