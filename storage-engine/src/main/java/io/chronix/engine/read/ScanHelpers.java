package io.chronix.engine.read;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Threads a scan may borrow to read independent parts (settled segments) side by side; the
 * engine owns no thread, so the caller lends them. The calling thread always works too, and a
 * helper that has not started by the time the caller runs out of work is called off, so a busy
 * executor (other queries' scans queued in it) delays nobody: the scan then runs on the caller
 * alone.
 *
 * @param executor where helper tasks run; its threads must not wait for the caller
 * @param helpers  at most this many helper tasks per scan (0: the caller alone)
 * @param minRows  scans expected to read fewer rows than this run on the caller alone
 *                 ({@link #worthWaking}); {@link #MIN_ROWS} by default
 */
public record ScanHelpers(Executor executor, int helpers, long minRows) {

    /**
     * The default {@link #minRows}. Handing a part to a parked helper costs a thread wake-up (tens
     * to hundreds of microseconds on a shared machine, and a cold core after it): about what the
     * caller spends decoding a few ten thousand rows itself. A one-series, one-hour query reads two
     * segments of 180 rows each and used to wake a helper for one of them (docs/benchmarks.md,
     * "Small scans on the caller alone").
     */
    public static final long MIN_ROWS = 2L * 65_536;

    public ScanHelpers {
        Objects.requireNonNull(executor, "executor");
        if (helpers < 0) {
            throw new IllegalArgumentException("helpers must not be negative: " + helpers);
        }
        if (minRows < 0) {
            throw new IllegalArgumentException("minRows must not be negative: " + minRows);
        }
    }

    /** Helpers for scans of at least {@link #MIN_ROWS} rows. */
    public ScanHelpers(Executor executor, int helpers) {
        this(executor, helpers, MIN_ROWS);
    }

    /** Whether a scan expected to read {@code estimatedRows} rows is large enough to share out. */
    public boolean worthWaking(long estimatedRows) {
        return helpers > 0 && estimatedRows >= minRows;
    }

    /**
     * Runs {@code worker} on the calling thread and on up to {@code min(helpers, parts - 1)} helper
     * tasks, and returns once every run that started has finished. Each run takes parts from a
     * shared counter until none is left, so {@code worker} must be safe to run on several threads.
     *
     * @param parts how many independent pieces of work there are (no helper for fewer than two)
     */
    public void run(int parts, Runnable worker) {
        int n = Math.min(helpers, parts - 1);
        List<Helper> started = new ArrayList<>(Math.max(0, n));
        for (int i = 0; i < n; i++) {
            Helper h = new Helper(worker);
            try {
                executor.execute(h);
                started.add(h);
            } catch (RejectedExecutionException full) {
                break; // the caller does the rest
            }
        }
        try {
            worker.run();
        } finally {
            for (Helper h : started) {
                h.finishOrCallOff();
            }
        }
    }

    /** One helper task: runs the worker unless called off before it started. */
    private static final class Helper implements Runnable {
        private static final int PENDING = 0;
        private static final int RUNNING = 1;
        private static final int CALLED_OFF = 2;

        private final Runnable worker;
        private final AtomicInteger state = new AtomicInteger(PENDING);
        private final CountDownLatch done = new CountDownLatch(1);

        Helper(Runnable worker) {
            this.worker = worker;
        }

        @Override
        public void run() {
            if (!state.compareAndSet(PENDING, RUNNING)) {
                return;
            }
            try {
                worker.run();
            } finally {
                done.countDown();
            }
        }

        /** Waits for a helper at work; one still queued never runs. */
        void finishOrCallOff() {
            if (state.compareAndSet(PENDING, CALLED_OFF)) {
                return;
            }
            boolean interrupted = false;
            while (true) {
                try {
                    done.await();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true; // the helper holds the scan's buffers: wait for it regardless
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
