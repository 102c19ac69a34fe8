package io.chronix.api.query;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RecyclingMemoryTest {

    private static BufferAllocator root(RecyclingMemory memory) {
        return new RootAllocator(RootAllocator.configBuilder().allocationManagerFactory(memory).build());
    }

    @Test
    void sizeClassesArePowersOfTwoFromSixtyFourKibToSixteenMib() {
        assertThat(RecyclingMemory.sizeClass(64 * 1024 - 1)).isEqualTo(-1);
        assertThat(RecyclingMemory.sizeClass(64 * 1024)).isEqualTo(16);
        assertThat(RecyclingMemory.sizeClass(64 * 1024 + 1)).isEqualTo(17);
        assertThat(RecyclingMemory.sizeClass(1 << 20)).isEqualTo(20);
        assertThat(RecyclingMemory.sizeClass(16 << 20)).isEqualTo(24);
        assertThat(RecyclingMemory.sizeClass((16 << 20) + 1)).isEqualTo(-1);
    }

    @Test
    void aReleasedBlockIsKeptAndHandedOutAgainAtTheSameAddress() {
        RecyclingMemory memory = new RecyclingMemory(64 << 20);
        try (BufferAllocator a = root(memory)) {
            long first;
            try (ArrowBuf b = a.buffer(1 << 20)) {
                first = b.memoryAddress();
                assertThat(a.getAllocatedMemory()).isEqualTo(1 << 20);
            }
            assertThat(memory.retainedBytes()).isEqualTo(1 << 20);
            try (ArrowBuf b = a.buffer(1 << 20)) {
                assertThat(b.memoryAddress()).isEqualTo(first);
                assertThat(memory.retainedBytes()).isZero();
            }
            assertThat(a.getAllocatedMemory()).isZero();
        }
    }

    @Test
    void aReusedBlockHoldsZerosNotWhatThePreviousQueryWrote() {
        RecyclingMemory memory = new RecyclingMemory(64 << 20);
        try (BufferAllocator a = root(memory)) {
            long address;
            try (ArrowBuf b = a.buffer(256 << 10)) {
                address = b.memoryAddress();
                for (long i = 0; i < b.capacity(); i += 8) {
                    b.setLong(i, 0x5EC2E7_5EC2E7L);
                }
            }
            try (ArrowBuf b = a.buffer(256 << 10)) {
                assertThat(b.memoryAddress()).isEqualTo(address);
                for (long i = 0; i < b.capacity(); i += 8) {
                    assertThat(b.getLong(i)).as("offset %d", i).isZero();
                }
            }
        }
    }

    @Test
    void nothingIsKeptPastTheLimitAndSmallBlocksAreNeverKept() {
        RecyclingMemory memory = new RecyclingMemory(1 << 20);
        try (BufferAllocator a = root(memory)) {
            ArrowBuf x = a.buffer(1 << 20);
            ArrowBuf y = a.buffer(1 << 20);
            ArrowBuf small = a.buffer(4096);
            x.close();
            y.close();
            small.close();
            assertThat(memory.retainedBytes()).isEqualTo(1 << 20);
        }
        RecyclingMemory none = new RecyclingMemory(0);
        try (BufferAllocator a = root(none)) {
            a.buffer(1 << 20).close();
            assertThat(none.retainedBytes()).isZero();
        }
    }

    @Test
    void aFullPoolMakesRoomForTheSizesInUseByFreeingTheLeastRecentlyUsedClass() {
        RecyclingMemory memory = new RecyclingMemory(4 << 20);
        try (BufferAllocator a = root(memory)) {
            // one query's sizes fill the limit: 1 MiB, then 2 MiB blocks
            ArrowBuf one = a.buffer(1 << 20);
            ArrowBuf two = a.buffer(2 << 20);
            ArrowBuf otherOne = a.buffer(1 << 20);
            one.close();
            otherOne.close();
            two.close();
            assertThat(memory.retainedBytes()).isEqualTo(4 << 20);
            // the next query asks for 256 KiB blocks: the 1 MiB class, the older one, gives way
            ArrowBuf small = a.buffer(256 << 10);
            long smallAddress = small.memoryAddress();
            small.close();
            assertThat(memory.retainedBytes()).as("a 1 MiB block freed, the 256 KiB one kept").isEqualTo((3 << 20) + (256 << 10));
            try (ArrowBuf again = a.buffer(256 << 10)) {
                assertThat(again.memoryAddress()).as("handed out again, not mapped afresh").isEqualTo(smallAddress);
            }
            try (ArrowBuf keptTwo = a.buffer(2 << 20)) {
                assertThat(memory.retainedBytes()).as("the 2 MiB block was kept").isEqualTo((1 << 20) + (256 << 10));
            }
            // a block of the same class as those kept does not displace them
            ArrowBuf x = a.buffer(2 << 20);
            ArrowBuf y = a.buffer(2 << 20);
            long before = memory.retainedBytes();
            x.close();
            y.close();
            assertThat(memory.retainedBytes()).isLessThanOrEqualTo(4 << 20);
            assertThat(memory.retainedBytes()).isGreaterThan(before);
        }
    }

    @Test
    void theLimitHoldsWhileManyThreadsGiveBackBlocksOfManySizes() throws Exception {
        RecyclingMemory memory = new RecyclingMemory(8 << 20);
        try (BufferAllocator a = root(memory)) {
            java.util.concurrent.atomic.AtomicLong highest = new java.util.concurrent.atomic.AtomicLong();
            Thread[] threads = new Thread[4];
            for (int t = 0; t < threads.length; t++) {
                int seed = t;
                threads[t] = new Thread(() -> {
                    java.util.Random r = new java.util.Random(seed);
                    for (int i = 0; i < 2_000; i++) {
                        try (ArrowBuf b = a.buffer((64L << 10) << r.nextInt(6))) {
                            b.setByte(0, 1);
                        }
                        highest.accumulateAndGet(memory.retainedBytes(), Math::max);
                    }
                });
                threads[t].start();
            }
            for (Thread t : threads) {
                t.join();
            }
            assertThat(highest.get()).isPositive().isLessThanOrEqualTo(8 << 20);
            assertThat(memory.retainedBytes()).isLessThanOrEqualTo(8 << 20);
            memory.trim();
            assertThat(memory.retainedBytes()).isZero();
        }
    }

    @Test
    void trimFreesEveryKeptBlock() {
        RecyclingMemory memory = new RecyclingMemory(64 << 20);
        try (BufferAllocator a = root(memory)) {
            a.buffer(1 << 20).close();
            a.buffer(4 << 20).close();
            assertThat(memory.retainedBytes()).isEqualTo(5 << 20);
            memory.trim();
            assertThat(memory.retainedBytes()).isZero();
        }
    }

    @Test
    void vectorsBuiltOnRecycledMemoryKeepTheirValuesAndTheAllocatorsLimitStillHolds() {
        RecyclingMemory memory = new RecyclingMemory(64 << 20);
        try (BufferAllocator a = root(memory); BufferAllocator query = a.newChildAllocator("q", 0, 2 << 20)) {
            for (int round = 0; round < 3; round++) {
                try (BigIntVector v = new BigIntVector("v", query)) {
                    v.allocateNew(100_000);
                    for (int i = 0; i < 100_000; i++) {
                        v.set(i, (long) i * round);
                    }
                    v.setValueCount(100_000);
                    assertThat(v.get(99_999)).isEqualTo(99_999L * round);
                    assertThat(v.isNull(12_345)).isFalse();
                }
            }
            assertThatThrownBy(() -> query.buffer(4 << 20)).isInstanceOf(org.apache.arrow.memory.OutOfMemoryException.class);
        }
    }

    @Test
    void aNegativeLimitIsRefused() {
        assertThatThrownBy(() -> new RecyclingMemory(-1)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
    }
}
