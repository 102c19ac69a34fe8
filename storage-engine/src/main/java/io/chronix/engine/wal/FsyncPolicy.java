package io.chronix.engine.wal;

/**
 * When the WAL forces written bytes to the device. Under every policy an append hands its bytes to
 * the kernel before it returns, so a process crash (panic, {@code kill -9}, OOM kill) loses nothing
 * that was acknowledged; the policies differ only in what a power loss can cost.
 */
public enum FsyncPolicy {
    /** fsync after every record; an append returns once its record is on the device. */
    PER_WRITE,
    /**
     * fsync once per {@link WalWriter#appendBatch} / {@link WalWriter#appendDurable} call, shared by
     * every caller waiting at the same time (group commit). Nothing acknowledged is lost.
     */
    PER_BATCH,
    /**
     * fsync in the background every {@link WalConfig#fsyncInterval()}; a power loss can cost the
     * records acknowledged since the last completed sync, never more.
     */
    PERIODIC
}
