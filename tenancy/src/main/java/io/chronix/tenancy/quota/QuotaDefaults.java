package io.chronix.tenancy.quota;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * The service's default limits ({@code chronix.quotas.*}), used wherever a tenant has no value of
 * its own. Checked against the same bounds as an operator's values at start-up.
 */
@ConfigurationProperties("chronix.quotas")
public record QuotaDefaults(
        @DefaultValue("100") int maxNamespaces,
        @DefaultValue("1000000") long maxSeries,
        @DefaultValue("1000000") long maxIngestPointsPerSecond,
        @DefaultValue("107374182400") long maxStoredBytes,
        @DefaultValue("10485760") long maxRequestBytes,
        @DefaultValue("3650d") Duration maxRetention,
        @DefaultValue("30s") Duration queryTimeout,
        @DefaultValue("8") int maxConcurrentQueries) {

    public QuotaDefaults {
        new QuotaOverrides(maxNamespaces, maxSeries, maxIngestPointsPerSecond, maxStoredBytes, maxRequestBytes,
                maxRetention, queryTimeout, maxConcurrentQueries).check("chronix.quotas.");
    }

    public Quotas quotas() {
        return new Quotas(maxNamespaces, maxSeries, maxIngestPointsPerSecond, maxStoredBytes, maxRequestBytes,
                maxRetention, queryTimeout, maxConcurrentQueries);
    }
}
