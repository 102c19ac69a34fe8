package io.chronix.engine.rollup;

import java.util.List;
import java.util.Optional;

/**
 * A rollup's definition and state.
 *
 * @param materialisedUntil every bucket starting before this (epoch ns, a bucket boundary) is
 *     materialised in the target, except the {@code pendingInvalid} ranges; {@link Long#MIN_VALUE}
 *     before the first materialisation
 * @param pendingInvalid ranges whose repair is pending: disjoint, ascending, bucket-aligned, at most 64
 * @param lastError the failure of this rollup's latest materialisation, if it failed (not persisted)
 */
public record RollupInfo(RollupConfig config, long materialisedUntil, List<TimeRange> pendingInvalid, Optional<String> lastError) {

    public RollupInfo {
        pendingInvalid = List.copyOf(pendingInvalid);
    }

    public String name() {
        return config.name();
    }
}
