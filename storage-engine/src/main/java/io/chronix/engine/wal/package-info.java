/**
 * The write-ahead log: the engine's durability boundary. A record is in the WAL — handed to the
 * kernel, and fsynced as the {@link io.chronix.engine.wal.FsyncPolicy} says — before a write is
 * acknowledged; after a crash the log is replayed to rebuild what the memtables held.
 *
 * <p>Types: {@link io.chronix.engine.wal.WalFormat} (every constant of the format), {@link
 * io.chronix.engine.wal.WalWriter} (the one writer: framing, group commit, rotation, truncation),
 * {@link io.chronix.engine.wal.WalReader} (the one reader: verification and damage
 * classification), {@link io.chronix.engine.wal.WalLoader} (recovery at open), {@link
 * io.chronix.engine.wal.WalRepair} (offline repair), {@link io.chronix.engine.wal.WalMetrics}.
 * Payload meaning is {@code io.chronix.engine.codec}'s business; the log stores opaque bytes.
 * Format page: {@code docs/format/wal.md}.
 *
 * <p>Threading: the writer is thread-safe; reader, loader and repair run on the caller's thread.
 * Nullness: non-null unless documented otherwise.
 */
package io.chronix.engine.wal;
