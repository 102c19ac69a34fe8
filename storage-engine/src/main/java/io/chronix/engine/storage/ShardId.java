package io.chronix.engine.storage;

/** A time shard: {@code timestamp / shard_duration}, so a negative id is a shard before 1970. */
public record ShardId(long value) {

    @Override
    public String toString() {
        return Long.toString(value);
    }
}
