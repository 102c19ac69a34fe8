package io.chronix.tenancy.token;

import java.time.Instant;
import java.util.Set;
import java.util.UUID;

/**
 * A presented token that is known, live (not revoked, not expired) and belongs to a live tenant.
 *
 * @param tokenId   the public id
 * @param expiresAt null if it does not expire; callers that cache a verification re-check it
 */
public record VerifiedToken(String tokenId, UUID tenantId, String tenantName, Set<Scope> scopes, Instant expiresAt) {

    public VerifiedToken {
        scopes = Set.copyOf(scopes);
    }

    public boolean allows(Scope.Action action, String namespace) {
        return scopes.stream().anyMatch(s -> s.allows(action, namespace));
    }

    public boolean allowsAll(Scope.Action action) {
        return scopes.stream().anyMatch(s -> s.allowsAll(action));
    }
}
