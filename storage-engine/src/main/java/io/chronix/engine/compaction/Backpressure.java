package io.chronix.engine.compaction;

import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;

/**
 * Write backpressure (seed 001 "Backpressure"): when the L0 count — the most live segments any one
 * (shard, measurement) group of the engine holds, the unit compaction triggers on — passes
 * 4 × the compaction trigger, each write first sleeps, linearly longer as the count grows: 0 at
 * 4 × trigger, {@link #MAX_DELAY} at 8 × trigger and beyond. Writes are slowed, never dropped.
 *
 * <p>Threading: thread-safe; the count is one volatile, the totals are adders.
 */
public final class Backpressure {

    /** The cap of one write's delay. */
    public static final Duration MAX_DELAY = Duration.ofMillis(500);

    private final int trigger;
    private volatile int l0;
    private final LongAdder delayedNanos = new LongAdder();
    private final LongAdder delayedWrites = new LongAdder();

    public Backpressure(int trigger) {
        if (trigger < 2) {
            throw new IllegalArgumentException("compaction trigger must be at least 2 [trigger=" + trigger + "]");
        }
        this.trigger = trigger;
    }

    /** The delay for an L0 count: linear from 0 at {@code 4 × trigger} to {@link #MAX_DELAY} at {@code 8 × trigger}. */
    public static Duration delay(int l0, int trigger) {
        long threshold = 4L * trigger;
        if (l0 <= threshold) {
            return Duration.ZERO;
        }
        long max = MAX_DELAY.toNanos();
        return Duration.ofNanos(Math.min(max, max * (l0 - threshold) / threshold));
    }

    /** Records the engine's current L0 count (after a flush or a compaction). */
    public void update(int l0Count) {
        this.l0 = l0Count;
    }

    public int l0() {
        return l0;
    }

    /** The delay a write would get now. */
    public Duration currentDelay() {
        return delay(l0, trigger);
    }

    /** Sleeps the current delay, if any, and counts it. An interrupt ends the sleep, never the write. */
    public void pause() {
        long nanos = delay(l0, trigger).toNanos();
        if (nanos == 0) {
            return;
        }
        long start = System.nanoTime();
        try {
            Thread.sleep(Duration.ofNanos(nanos));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        delayedNanos.add(System.nanoTime() - start);
        delayedWrites.increment();
    }

    /** Time writes have spent delayed, in total. */
    public Duration totalDelay() {
        return Duration.ofNanos(delayedNanos.sum());
    }

    /** Writes that were delayed. */
    public long delayedWrites() {
        return delayedWrites.sum();
    }
}
