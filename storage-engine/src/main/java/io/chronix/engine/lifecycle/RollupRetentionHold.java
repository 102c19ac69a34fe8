package io.chronix.engine.lifecycle;

import java.util.OptionalLong;

/**
 * How rollups hold retention back (seed 001 "Rollup": retention drops data only once every rollup
 * rooted at its measurement is materialised past it). The engine's rollups
 * ({@code io.chronix.engine.rollup.Rollups#hold()}) supply it; {@link #NONE} holds nothing.
 */
@FunctionalInterface
public interface RollupRetentionHold {

    RollupRetentionHold NONE = measurement -> OptionalLong.empty();

    /**
     * The oldest timestamp (epoch ns) of {@code measurement} some rollup rooted at it still needs —
     * the lowest watermark among them, lowered to the start of a range whose repair is pending — or
     * empty if no rollup needs any of it. Segments holding a point at or after it are preserved.
     */
    OptionalLong oldestNeeded(String measurement);
}
