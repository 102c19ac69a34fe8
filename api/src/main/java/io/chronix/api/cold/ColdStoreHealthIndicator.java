package io.chronix.api.cold;

import io.chronix.engine.storage.StorageBackend;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.stereotype.Component;

/** Health component {@code coldStore}: the object store answers and its bucket (or root) is usable. */
@Component("coldStoreHealthIndicator")
class ColdStoreHealthIndicator extends AbstractHealthIndicator {

    private final StorageBackend store;

    ColdStoreHealthIndicator(StorageBackend store) {
        super("cold store check failed");
        this.store = store;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        store.checkAvailable();
        builder.up().withDetail("store", store.describe());
    }
}
