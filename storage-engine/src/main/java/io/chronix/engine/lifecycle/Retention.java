package io.chronix.engine.lifecycle;

import io.chronix.engine.catalog.SegmentEntry;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

/**
 * The decisions of retention by age (seed 001 "Retention", seed 003 "Retention"), free of I/O.
 *
 * <p><b>Reference time.</b> {@code min(wall clock, newest timestamp held)}: a namespace nobody wrote
 * to for a month keeps its last {@code retention} of data rather than losing all of it to the clock
 * — the cap protects an irreversible delete. The newest timestamp is the newest segment's
 * {@code max_time} and the start of the newest shard that memtables hold (its start, not its
 * newest point, which can only hold data back).
 *
 * <p><b>Whole shards.</b> A shard goes once its newest point (over every segment of it) is before
 * the cutoff, so a shard straddling the cutoff is kept whole. A shard a memtable still writes to
 * is kept (the next pass takes it once flushed). Within a shard that goes, a segment whose
 * measurement a rollup still needs ({@link RollupRetentionHold}) is preserved and counted.
 */
public final class Retention {

    private Retention() {
    }

    /** {@code min(now, newestHeld)}; {@link Long#MIN_VALUE} ({@code newestHeld}) when nothing is held. */
    public static long reference(long nowNanos, long newestHeld) {
        return Math.min(nowNanos, newestHeld);
    }

    /** {@code reference − retention}, saturating at {@link Long#MIN_VALUE}. */
    public static long cutoff(long reference, Duration retention) {
        if (retention.isNegative()) {
            throw new IllegalArgumentException("retention must not be negative: " + retention);
        }
        long r;
        try {
            r = retention.toNanos();
        } catch (ArithmeticException e) {
            return Long.MIN_VALUE;
        }
        long c = reference - r;
        return c > reference ? Long.MIN_VALUE : c; // r >= 0: only an underflow wraps upwards
    }

    /**
     * What a pass removes.
     *
     * @param drop          segments to remove (catalog first, then files)
     * @param shardsDropped shards all of whose segments are in {@code drop}
     * @param preserved     segments past the cutoff a rollup holds
     */
    public record Plan(List<SegmentEntry> drop, int shardsDropped, int preserved) {
    }

    /**
     * @param segments      every live segment
     * @param memtableShards shards a memtable holds data of
     */
    public static Plan plan(List<SegmentEntry> segments, Set<Long> memtableShards, long cutoff, RollupRetentionHold hold) {
        TreeMap<Long, List<SegmentEntry>> byShard = new TreeMap<>();
        for (SegmentEntry e : segments) {
            byShard.computeIfAbsent(e.shard(), k -> new ArrayList<>()).add(e);
        }
        List<SegmentEntry> drop = new ArrayList<>();
        int shards = 0;
        int preserved = 0;
        for (Map.Entry<Long, List<SegmentEntry>> s : byShard.entrySet()) {
            long newest = Long.MIN_VALUE;
            for (SegmentEntry e : s.getValue()) {
                newest = Math.max(newest, e.maxTime());
            }
            if (newest >= cutoff || memtableShards.contains(s.getKey())) {
                continue;
            }
            int kept = 0;
            for (SegmentEntry e : s.getValue()) {
                OptionalLong needed = hold.oldestNeeded(e.measurement());
                if (needed.isPresent() && e.maxTime() >= needed.getAsLong()) {
                    kept++;
                } else {
                    drop.add(e);
                }
            }
            preserved += kept;
            shards += kept == 0 ? 1 : 0;
        }
        return new Plan(List.copyOf(drop), shards, preserved);
    }
}
