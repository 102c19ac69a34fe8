package io.chronix.api.lifecycle;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;

/**
 * Retention and disk-budget settings ({@code chronix.engine.*}, beside {@code EngineProperties},
 * kept apart so the engine defaults and the lifecycle can change without touching each other).
 *
 * @param diskBudget        the most segment bytes all open namespaces of the process together may
 *                          hold; past it the oldest segments go, oldest-first across namespaces.
 *                          Absent: no budget
 * @param retentionInterval how often each open namespace's retention (and the budget) is enforced
 */
@Validated
@ConfigurationProperties("chronix.engine")
public record LifecycleProperties(DataSize diskBudget, @NotNull @DefaultValue("1m") Duration retentionInterval) {

    public LifecycleProperties {
        if (diskBudget != null && diskBudget.toBytes() <= 0) {
            throw new IllegalArgumentException("chronix.engine.disk-budget must be positive: " + diskBudget);
        }
        if (retentionInterval.isNegative() || retentionInterval.isZero()) {
            throw new IllegalArgumentException("chronix.engine.retention-interval must be positive: " + retentionInterval);
        }
    }
}
