package io.chronix.engine.rollup;

import java.util.List;
import java.util.Optional;

/** What one {@code materialiseRollups()} pass did, per rollup in the order it ran them (sources before their targets). */
public record MaterialiseReport(List<Outcome> rollups) {

    public MaterialiseReport {
        rollups = List.copyOf(rollups);
    }

    public static final MaterialiseReport NOTHING = new MaterialiseReport(List.of());

    /** The outcome for {@code name}, if it ran. */
    public Optional<Outcome> outcome(String name) {
        return rollups.stream().filter(o -> o.name().equals(name)).findFirst();
    }

    public long bucketsWritten() {
        return rollups.stream().mapToLong(Outcome::bucketsWritten).sum();
    }

    public long sourceRowsRead() {
        return rollups.stream().mapToLong(Outcome::sourceRowsRead).sum();
    }

    public boolean anyFailed() {
        return rollups.stream().anyMatch(o -> o.failure().isPresent());
    }

    /**
     * @param bucketsWritten    target points written (one per series and bucket) by repairs and the advance
     * @param sourceRowsRead    source rows folded
     * @param repairsDone       invalid ranges repaired and cleared
     * @param materialisedUntil the watermark after the pass
     * @param failure           why this rollup's pass failed (its watermark then stayed); the others still ran
     */
    public record Outcome(String name, long bucketsWritten, long sourceRowsRead, int repairsDone, long materialisedUntil,
            Optional<String> failure) {
    }
}
