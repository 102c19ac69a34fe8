package io.chronix.tenancy;

import io.chronix.tenancy.namespace.Namespace;
import io.chronix.tenancy.quota.Quotas;
import io.chronix.tenancy.token.VerifiedToken;

import java.util.Optional;
import java.util.UUID;

/**
 * The one read interface the data plane (write, query, lifecycle) uses. Every data-plane request
 * goes token → tenant → namespace through it:
 * <ol>
 *   <li>{@link #verify}: the presented token → tenant id and scopes (or empty: unknown, revoked,
 *       expired, or the tenant is deleted);</li>
 *   <li>{@link #namespace}: (tenant, name) → the namespace record, or empty. Another tenant's
 *       namespace, a deleted one, a missing one and a malformed name all give the same empty;</li>
 *   <li>{@link #quotas}: the tenant's effective limits.</li>
 * </ol>
 * {@link #verify} reads the database on each call; {@link #namespace} and {@link #quotas} may be
 * served from an in-process cache that no change made through this process's services outlives
 * (see {@link TenancyChanges}). Implementations are thread-safe.
 */
public interface TenancyDirectory {

    Optional<VerifiedToken> verify(String presentedToken);

    Optional<Namespace> namespace(UUID tenantId, String namespaceName);

    Quotas quotas(UUID tenantId);

    /**
     * The {@link TenancyChanges} generation: a caller that caches what {@link #verify} answered takes
     * it before the call and trusts the entry only while it is unchanged.
     */
    long generation();
}
