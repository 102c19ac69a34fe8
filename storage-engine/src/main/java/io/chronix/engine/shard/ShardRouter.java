package io.chronix.engine.shard;

import io.chronix.engine.error.ShardOutOfRangeException;
import io.chronix.engine.memtable.FlushController;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Routes timestamps to time shards and owns each shard's {@link FlushController}.
 *
 * <p>{@code shard = floorDiv(timestamp, shardDuration)}, so negative timestamps route down, not
 * towards zero. Writes are accepted from the start of the shard {@code oooToleranceShards} behind
 * the newest timestamp the engine holds (or the batch brings) up to the clock plus the future
 * tolerance. All boundary arithmetic saturates at the ends of the {@code long} range instead of
 * wrapping.
 *
 * <p>A shard below {@link #openFrom()} is <em>closed</em>: no write without the backfill option
 * can land in it any more, so the engine seals its memtable (freezes and flushes it). A backfill
 * reopens a closed shard only for its own write.
 *
 * <p>Threading: thread-safe. {@link #shards()} is a snapshot taken under no lock; a shard created
 * after it is not in it.
 */
public final class ShardRouter {

    private final long shardDuration;
    private final long oooToleranceShards;
    private final long futureTolerance;
    private final ConcurrentMap<Long, FlushController> shards = new ConcurrentHashMap<>();
    private final AtomicLong newest = new AtomicLong(Long.MIN_VALUE);

    /**
     * @param shardDurationNanos shard width, positive
     * @param oooToleranceShards how many shards behind the newest data a write may still land in
     * @param futureToleranceNanos how far ahead of the clock a timestamp may be
     */
    public ShardRouter(long shardDurationNanos, long oooToleranceShards, long futureToleranceNanos) {
        if (shardDurationNanos <= 0 || oooToleranceShards < 0 || futureToleranceNanos < 0) {
            throw new IllegalArgumentException("shard duration must be positive and tolerances not negative");
        }
        this.shardDuration = shardDurationNanos;
        this.oooToleranceShards = oooToleranceShards;
        this.futureTolerance = futureToleranceNanos;
    }

    public long shardDuration() {
        return shardDuration;
    }

    public long shardOf(long timestamp) {
        return Math.floorDiv(timestamp, shardDuration);
    }

    /** The first timestamp of {@code shard}, saturated to {@link Long#MIN_VALUE}/{@link Long#MAX_VALUE}. */
    public long shardStart(long shard) {
        long hi = Math.multiplyHigh(shard, shardDuration);
        long lo = shard * shardDuration;
        if ((hi == 0 && lo >= 0) || (hi == -1 && lo < 0)) {
            return lo;
        }
        return hi < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }

    /** The last timestamp of {@code shard}, saturated. */
    public long shardEnd(long shard) {
        if (shard == Long.MAX_VALUE) {
            return Long.MAX_VALUE;
        }
        long next = shardStart(shard + 1);
        return next == Long.MAX_VALUE ? Long.MAX_VALUE : next - 1;
    }

    /**
     * Notes a timestamp the engine holds (write, replay, segment), moving the window's anchor.
     *
     * @return whether it moved the newest timestamp into a later shard, closing the shards that fell
     *     out of the window (never for the first timestamp: nothing was held before it)
     */
    public boolean observe(long timestamp) {
        long before = newest.getAndAccumulate(timestamp, Math::max);
        return before != Long.MIN_VALUE && timestamp > before && shardOf(timestamp) > shardOf(before);
    }

    /**
     * The oldest shard a write without the backfill option may land in — the shard {@code
     * oooToleranceShards} behind the newest timestamp held — or {@link Long#MIN_VALUE} while nothing
     * is held. Every shard below it is closed.
     */
    public long openFrom() {
        long held = newest.get();
        return held == Long.MIN_VALUE ? Long.MIN_VALUE : saturatingSub(shardOf(held), oooToleranceShards);
    }

    /** Whether {@code shard} can take no more writes but backfills ({@link #openFrom()}). */
    public boolean isClosed(long shard) {
        return shard < openFrom();
    }

    /** The newest timestamp observed, {@link Long#MIN_VALUE} if none. */
    public long newest() {
        return newest.get();
    }

    /**
     * The window a write accepts at wall-clock time {@code nowNanos}: from the start of the shard
     * {@code oooToleranceShards} behind the newest timestamp the engine already holds, to the clock
     * plus the future tolerance. The anchor is what was held before the write, never the write's
     * own points, so an empty engine accepts any start (history loaded in time order needs no
     * flag, however much of it one request spans), and a request is judged the same whether its
     * points arrive in one batch or several.
     */
    public ShardWindow window(long nowNanos) {
        long to = saturatingAdd(nowNanos, futureTolerance);
        long oldestShard = openFrom();
        return new ShardWindow(oldestShard == Long.MIN_VALUE ? Long.MIN_VALUE : shardStart(oldestShard), to);
    }

    /** Throws unless {@code timestamp} is in {@code window}. */
    public void check(long timestamp, ShardWindow window) {
        if (!window.contains(timestamp)) {
            throw new ShardOutOfRangeException(timestamp, shardOf(timestamp), window.from(), window.to());
        }
    }

    /** The controller of {@code shard}, created if new. */
    public FlushController controller(long shard) {
        FlushController c = shards.get(shard);
        return c != null ? c : shards.computeIfAbsent(shard, FlushController::new);
    }

    /** Every shard with a controller, ascending. */
    public List<FlushController> shards() {
        List<FlushController> out = new ArrayList<>(shards.values());
        out.sort((a, b) -> Long.compare(a.shard(), b.shard()));
        return out;
    }

    /** Removes a shard's controller once both its slots are empty (so idle shards cost nothing). */
    public void retire(FlushController c) {
        if (c.frozen() == null && c.active().isEmpty()) {
            shards.remove(c.shard(), c);
        }
    }

    static long saturatingAdd(long a, long b) {
        long r = a + b;
        return ((a ^ r) & (b ^ r)) < 0 ? (a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE) : r;
    }

    static long saturatingSub(long a, long b) {
        long r = a - b;
        return ((a ^ b) & (a ^ r)) < 0 ? (a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE) : r;
    }
}
