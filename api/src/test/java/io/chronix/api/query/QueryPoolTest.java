package io.chronix.api.query;

import io.chronix.api.sql.QueryCancelledException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The query pool: platform threads, bounded waiting, abandoning a queued job, waiting out a running one. */
class QueryPoolTest {

    private QueryPool pool;
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void close() {
        release.countDown();
        if (pool != null) {
            pool.close();
        }
    }

    /** Occupies one thread of the pool until {@link #release}; returns once it runs. */
    private QueryPool.Job<String> blocker() throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        QueryPool.Job<String> job = pool.submit(() -> {
            started.countDown();
            release.await();
            return "blocker";
        });
        assertThat(started.await(10, TimeUnit.SECONDS)).as("the blocker started").isTrue();
        return job;
    }

    @Test
    void jobsRunOnThePoolsPlatformThreads() throws Exception {
        pool = new QueryPool(2, 4);
        AtomicReference<Thread> ran = new AtomicReference<>();
        AtomicReference<Object> answer = new AtomicReference<>();
        Thread caller = Thread.ofVirtual().start(() -> {
            try {
                answer.set(QueryPool.await(pool.submit(() -> {
                    ran.set(Thread.currentThread());
                    return 42;
                }), () -> { }));
            } catch (Exception e) {
                answer.set(e);
            }
        });
        caller.join(10_000);
        assertThat(answer.get()).isEqualTo(42);
        assertThat(ran.get().isVirtual()).as("a carrier is never the one computing").isFalse();
        assertThat(ran.get().getName()).startsWith("chronix-query-");
    }

    @Test
    void aJobStillQueuedIsAbandonedAtOnceAndNeverRuns() throws Exception {
        pool = new QueryPool(1, 4);
        QueryPool.Job<String> blocker = blocker();
        AtomicBoolean ran = new AtomicBoolean();
        QueryPool.Job<String> waiting = pool.submit(() -> {
            ran.set(true);
            return "late";
        });
        assertThat(pool.waiting()).isEqualTo(1);
        assertThat(waiting.abandon()).isTrue();
        assertThat(pool.waiting()).as("an abandoned query no longer waits").isZero();
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> QueryPool.await(waiting, () -> { })).isInstanceOf(QueryCancelledException.class);
        assertThat(System.nanoTime() - t0).as("released without waiting for the busy thread").isLessThan(TimeUnit.SECONDS.toNanos(1));
        release.countDown();
        assertThat(QueryPool.await(blocker, () -> { })).isEqualTo("blocker");
        // the pool is free again: a later job runs, the abandoned one never did
        assertThat(QueryPool.await(pool.submit(() -> "next"), () -> { })).isEqualTo("next");
        assertThat(ran).as("the abandoned job ran").isFalse();
    }

    @Test
    void aRunningJobCannotBeAbandoned() throws Exception {
        pool = new QueryPool(1, 4);
        QueryPool.Job<String> blocker = blocker();
        assertThat(blocker.abandon()).isFalse();
        release.countDown();
        assertThat(QueryPool.await(blocker, () -> { })).isEqualTo("blocker");
    }

    @Test
    void pastItsQueueThePoolRefusesNewQueries() throws Exception {
        pool = new QueryPool(1, 1);
        blocker();
        QueryPool.Job<String> queued = pool.submit(() -> "queued");
        assertThatThrownBy(() -> pool.submit(() -> "refused")).isInstanceOf(QueryPool.Full.class);
        assertThat(pool.refused()).isEqualTo(1);
        // a running query's next job is never refused
        QueryPool.Job<String> next = pool.continueWith(() -> "next batch");
        release.countDown();
        assertThat(QueryPool.await(next, () -> { })).isEqualTo("next batch");
        assertThat(QueryPool.await(queued, () -> { })).isEqualTo("queued");
    }

    @Test
    void laterJobsOfRunningQueriesGoAheadOfQueriesNotStarted() throws Exception {
        pool = new QueryPool(1, 8);
        blocker();
        List<String> order = new CopyOnWriteArrayList<>();
        QueryPool.Job<Void> fresh = pool.submit(() -> {
            order.add("new query");
            return null;
        });
        QueryPool.Job<Void> batch = pool.continueWith(() -> {
            order.add("next batch");
            return null;
        });
        release.countDown();
        QueryPool.await(fresh, () -> { });
        QueryPool.await(batch, () -> { });
        assertThat(order).containsExactly("next batch", "new query");
    }

    @Test
    void anInterruptedWaiterCancelsAndWaitsForTheRunningJobToEnd() throws Exception {
        pool = new QueryPool(1, 4);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch cancelled = new CountDownLatch(1);
        AtomicReference<Object> outcome = new AtomicReference<>();
        AtomicBoolean stillInterrupted = new AtomicBoolean();
        AtomicBoolean jobEnded = new AtomicBoolean();
        Thread waiter = Thread.ofVirtual().start(() -> {
            QueryPool.Job<String> job = pool.submit(() -> {
                started.countDown();
                cancelled.await(); // a statement runs until its cancel arrives
                Thread.sleep(100);  // and takes a moment to stop
                jobEnded.set(true);
                return "stopped";
            });
            try {
                outcome.set(QueryPool.await(job, cancelled::countDown));
                outcome.set(outcome.get() + (jobEnded.get() ? " after the job ended" : " while it ran"));
            } catch (Exception e) {
                outcome.set(e);
            }
            stillInterrupted.set(Thread.currentThread().isInterrupted());
        });
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        waiter.interrupt();
        waiter.join(10_000);
        assertThat(outcome.get()).isEqualTo("stopped after the job ended");
        assertThat(stillInterrupted).as("the interrupt is kept for the caller").isTrue();
    }

    @Test
    void closingAbandonsWhatIsQueued() throws Exception {
        pool = new QueryPool(1, 4);
        blocker();
        QueryPool.Job<String> queued = pool.submit(() -> "never");
        pool.close();
        assertThatThrownBy(() -> QueryPool.await(queued, () -> { })).isInstanceOf(QueryCancelledException.class);
    }
}
