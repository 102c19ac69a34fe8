package io.chronix.api.archive;

/**
 * Published after an archiving pass moved segments of a namespace to the cold tier: its hot and
 * cold bytes changed without a write, so whoever reports usage should report it again.
 *
 * @param namespaceId the namespace's internal id
 * @param seriesNow   its series count after the pass
 */
public record SegmentsArchived(long namespaceId, long seriesNow) {
}
