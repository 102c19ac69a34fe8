package io.chronix.api.query;

import org.apache.arrow.memory.AllocationManager;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.unsafe.UnsafeAllocationManager;
import org.apache.arrow.memory.util.MemoryUtil;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Native memory for query-time Arrow buffers that is kept and handed out again instead of being
 * returned to the C allocator at once.
 *
 * <p>Why: a query that scans 400,000 rows builds about 40 MB of Arrow vectors and frees them a few
 * milliseconds later. Blocks that large come from {@code mmap} and go back with {@code munmap}, so
 * the next query faults every page in again and the kernel zeroes each one: on the benchmark
 * machine the faults and the zeroing were more than half of a whole-day aggregate's CPU
 * (docs/benchmarks.md as of commit 5e95285, "Per-query server costs"). Kept blocks are already mapped.
 *
 * <p>Blocks of at least {@link #MIN_POOLED_BYTES} are kept in power-of-two size classes, up to
 * {@code retainedLimit} bytes in all; smaller requests go to the C allocator as before. A block
 * given back when the limit is reached takes the place of kept blocks of the size class used least
 * recently, which are freed: otherwise one large query would fill the limit with its sizes for good,
 * and every later query of other sizes would map, zero and unmap each block again (a whole-day
 * aggregate run after a wide filter took 230 ms instead of 90, 45 % of it zeroing fresh blocks). A block is zeroed when it is first allocated and again when it is given
 * back, so a block handed out holds zeros, as a fresh mapping would: no buffer ever shows bytes a
 * previous query (of any tenant) left in it.
 * Arrow's accounting sees each block's full size, which is what Arrow's power-of-two rounding asks
 * for anyway.
 *
 * <p>Threading: thread-safe; each size class is a small array stack under its own lock, and the kept
 * total is one atomic counter, so the limit holds under any interleaving.
 */
public final class RecyclingMemory implements AllocationManager.Factory {

    /** Below this, blocks come from the C allocator's heap, which reuses them without faulting. */
    static final long MIN_POOLED_BYTES = 64 << 10;
    /**
     * Largest class kept: 16 MiB, Arrow's chunk size, below which its rounding already asks for
     * powers of two (so a block's class is the size Arrow accounts); larger requests are not pooled.
     */
    private static final int MAX_CLASS = 24;
    private static final int MIN_CLASS = Long.numberOfTrailingZeros(MIN_POOLED_BYTES);

    private final long retainedLimit;
    private final AtomicLong retained = new AtomicLong();
    private final SizeClass[] classes = new SizeClass[MAX_CLASS + 1];

    /** @param retainedLimit the most bytes kept unused at any time; 0 keeps nothing */
    public RecyclingMemory(long retainedLimit) {
        if (retainedLimit < 0) {
            throw new IllegalArgumentException("retained limit must not be negative [bytes=" + retainedLimit + "]");
        }
        this.retainedLimit = retainedLimit;
        for (int c = MIN_CLASS; c <= MAX_CLASS; c++) {
            classes[c] = new SizeClass(1L << c);
        }
    }

    @Override
    public AllocationManager create(BufferAllocator accountingAllocator, long size) {
        int c = sizeClass(size);
        if (c < 0) {
            return UnsafeAllocationManager.FACTORY.create(accountingAllocator, size);
        }
        SizeClass k = classes[c];
        k.lastUse = System.nanoTime();
        long address = k.pop();
        if (address != 0) {
            retained.addAndGet(-k.bytes);
        } else {
            address = MemoryUtil.allocateMemory(k.bytes);
            MemoryUtil.setMemory(address, k.bytes, (byte) 0); // once per block: the C allocator may hand out used memory
        }
        return new Block(accountingAllocator, address, k);
    }

    @Override
    public ArrowBuf empty() {
        return UnsafeAllocationManager.FACTORY.empty();
    }

    /** Bytes kept for reuse now. */
    public long retainedBytes() {
        return retained.get();
    }

    /** Frees every kept block (the allocator's buffers in use are not affected). */
    public void trim() {
        for (int c = MIN_CLASS; c <= MAX_CLASS; c++) {
            for (long a; (a = classes[c].pop()) != 0; ) {
                retained.addAndGet(-classes[c].bytes);
                MemoryUtil.freeMemory(a);
            }
        }
    }

    /** The class index for {@code size}, or −1 when it is not pooled. */
    static int sizeClass(long size) {
        if (size < MIN_POOLED_BYTES || size > (1L << MAX_CLASS)) {
            return -1;
        }
        return 64 - Long.numberOfLeadingZeros(size - 1);
    }

    private void giveBack(long address, SizeClass k) {
        k.lastUse = System.nanoTime();
        if (reserve(k)) {
            MemoryUtil.setMemory(address, k.bytes, (byte) 0);
            k.push(address);
        } else {
            MemoryUtil.freeMemory(address);
        }
    }

    /** Counts one more block of {@code k} as kept, freeing other classes' blocks to make room; false when none can be. */
    private boolean reserve(SizeClass k) {
        while (true) {
            long r = retained.get();
            if (r + k.bytes <= retainedLimit) {
                if (retained.compareAndSet(r, r + k.bytes)) {
                    return true;
                }
            } else if (!evictOne(k)) {
                return false;
            }
        }
    }

    /**
     * Frees one kept block of the class used least recently, other than {@code keep}; false when
     * there is none. Blocks of {@code keep} itself are not traded for another of the same size.
     */
    private boolean evictOne(SizeClass keep) {
        SizeClass victim = null;
        for (int c = MIN_CLASS; c <= MAX_CLASS; c++) {
            SizeClass s = classes[c];
            if (s != keep && s.depth() > 0 && (victim == null || s.lastUse < victim.lastUse)) {
                victim = s;
            }
        }
        if (victim == null) {
            return false;
        }
        long a = victim.pop();
        if (a != 0) { // 0: another thread took it meanwhile; the caller looks again
            retained.addAndGet(-victim.bytes);
            MemoryUtil.freeMemory(a);
        }
        return true;
    }

    private static final class SizeClass {
        final long bytes;
        /** When a block of this class was last asked for or given back (nanoTime), for eviction. */
        volatile long lastUse;
        private long[] stack = new long[4];
        private int depth;

        SizeClass(long bytes) {
            this.bytes = bytes;
        }

        synchronized long pop() {
            return depth == 0 ? 0 : stack[--depth];
        }

        synchronized int depth() {
            return depth;
        }

        synchronized void push(long address) {
            if (depth == stack.length) {
                stack = java.util.Arrays.copyOf(stack, depth * 2);
            }
            stack[depth++] = address;
        }
    }

    private final class Block extends AllocationManager {
        private final long address;
        private final SizeClass sizeClass;

        Block(BufferAllocator accountingAllocator, long address, SizeClass sizeClass) {
            super(accountingAllocator);
            this.address = address;
            this.sizeClass = sizeClass;
        }

        @Override
        public long getSize() {
            return sizeClass.bytes;
        }

        @Override
        protected long memoryAddress() {
            return address;
        }

        @Override
        protected void release0() {
            giveBack(address, sizeClass);
        }
    }
}
