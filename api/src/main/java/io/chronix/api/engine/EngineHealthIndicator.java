package io.chronix.api.engine;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.stereotype.Component;

import java.util.Map;

/**
 * Health component {@code engine}, part of the readiness group: DOWN while any namespace's engine
 * failed an fsync (it refuses work until the registry has cut its log back and reopened it) or
 * could not be opened for a storage error (retried every {@code chronix.engine.storage-retry-interval}).
 * A failing fsync is the device failing, which every namespace on it will meet: the instance is
 * taken out of service rather than left to answer 503 to one write in two. Details (operator):
 * the open engines, and each namespace in trouble by id with the reason.
 */
@Component("engineHealthIndicator")
class EngineHealthIndicator extends AbstractHealthIndicator {

    private final EngineRegistry engines;

    EngineHealthIndicator(EngineRegistry engines) {
        super("engine check failed");
        this.engines = engines;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        Map<Long, String> failing = engines.storageFailures();
        (failing.isEmpty() ? builder.up() : builder.down()).withDetail("openEngines", engines.openEngines());
        if (!failing.isEmpty()) {
            Map<String, String> byNamespace = new java.util.LinkedHashMap<>();
            failing.forEach((id, reason) -> byNamespace.put(Long.toString(id), reason));
            builder.withDetail("failingNamespaces", byNamespace);
        }
        InjectedFaults.directory().ifPresent(d -> builder.withDetail("testFaultInjection", d.toString()));
    }
}
