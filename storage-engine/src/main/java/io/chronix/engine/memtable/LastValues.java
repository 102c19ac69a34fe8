package io.chronix.engine.memtable;

import io.chronix.engine.model.PointBatch;

/** The engine's entry point to update a series' last-value cache entry after an insert. */
public final class LastValues {

    private LastValues() {
    }

    public static void offer(LastValue lv, long ts, PointBatch batch, int point, int[] ordinals, int ordinalBase) {
        lv.offer(ts, batch, point, ordinals, ordinalBase);
    }

    /** Evicts a series' entry (after a delete or retention took its points). */
    public static void evict(LastValue lv) {
        lv.evict();
    }
}
