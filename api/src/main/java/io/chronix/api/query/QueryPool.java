package io.chronix.api.query;

import io.chronix.api.sql.QueryCancelledException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The platform threads that run a query's work: parsing, the engine's scans and aggregation,
 * DuckDB's execution, and each fetch of a result batch through the Arrow C Data Interface. HTTP
 * requests run on virtual threads, and a virtual thread inside a native call (DuckDB executing a
 * statement) or inside a long stretch of Java code that never blocks (an aggregation over millions
 * of rows) holds its carrier thread the whole time: there are as many carriers as cores, so two
 * such queries on two cores stopped every other request of the node — another tenant's write,
 * {@code /ping}, the liveness probe — until they ended (issue 43; a thread dump showed both
 * carriers in {@code DuckDBNative.duckdb_jdbc_execute_pending}). Here the request thread hands
 * that work to one of these threads and parks, which frees its carrier; the operating system
 * shares the cores between the pool's threads and the carriers, so HTTP keeps being served however
 * long the statements run.
 *
 * <p>Bounded twice: {@code threads} statements compute at once, and at most {@code maxWaiting}
 * queries wait for their first job; past that {@link #submit} refuses ({@link Full}, answered 503)
 * rather than queue without limit. A running query's later jobs (the next batch of its answer)
 * go to the head of the queue and are never refused: a query that started is finished before new
 * ones start, and its memory is held no longer than it must be.
 *
 * <p>Jobs run at most once. A job still queued can be {@linkplain Job#abandon() abandoned} (a
 * timeout, a cancel, an interrupt): it then never runs, and its waiter is released at once. A job
 * that started runs to its end, and {@link #await} waits for that end whatever happens, so no
 * job ever touches a query's memory after the request has released it.
 *
 * <p>Threading: thread-safe.
 */
final class QueryPool implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(QueryPool.class);

    /** Refused: {@code maxWaiting} queries already wait for a thread. */
    static final class Full extends RuntimeException {
        final int threads;
        final int waiting;

        Full(int threads, int waiting) {
            super("query pool full");
            this.threads = threads;
            this.waiting = waiting;
        }
    }

    /** One piece of a query's work, run at most once on a pool thread. */
    static final class Job<T> {
        private static final int QUEUED = 0;
        private static final int RUNNING = 1;
        private static final int DONE = 2;
        private static final int ABANDONED = 3;

        private final Callable<T> work;
        private final boolean first;
        private final QueryPool pool;
        private final AtomicInteger state = new AtomicInteger(QUEUED);
        private final Thread waiter = Thread.currentThread();
        private T value;
        private Throwable failure;

        private Job(QueryPool pool, Callable<T> work, boolean first) {
            this.pool = pool;
            this.work = work;
            this.first = first;
        }

        /**
         * Takes the job out of the queue if no thread has started it; its waiter then gets a
         * {@link QueryCancelledException}. Returns whether it will never run. A running job is not
         * touched: cancel its statement instead.
         */
        boolean abandon() {
            if (!state.compareAndSet(QUEUED, ABANDONED)) {
                return false;
            }
            pool.dequeued(this);
            pool.queue.remove(this);
            LockSupport.unpark(waiter);
            return true;
        }

        private void run() {
            try {
                value = work.call();
            } catch (Throwable t) {
                failure = t;
            }
            state.set(DONE); // publishes value and failure
            LockSupport.unpark(waiter);
        }
    }

    private final LinkedBlockingDeque<Job<?>> queue = new LinkedBlockingDeque<>();
    private final Thread[] workers;
    private final int maxWaiting;
    /** First jobs queued and not yet started or abandoned: queries waiting for a thread. */
    private final AtomicInteger waiting = new AtomicInteger();
    private final AtomicInteger busy = new AtomicInteger();
    private final LongAdder refused = new LongAdder();
    private volatile boolean closed;

    /**
     * @param threads    platform threads, each running one job at a time
     * @param maxWaiting queries that may wait for a thread; the next one is refused
     */
    QueryPool(int threads, int maxWaiting) {
        this(threads, maxWaiting, 0);
    }

    /**
     * @param niceStep raise each thread's Linux nice value by this much (0: leave it): with every
     *                 core busy, the scheduler then favours the threads that serve HTTP over
     *                 queries' statements ({@link ThreadNice})
     */
    QueryPool(int threads, int maxWaiting, int niceStep) {
        if (threads < 1 || maxWaiting < 0) {
            throw new IllegalArgumentException("a query pool needs a thread and a queue of zero or more [threads=" + threads
                    + ", maxWaiting=" + maxWaiting + "]");
        }
        this.maxWaiting = maxWaiting;
        this.workers = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            workers[i] = Thread.ofPlatform().daemon().name("chronix-query-" + (i + 1)).unstarted(() -> {
                if (niceStep > 0 && ThreadNice.lowerCurrentThread(niceStep) < 0) {
                    log.debug("query thread priority unchanged (not supported here)");
                }
                work();
            });
            workers[i].start();
        }
    }

    /**
     * Queues the first job of a query, behind the jobs of queries already running.
     *
     * @throws Full if {@code maxWaiting} queries already wait for a thread
     */
    <T> Job<T> submit(Callable<T> work) {
        if (waiting.incrementAndGet() > maxWaiting + idleThreads()) {
            waiting.decrementAndGet();
            refused.increment();
            throw new Full(workers.length, maxWaiting);
        }
        Job<T> job = new Job<>(this, work, true);
        enqueue(job, false);
        return job;
    }

    /** Queues a later job of a running query, ahead of queries that have not started. Never refused. */
    <T> Job<T> continueWith(Callable<T> work) {
        Job<T> job = new Job<>(this, work, false);
        enqueue(job, true);
        return job;
    }

    private void enqueue(Job<?> job, boolean front) {
        if (closed) {
            job.abandon();
            return;
        }
        if (front) {
            queue.offerFirst(job);
        } else {
            queue.offerLast(job);
        }
    }

    /** Threads not running a job now (an estimate: it races with them taking and finishing jobs). */
    private int idleThreads() {
        return Math.max(0, workers.length - busy.get());
    }

    /**
     * Waits for {@code job} and returns its value or throws its exception. An abandoned job throws
     * {@link QueryCancelledException}. An interrupt calls {@code onInterrupt} (which should cancel
     * the statement and abandon the job) and keeps waiting until the job is done or abandoned; the
     * interrupt is then re-asserted. Never returns while the job runs.
     */
    static <T> T await(Job<T> job, Runnable onInterrupt) throws IOException {
        assert job.waiter == Thread.currentThread() : "a job is awaited by the thread that queued it";
        boolean interrupted = false;
        int s;
        while ((s = job.state.get()) == Job.QUEUED || s == Job.RUNNING) {
            LockSupport.park(job);
            if (Thread.interrupted() && !interrupted) {
                interrupted = true;
                onInterrupt.run();
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (s == Job.ABANDONED) {
            throw new QueryCancelledException();
        }
        Throwable f = job.failure;
        if (f == null) {
            return job.value;
        }
        switch (f) {
            case RuntimeException e -> throw e;
            case IOException e -> throw e;
            case Error e -> throw e;
            default -> throw new IllegalStateException("a query job failed: " + f.getMessage(), f);
        }
    }

    private void dequeued(Job<?> job) {
        if (job.first) {
            waiting.decrementAndGet();
        }
    }

    private void work() {
        while (!closed) {
            Job<?> job;
            try {
                job = queue.take();
            } catch (InterruptedException e) {
                continue; // close() interrupts: the loop checks closed
            }
            if (!job.state.compareAndSet(Job.QUEUED, Job.RUNNING)) {
                continue; // abandoned while queued
            }
            dequeued(job);
            busy.incrementAndGet();
            try {
                job.run();
            } finally {
                busy.decrementAndGet();
                Thread.interrupted(); // a job's interrupt must not reach the next job or the take
            }
        }
    }

    /** Threads of the pool. */
    int threads() {
        return workers.length;
    }

    /** Jobs running now. */
    int running() {
        return busy.get();
    }

    /** Queries waiting for their first job to start. */
    int waiting() {
        return Math.max(0, waiting.get());
    }

    /** Queries refused since start because too many waited. */
    long refused() {
        return refused.sum();
    }

    /** Abandons every queued job and stops the threads once their jobs end. */
    @Override
    public void close() {
        closed = true;
        for (Job<?> j; (j = queue.poll()) != null; ) {
            j.abandon();
        }
        for (Thread t : workers) {
            t.interrupt();
        }
        log.debug("query pool closed [threads={}]", workers.length);
    }
}
