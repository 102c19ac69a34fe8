package io.chronix.engine.maintenance;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A bounded pool of daemon threads ({@code chronix-maintenance-N}) shared by all engines.
 *
 * <p>Engines submit <em>coalescing</em> work through a {@link Task}: however often an engine asks
 * for a flush, at most one run of it is queued and at most one runs at a time, so the queue holds
 * at most one entry per engine and per kind of work. A task that throws is logged and counted;
 * the thread survives.
 *
 * <p>Lifecycle: the owner (the service, or a test) creates one and closes it after closing its
 * engines. Closing stops accepting work and waits for running tasks to end.
 *
 * <p>Threading: thread-safe.
 */
public final class MaintenanceScheduler implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(MaintenanceScheduler.class.getName());

    private final ScheduledThreadPoolExecutor executor;
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong runs = new AtomicLong();

    private MaintenanceScheduler(int threads) {
        AtomicInteger n = new AtomicInteger();
        this.executor = new ScheduledThreadPoolExecutor(threads, r -> {
            Thread t = new Thread(r, "chronix-maintenance-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        executor.setRemoveOnCancelPolicy(true);
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    /** A scheduler with {@code threads} threads (at least 1). */
    public static MaintenanceScheduler create(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1: " + threads);
        }
        return new MaintenanceScheduler(threads);
    }

    /** Half the processors, at least one: maintenance must not starve the write and query paths. */
    public static MaintenanceScheduler createDefault() {
        return create(Math.max(1, Runtime.getRuntime().availableProcessors() / 2));
    }

    /** The executor for periodic work of fixed rate (the WAL's periodic sync). */
    public ScheduledExecutorService executor() {
        return executor;
    }

    /** A coalescing task running {@code body}. */
    public Task task(String name, Runnable body) {
        return new Task(name, body);
    }

    /** Task runs completed, successfully or not. */
    public long runs() {
        return runs.get();
    }

    /** Task runs that threw. */
    public long failures() {
        return failures.get();
    }

    public int threads() {
        return executor.getCorePoolSize();
    }

    @Override
    public void close() {
        executor.shutdown();
        try {
            if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
                LOG.log(Level.WARNING, "maintenance tasks still running after 30 s; abandoning them");
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Work of one engine that runs at most once at a time and is queued at most once. A request
     * made while it runs queues exactly one more run, so nothing asked for after a run started is
     * missed.
     */
    public final class Task {

        private static final int IDLE = 0;
        private static final int QUEUED = 1;
        private static final int RUNNING = 2;
        private static final int RUNNING_AND_QUEUED = 3;

        private final String name;
        private final Runnable body;
        private final AtomicInteger state = new AtomicInteger(IDLE);
        private volatile boolean cancelled;

        private Task(String name, Runnable body) {
            this.name = name;
            this.body = body;
        }

        /** Asks for a run as soon as a thread is free. */
        public void request() {
            request(Duration.ZERO);
        }

        /** Asks for a run after {@code delay} (a retry's back-off). */
        public void request(Duration delay) {
            while (!cancelled) {
                int s = state.get();
                if (s == QUEUED || s == RUNNING_AND_QUEUED) {
                    return;
                }
                int next = s == IDLE ? QUEUED : RUNNING_AND_QUEUED;
                if (state.compareAndSet(s, next)) {
                    if (s == IDLE) {
                        submit(delay);
                    }
                    return;
                }
            }
        }

        private void submit(Duration delay) {
            try {
                executor.schedule(this::run, delay.toNanos(), TimeUnit.NANOSECONDS);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                state.set(IDLE);
                LOG.log(Level.DEBUG, "maintenance scheduler closed; task not run: " + name);
            }
        }

        private void run() {
            if (cancelled) {
                // queued before the cancel (or by the run that was going when it came): not a run
                state.set(IDLE);
                return;
            }
            state.set(RUNNING);
            try {
                body.run();
            } catch (RuntimeException | Error e) {
                failures.incrementAndGet();
                LOG.log(Level.WARNING, "maintenance task failed: " + name, e);
            } finally {
                runs.incrementAndGet();
            }
            if (!state.compareAndSet(RUNNING, IDLE)) {
                if (cancelled) {
                    state.set(IDLE);
                    return;
                }
                state.set(QUEUED);
                submit(Duration.ZERO);
            }
        }

        /** No further runs start; one already running finishes. */
        public void cancel() {
            cancelled = true;
        }

        public String name() {
            return name;
        }
    }

    /** Schedules {@code r} at a fixed delay (used by engines for the periodic WAL sync). */
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable r, Duration period) {
        long nanos = period.toNanos();
        return executor.scheduleWithFixedDelay(r, nanos, nanos, TimeUnit.NANOSECONDS);
    }
}
