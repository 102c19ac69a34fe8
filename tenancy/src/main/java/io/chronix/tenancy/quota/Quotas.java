package io.chronix.tenancy.quota;

import java.time.Duration;

/**
 * A tenant's effective limits: its own values where the operator set them, the service defaults
 * elsewhere. The write and query paths enforce them; tenancy enforces {@code maxNamespaces} and
 * {@code maxRetention} itself.
 *
 * @param maxNamespaces            live namespaces of the tenant
 * @param maxSeries                distinct series across all the tenant's namespaces
 * @param maxIngestPointsPerSecond points written per second across the tenant
 * @param maxStoredBytes           hot plus cold bytes across the tenant
 * @param maxRequestBytes          one request body, on the wire or decompressed
 * @param maxRetention             the longest retention a namespace may have
 * @param queryTimeout             how long one query may run
 * @param maxConcurrentQueries     queries running at once for the tenant
 */
public record Quotas(int maxNamespaces, long maxSeries, long maxIngestPointsPerSecond, long maxStoredBytes,
                     long maxRequestBytes, Duration maxRetention, Duration queryTimeout, int maxConcurrentQueries) {
}
