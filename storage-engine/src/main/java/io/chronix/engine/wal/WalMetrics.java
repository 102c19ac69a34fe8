package io.chronix.engine.wal;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of one engine's WAL, as a plain Java API: the service publishes {@link #truncations()}
 * as {@code chronix_wal_truncations_total} (and the rest as it sees fit). Counts live for the
 * lifetime of this object, which the owner keeps across reopens of the log.
 *
 * <p>Threading: thread-safe; reads are not a consistent snapshot across counters.
 */
public final class WalMetrics {

    private final LongAdder truncations = new LongAdder();
    private final LongAdder truncatedBytes = new LongAdder();
    private final LongAdder records = new LongAdder();
    private final LongAdder bytes = new LongAdder();
    private final LongAdder syncs = new LongAdder();
    private final LongAdder groupSyncs = new LongAdder();
    private final LongAdder groupSyncNanos = new LongAdder();
    private final LongAdder failedSyncs = new LongAdder();
    private final LongAdder failedWrites = new LongAdder();

    /** Torn tails cut off during recovery (or repair): each one is records lost to a crash. */
    public long truncations() {
        return truncations.sum();
    }

    /** Bytes those cuts removed. */
    public long truncatedBytes() {
        return truncatedBytes.sum();
    }

    /** Records appended since this object was created. */
    public long records() {
        return records.sum();
    }

    /** Frame bytes (header and stored payload) appended. */
    public long bytes() {
        return bytes.sum();
    }

    /** fsyncs of WAL files that completed. */
    public long syncs() {
        return syncs.sum();
    }

    /**
     * Group-commit fsyncs (those a leader ran for the callers waiting on it); a subset of {@link
     * #syncs()}. {@code records() / groupSyncs()} is how many records shared each one.
     */
    public long groupSyncs() {
        return groupSyncs.sum();
    }

    /**
     * Time spent inside group-commit fsyncs, in nanoseconds: divided by {@link #groupSyncs()}, the
     * device's share of a group's cycle, the rest being the wait for writers to append and wake.
     */
    public long groupSyncNanos() {
        return groupSyncNanos.sum();
    }

    /** fsyncs that failed; each poisoned its log. */
    public long failedSyncs() {
        return failedSyncs.sum();
    }

    /** Appends that failed on a write (a full disk, an I/O error) and were rolled back. */
    public long failedWrites() {
        return failedWrites.sum();
    }

    void truncated(long droppedBytes) {
        truncations.increment();
        truncatedBytes.add(droppedBytes);
    }

    void appended(int recordCount, long frameBytes) {
        records.add(recordCount);
        bytes.add(frameBytes);
    }

    void synced() {
        syncs.increment();
    }

    void groupSynced(long nanos) {
        syncs.increment();
        groupSyncs.increment();
        groupSyncNanos.add(nanos);
    }

    void syncFailed() {
        failedSyncs.increment();
    }

    void writeFailed() {
        failedWrites.increment();
    }
}
