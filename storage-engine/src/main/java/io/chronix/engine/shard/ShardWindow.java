package io.chronix.engine.shard;

/**
 * The timestamps a write is accepted for, both ends inclusive, in epoch nanoseconds.
 *
 * @param from the start of the oldest accepted shard
 * @param to the newest accepted timestamp (the clock plus the future tolerance)
 */
public record ShardWindow(long from, long to) {

    public boolean contains(long timestamp) {
        return timestamp >= from && timestamp <= to;
    }
}
