package io.chronix.engine.codec;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A few {@link EncodeBuffer}s lent to writers one call at a time. Not a {@code ThreadLocal}: the
 * service runs each request on a fresh virtual thread, so a thread-local buffer would be allocated
 * and grown again (to megabytes, for a 5,000-point batch) on every write.
 *
 * <p>At most {@code keep} buffers are kept, none larger than {@code maxKeptBytes}; a buffer that is
 * not taken back is simply collected.
 *
 * <p>Threading: thread-safe; a lent buffer belongs to its borrower until {@link #giveBack}.
 */
public final class EncodeBufferPool {

    private final ConcurrentLinkedQueue<EncodeBuffer> free = new ConcurrentLinkedQueue<>();
    private final AtomicInteger kept = new AtomicInteger();
    private final int initialCapacity;
    private final int keep;
    private final int maxKeptBytes;

    public EncodeBufferPool(int initialCapacity, int keep, int maxKeptBytes) {
        if (initialCapacity < 0 || keep < 0 || maxKeptBytes < 0) {
            throw new IllegalArgumentException("negative pool size [initialCapacity=" + initialCapacity + ", keep=" + keep
                    + ", maxKeptBytes=" + maxKeptBytes + "]");
        }
        this.initialCapacity = initialCapacity;
        this.keep = keep;
        this.maxKeptBytes = maxKeptBytes;
    }

    /** A cleared buffer, kept or new. */
    public EncodeBuffer borrow() {
        EncodeBuffer b = free.poll();
        if (b == null) {
            return new EncodeBuffer(initialCapacity);
        }
        kept.decrementAndGet();
        return b.clear();
    }

    /** Takes a buffer back once nothing refers to its bytes any more (the WAL append has returned). */
    public void giveBack(EncodeBuffer b) {
        if (b.capacity() > maxKeptBytes) {
            return;
        }
        if (kept.incrementAndGet() > keep) {
            kept.decrementAndGet();
            return;
        }
        free.offer(b);
    }
}
