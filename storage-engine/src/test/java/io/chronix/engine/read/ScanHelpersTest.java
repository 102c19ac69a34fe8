package io.chronix.engine.read;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ScanHelpersTest {

    @Test
    void partsAreSharedWithAHelperThatStarts() {
        ExecutorService pool = Executors.newFixedThreadPool(1);
        try {
            AtomicInteger next = new AtomicInteger();
            Set<String> threads = ConcurrentHashMap.newKeySet();
            CountDownLatch both = new CountDownLatch(2);
            List<Integer> done = java.util.Collections.synchronizedList(new ArrayList<>());
            new ScanHelpers(pool, 1).run(8, () -> {
                threads.add(Thread.currentThread().getName());
                both.countDown();
                try {
                    both.await(5, TimeUnit.SECONDS); // both threads are at work before any part is taken
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                for (int i = next.getAndIncrement(); i < 8; i = next.getAndIncrement()) {
                    done.add(i);
                }
            });
            assertThat(threads).hasSize(2);
            assertThat(done).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5, 6, 7);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aHelperStillQueuedWhenTheCallerIsDoneNeverRuns() {
        List<Runnable> queued = new ArrayList<>();
        AtomicInteger runs = new AtomicInteger();
        new ScanHelpers(queued::add, 3).run(10, runs::incrementAndGet);
        assertThat(runs).hasValue(1);
        assertThat(queued).hasSize(3);
        queued.forEach(Runnable::run); // the executor gets round to them later: called off, they do nothing
        assertThat(runs).hasValue(1);
    }

    @Test
    void aRejectingExecutorLeavesTheWorkToTheCallerAndOnePartNeedsNoHelper() {
        AtomicInteger runs = new AtomicInteger();
        new ScanHelpers(r -> {
            throw new RejectedExecutionException("full");
        }, 2).run(5, runs::incrementAndGet);
        assertThat(runs).hasValue(1);
        List<Runnable> queued = new ArrayList<>();
        new ScanHelpers(queued::add, 2).run(1, runs::incrementAndGet);
        assertThat(queued).isEmpty();
        assertThatThrownBy(() -> new ScanHelpers(Runnable::run, -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void onlyScansOfAtLeastMinRowsAreWorthWaking() {
        ScanHelpers byDefault = new ScanHelpers(Runnable::run, 1);
        assertThat(byDefault.minRows()).isEqualTo(ScanHelpers.MIN_ROWS);
        assertThat(byDefault.worthWaking(ScanHelpers.MIN_ROWS - 1)).isFalse();
        assertThat(byDefault.worthWaking(ScanHelpers.MIN_ROWS)).isTrue();
        assertThat(new ScanHelpers(Runnable::run, 0, 0).worthWaking(Long.MAX_VALUE)).as("no helper to wake").isFalse();
        assertThat(new ScanHelpers(Runnable::run, 2, 0).worthWaking(0)).isTrue();
        assertThatThrownBy(() -> new ScanHelpers(Runnable::run, 1, -1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("minRows");
    }
}
