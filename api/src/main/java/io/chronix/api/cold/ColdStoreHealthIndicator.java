package io.chronix.api.cold;

import io.chronix.engine.error.StorageBackendException;
import io.chronix.engine.storage.StorageBackend;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.stereotype.Component;

/**
 * Health component {@code coldStore}: the object store answers and its bucket (or root) is usable.
 * Part of the readiness group: a store that cannot be reached takes the instance out of service,
 * with the store (endpoint and bucket, never credentials) and the reason in the details.
 */
@Component("coldStoreHealthIndicator")
class ColdStoreHealthIndicator extends AbstractHealthIndicator {

    private final StorageBackend store;

    ColdStoreHealthIndicator(StorageBackend store) {
        super("cold store check failed");
        this.store = store;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        try {
            store.checkAvailable();
            builder.up().withDetail("store", store.describe());
        } catch (StorageBackendException e) {
            builder.down().withDetail("store", store.describe()).withDetail("error", e.getMessage());
        }
    }
}
