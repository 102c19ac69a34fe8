package io.chronix.engine.identity;

import java.util.Objects;
import java.util.UUID;

/**
 * Who a namespace directory belongs to.
 *
 * @param namespaceId the namespace's internal id (the directory's name)
 * @param owner       the tenant that owns the namespace; the engine treats it as an opaque id
 * @param createdAtMillis when the directory was made, epoch milliseconds (for the operator's report)
 */
public record NamespaceIdentity(long namespaceId, UUID owner, long createdAtMillis) {

    public NamespaceIdentity {
        Objects.requireNonNull(owner, "owner");
        if (namespaceId <= 0) {
            throw new IllegalArgumentException("namespace id must be positive [id=" + namespaceId + "]");
        }
    }

    /** Same namespace and owner; the creation time is not part of the identity. */
    public boolean sameOwnerAs(NamespaceIdentity other) {
        return namespaceId == other.namespaceId && owner.equals(other.owner);
    }
}
