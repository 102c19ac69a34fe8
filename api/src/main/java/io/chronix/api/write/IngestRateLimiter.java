package io.chronix.api.write;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * {@code maxIngestPointsPerSecond} per tenant as a token bucket: it holds at most one second's
 * worth of points and refills continuously. A request takes as many tokens as it has points; one
 * larger than the bucket passes when the bucket is full and leaves it in debt, so a limit below
 * the batch size slows a client down instead of refusing every request. A refusal says how long
 * until the request would pass, computed from the bucket.
 *
 * <p>Threading: thread-safe; one lock per tenant's bucket.
 */
final class IngestRateLimiter {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final Map<UUID, Bucket> buckets = new ConcurrentHashMap<>();
    private final LongSupplier nanoTime;

    IngestRateLimiter(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
    }

    /**
     * Takes {@code points} tokens, or none.
     *
     * @return 0 if taken, else the nanoseconds until this request would pass
     */
    long tryAcquire(UUID tenant, long ratePerSecond, long points) {
        if (ratePerSecond <= 0) {
            return Long.MAX_VALUE; // a limit of 0 never passes
        }
        Bucket b = buckets.computeIfAbsent(tenant, t -> new Bucket(ratePerSecond, nanoTime.getAsLong()));
        synchronized (b) {
            long now = nanoTime.getAsLong();
            b.refill(ratePerSecond, now);
            double needed = Math.min(points, ratePerSecond);
            if (b.tokens >= needed) {
                b.tokens -= points;
                return 0;
            }
            double missing = needed - b.tokens;
            return (long) Math.ceil(missing * NANOS_PER_SECOND / ratePerSecond);
        }
    }

    private static final class Bucket {
        double tokens;
        long last;
        long rate;

        Bucket(long rate, long now) {
            this.tokens = rate;
            this.rate = rate;
            this.last = now;
        }

        void refill(long ratePerSecond, long now) {
            if (ratePerSecond != rate) { // the quota changed: keep the fill level, change the size
                rate = ratePerSecond;
                tokens = Math.min(tokens, ratePerSecond);
            }
            long elapsed = Math.max(0, now - last);
            last = now;
            tokens = Math.min(ratePerSecond, tokens + (double) elapsed * ratePerSecond / NANOS_PER_SECOND);
        }
    }
}
