package io.chronix.engine;

import java.time.Duration;

/**
 * How {@link Chronix#write(io.chronix.engine.model.PointBatch, WriteOptions)} accepts a batch.
 *
 * @param backfill   accept any timestamp inside the namespace's retention rather than only the
 *     out-of-order window (the API's {@code backfill=true}); points go to their own shards and
 *     the rollups over their range are invalidated
 * @param maxSeries  refuse a batch that would take the series count past this ({@link Long#MAX_VALUE}: no limit)
 * @param retention  the retention a backfill must stay inside; {@code null}: the engine's own
 *     ({@link Chronix#retention(Duration)}), and without one any age is accepted
 */
public record WriteOptions(boolean backfill, long maxSeries, Duration retention) {

    private static final WriteOptions DEFAULTS = new WriteOptions(false, Long.MAX_VALUE, null);

    public WriteOptions {
        if (maxSeries < 0) {
            throw new IllegalArgumentException("maxSeries must not be negative: " + maxSeries);
        }
        if (retention != null && retention.isNegative()) {
            throw new IllegalArgumentException("retention must not be negative: " + retention);
        }
    }

    /** No backfill, no series limit, the engine's retention. */
    public static WriteOptions defaults() {
        return DEFAULTS;
    }

    public WriteOptions withBackfill(boolean on) {
        return new WriteOptions(on, maxSeries, retention);
    }

    public WriteOptions withMaxSeries(long limit) {
        return new WriteOptions(backfill, limit, retention);
    }

    public WriteOptions withRetention(Duration r) {
        return new WriteOptions(backfill, maxSeries, r);
    }
}
