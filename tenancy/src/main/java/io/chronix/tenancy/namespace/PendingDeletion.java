package io.chronix.tenancy.namespace;

import java.time.Instant;

/**
 * A deleted namespace whose data is still to be removed.
 *
 * @param namespaceId the internal id: the only thing a data path or key is built from
 * @param attempts    removals tried and failed so far
 */
public record PendingDeletion(long namespaceId, Instant requestedAt, int attempts) {
}
