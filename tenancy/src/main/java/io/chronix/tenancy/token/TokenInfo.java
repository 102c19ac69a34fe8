package io.chronix.tenancy.token;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * What may be shown of a token after its creation: never the secret, never its hash.
 *
 * @param id         the public id, the part after {@code cx_}
 * @param lastUsedAt null if never used; updated at most once a minute
 * @param expiresAt  null if it does not expire
 */
public record TokenInfo(String id, UUID tenantId, String description, List<Scope> scopes, Instant createdAt,
                        Instant lastUsedAt, Instant expiresAt) {
}
