package io.chronix.api.archive;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;

/**
 * The cold archive's settings ({@code chronix.archive.*}).
 *
 * @param coldAfter     a namespace without its own {@code coldAfter} archives segments older than this
 * @param interval      how often the periodic pass visits every namespace; its first run is one interval after start
 * @param enabled       whether the periodic pass runs (the endpoint works either way)
 * @param cacheSize     bound of each namespace's local cache of cold objects ({@code <ns-dir>/cold-cache/})
 * @param threads       DuckDB threads of the archive's own (trusted) instance
 */
@Validated
@ConfigurationProperties("chronix.archive")
public record ArchiveProperties(
        @NotNull @DefaultValue("30d") Duration coldAfter,
        @NotNull @DefaultValue("1h") Duration interval,
        @DefaultValue("true") boolean enabled,
        @NotNull @DefaultValue("256MB") DataSize cacheSize,
        @Min(1) @DefaultValue("1") int threads) {
}
