package io.chronix.tenancy.usage;

import java.time.Duration;

/**
 * A tenant's usage across its live namespaces.
 *
 * @param longestRetention the longest retention among them; null when there are none
 */
public record TenantUsage(long namespaces, long series, long storedBytes, long pointsWritten, Duration longestRetention) {
}
