package io.chronix.tenancy.usage;

/**
 * What one namespace holds, as last reported by the service.
 *
 * @param storedBytes hot and cold together
 * @param coldBytes   of {@code storedBytes}, the archived objects in the cold tier
 */
public record NamespaceUsage(long namespaceId, long series, long storedBytes, long pointsWritten, long coldBytes) {

    public static NamespaceUsage empty(long namespaceId) {
        return new NamespaceUsage(namespaceId, 0, 0, 0, 0);
    }
}
