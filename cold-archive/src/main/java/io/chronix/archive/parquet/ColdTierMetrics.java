package io.chronix.archive.parquet;

import java.util.concurrent.atomic.LongAdder;

/**
 * Process-wide counters of the Parquet cold tier, shared by every namespace's tier; the service
 * exposes them as Micrometer meters (the cold bytes per namespace come from the engines' catalogs).
 *
 * <p>Threading: thread-safe (adders).
 */
public final class ColdTierMetrics {

    final LongAdder objectsArchived = new LongAdder();
    final LongAdder bytesArchived = new LongAdder();
    final LongAdder uploads = new LongAdder();
    final LongAdder uploadNanos = new LongAdder();
    final LongAdder uploadFailures = new LongAdder();
    final LongAdder cacheHits = new LongAdder();
    final LongAdder cacheMisses = new LongAdder();
    final LongAdder bytesDownloaded = new LongAdder();
    final LongAdder objectsDeleted = new LongAdder();

    /** Objects written, uploaded and verified. */
    public long objectsArchived() {
        return objectsArchived.sum();
    }

    /** Bytes of those objects. */
    public long bytesArchived() {
        return bytesArchived.sum();
    }

    /** Successful uploads (with their read-back), and the nanoseconds they took in all. */
    public long uploads() {
        return uploads.sum();
    }

    public long uploadNanos() {
        return uploadNanos.sum();
    }

    /** Uploads or verifications that failed (the segment stayed hot). */
    public long uploadFailures() {
        return uploadFailures.sum();
    }

    public long cacheHits() {
        return cacheHits.sum();
    }

    public long cacheMisses() {
        return cacheMisses.sum();
    }

    public long bytesDownloaded() {
        return bytesDownloaded.sum();
    }

    public long objectsDeleted() {
        return objectsDeleted.sum();
    }
}
