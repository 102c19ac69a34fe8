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
 * (docs/benchmarks.md, "Per-query server costs"). Kept blocks are already mapped.
 *
 * <p>Blocks of at least {@link #MIN_POOLED_BYTES} are kept in power-of-two size classes, up to
 * {@code retainedLimit} bytes in all; smaller requests and anything past the limit go to the C
 * allocator as before. A block is zeroed when it is first allocated and again when it is given
 * back, so a block handed out holds zeros, as a fresh mapping would: no buffer ever shows bytes a
 * previous query (of any tenant) left in it.
 * Arrow's accounting sees each block's full size, which is what Arrow's power-of-two rounding asks
 * for anyway.
 *
 * <p>Threading: thread-safe; each size class is a small array stack under its own lock.
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
        if (retained.addAndGet(k.bytes) <= retainedLimit) {
            MemoryUtil.setMemory(address, k.bytes, (byte) 0);
            k.push(address);
        } else {
            retained.addAndGet(-k.bytes);
            MemoryUtil.freeMemory(address);
        }
    }

    private static final class SizeClass {
        final long bytes;
        private long[] stack = new long[4];
        private int depth;

        SizeClass(long bytes) {
            this.bytes = bytes;
        }

        synchronized long pop() {
            return depth == 0 ? 0 : stack[--depth];
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
