package io.chronix.engine.maintenance;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class MaintenanceSchedulerTest {

    @Test
    void requestsCoalesceAndARequestDuringARunQueuesExactlyOneMore() throws Exception {
        try (MaintenanceScheduler s = MaintenanceScheduler.create(2)) {
            CountDownLatch inside = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicInteger runs = new AtomicInteger();
            MaintenanceScheduler.Task t = s.task("t", () -> {
                if (runs.incrementAndGet() == 1) {
                    inside.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
            t.request();
            assertThat(inside.await(5, TimeUnit.SECONDS)).isTrue();
            for (int i = 0; i < 100; i++) {
                t.request(); // while running: one more run, not a hundred
            }
            release.countDown();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (runs.get() < 2 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            Thread.sleep(100);
            assertThat(runs.get()).isEqualTo(2);
        }
    }

    @Test
    void aRunQueuedBehindOneCancelledWhileRunningNeitherRunsNorCounts() throws Exception {
        try (MaintenanceScheduler s = MaintenanceScheduler.create(2)) {
            CountDownLatch inside = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicInteger bodies = new AtomicInteger();
            MaintenanceScheduler.Task t = s.task("t", () -> {
                bodies.incrementAndGet();
                inside.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            t.request();
            assertThat(inside.await(5, TimeUnit.SECONDS)).isTrue();
            t.request(); // queued behind the running one
            t.cancel();
            release.countDown();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (s.runs() < 1 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            Thread.sleep(200); // time for a wrongly resubmitted run to show
            assertThat(bodies.get()).isEqualTo(1);
            assertThat(s.runs()).as("the queued run after the cancel is not a run").isEqualTo(1);
            t.request();
            Thread.sleep(50);
            assertThat(s.runs()).as("a cancelled task takes no new requests").isEqualTo(1);
        }
    }

    @Test
    void thousandsOfEnginesShareTheBoundedPool() throws Exception {
        try (MaintenanceScheduler s = MaintenanceScheduler.create(2)) {
            int engines = 2000;
            CountDownLatch done = new CountDownLatch(engines);
            java.util.Set<String> threads = java.util.concurrent.ConcurrentHashMap.newKeySet();
            for (int i = 0; i < engines; i++) {
                s.task("e" + i, () -> {
                    threads.add(Thread.currentThread().getName());
                    done.countDown();
                }).request();
            }
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(threads).hasSizeLessThanOrEqualTo(2).allMatch(n -> n.startsWith("chronix-maintenance-"));
        }
    }

    @Test
    void aFailingTaskIsCountedAndTheThreadSurvives() throws Exception {
        try (MaintenanceScheduler s = MaintenanceScheduler.create(1)) {
            CountDownLatch after = new CountDownLatch(1);
            s.task("bad", () -> {
                throw new IllegalStateException("boom");
            }).request();
            s.task("good", after::countDown).request();
            assertThat(after.await(5, TimeUnit.SECONDS)).isTrue();
            assertThat(s.failures()).isEqualTo(1);
        }
    }
}
