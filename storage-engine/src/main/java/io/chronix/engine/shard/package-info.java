/**
 * Time-shard routing: {@code shard = floorDiv(timestamp, shardDuration)}, the window of shards a
 * write may land in, and the per-shard memtable slots. A shard below the window ({@link
 * io.chronix.engine.shard.ShardRouter#openFrom()}) is closed: the engine seals its memtable.
 *
 * <p>Threading: {@link io.chronix.engine.shard.ShardRouter} is thread-safe; {@link
 * io.chronix.engine.shard.ShardWindow} is immutable.
 */
package io.chronix.engine.shard;
