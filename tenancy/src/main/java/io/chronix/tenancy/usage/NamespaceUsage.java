package io.chronix.tenancy.usage;

/** What one namespace holds, as last reported by the service. */
public record NamespaceUsage(long namespaceId, long series, long storedBytes, long pointsWritten) {

    public static NamespaceUsage empty(long namespaceId) {
        return new NamespaceUsage(namespaceId, 0, 0, 0);
    }
}
