package io.chronix.tenancy.tenant;

import java.time.Instant;
import java.util.UUID;

/** A live tenant. */
public record Tenant(UUID id, String name, Instant createdAt) {
}
