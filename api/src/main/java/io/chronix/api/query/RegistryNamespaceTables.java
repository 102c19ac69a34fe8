package io.chronix.api.query;

import io.chronix.api.engine.EngineRegistry;
import io.chronix.engine.Chronix;
import io.chronix.tenancy.namespace.Namespace;
import org.springframework.stereotype.Component;

/** {@link NamespaceTables} over the service's {@link EngineRegistry}: a query holds a lease. */
@Component
class RegistryNamespaceTables implements NamespaceTables {

    private final EngineRegistry registry;

    RegistryNamespaceTables(EngineRegistry registry) {
        this.registry = registry;
    }

    @Override
    public Handle open(Namespace namespace) {
        EngineRegistry.Lease lease = registry.acquire(namespace);
        return new Handle() {
            @Override
            public Chronix engine() {
                return lease.engine();
            }

            @Override
            public void close() {
                lease.close();
            }
        };
    }
}
