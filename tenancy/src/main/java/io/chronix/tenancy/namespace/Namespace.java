package io.chronix.tenancy.namespace;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/**
 * A live namespace.
 *
 * @param id           the stable internal id: names the engine directory {@code <data>/namespaces/<id>}
 *                     and the object-store prefix {@code ns_<id>/}; positive, never reused
 * @param name         the tenant's name for it, unique among the tenant's live namespaces; never
 *                     part of a path or key
 * @param retention    how long points are kept; at most the tenant's {@code maxRetention}
 * @param coldAfter    when points move to the cold tier; null = the service's default policy
 * @param settingsJson per-namespace settings as a JSON object ({@code {}} when none); owned by the data plane
 */
public record Namespace(long id, UUID tenantId, String name, Duration retention, Duration coldAfter,
                        String settingsJson, Instant createdAt) {
}
