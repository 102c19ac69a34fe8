package io.chronix.engine.error;

/**
 * A point's timestamp lies outside the window of shards the engine accepts writes for: older than
 * the out-of-order tolerance behind the newest data, or further ahead of the clock than the future
 * tolerance. The message names the accepted window, both ends inclusive, in epoch nanoseconds.
 * Nothing of the batch is written.
 */
public final class ShardOutOfRangeException extends EngineException {

    private final long timestamp;
    private final long shard;
    private final long acceptedFrom;
    private final long acceptedTo;

    public ShardOutOfRangeException(long timestamp, long shard, long acceptedFrom, long acceptedTo) {
        super(describe("timestamp outside the accepted shard window", "timestamp", timestamp, "shard", shard,
                "acceptedFrom", acceptedFrom, "acceptedTo", acceptedTo));
        this.timestamp = timestamp;
        this.shard = shard;
        this.acceptedFrom = acceptedFrom;
        this.acceptedTo = acceptedTo;
    }

    public long timestamp() {
        return timestamp;
    }

    public long shard() {
        return shard;
    }

    /** The oldest accepted timestamp, inclusive. */
    public long acceptedFrom() {
        return acceptedFrom;
    }

    /** The newest accepted timestamp, inclusive. */
    public long acceptedTo() {
        return acceptedTo;
    }
}
