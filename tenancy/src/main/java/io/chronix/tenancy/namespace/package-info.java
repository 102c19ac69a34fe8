/**
 * Namespaces: a stable internal id (identity, never reused) that names the data directory and the
 * object-store prefix, and a user-facing name unique per tenant that names nothing on disk.
 * Deletion is a mark plus a queued removal ({@link io.chronix.tenancy.namespace.PendingDeletions}).
 *
 * <p>Threading: stateless services, safe for concurrent use; each public operation is one
 * transaction. Nullness: {@code coldAfter} may be null, everything else is non-null.
 */
package io.chronix.tenancy.namespace;
