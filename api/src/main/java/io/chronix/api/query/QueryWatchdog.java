package io.chronix.api.query;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs each running query's timeout action once its deadline has passed. One thread looks at the
 * deadlines every {@code tick} while queries have run within the last {@code idleAfter}, and
 * sleeps until the next query after that. A timer task per query (a scheduled executor) woke its
 * thread once per query, and kept every cancelled task queued until its deadline: on a busy
 * service, a thread wake-up per query for nothing. Here a query costs an insertion and a removal
 * in a concurrent set, and a wake-up only when it is the first after an idle spell.
 *
 * <p>A deadline is honoured within about one tick after it passes. Threading: safe.
 */
final class QueryWatchdog implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(QueryWatchdog.class);

    /** One armed deadline; close it when its query ends. */
    final class Alarm implements AutoCloseable {
        private final long deadline;
        private final Runnable action;

        private Alarm(long deadline, Runnable action) {
            this.deadline = deadline;
            this.action = action;
        }

        /** Disarms it: the action does not run if it has not run yet. */
        @Override
        public void close() {
            armed.remove(this);
        }
    }

    private final Set<Alarm> armed = ConcurrentHashMap.newKeySet();
    private final long tickNanos;
    private final long idleAfterNanos;
    private final Thread thread;
    /** True while the thread is (about to be) parked without a time limit; arming then wakes it. */
    private volatile boolean idle;
    private volatile boolean closed;

    QueryWatchdog(Duration tick, Duration idleAfter) {
        if (!tick.isPositive() || idleAfter.isNegative()) {
            throw new IllegalArgumentException("tick must be positive and idleAfter not negative [tick=" + tick
                    + ", idleAfter=" + idleAfter + "]");
        }
        this.tickNanos = tick.toNanos();
        this.idleAfterNanos = idleAfter.toNanos();
        this.thread = new Thread(this::watch, "chronix-query-timeouts");
        thread.setDaemon(true);
        thread.start();
    }

    /** Runs {@code action} on the watchdog's thread once {@code timeout} has passed, unless the alarm is closed first. */
    Alarm arm(Duration timeout, Runnable action) {
        Alarm a = new Alarm(System.nanoTime() + timeout.toNanos(), action);
        armed.add(a);
        if (idle) { // read after the add: the thread reads the set after setting idle (see watch)
            LockSupport.unpark(thread);
        }
        return a;
    }

    private void watch() {
        long lastBusy = System.nanoTime();
        while (!closed) {
            long now = System.nanoTime();
            for (Alarm a : armed) {
                if (now - a.deadline >= 0 && armed.remove(a)) {
                    try {
                        a.action.run();
                    } catch (RuntimeException e) {
                        log.warn("a query's timeout action failed", e);
                    }
                }
            }
            if (!armed.isEmpty()) {
                lastBusy = now;
            }
            if (now - lastBusy >= idleAfterNanos) {
                idle = true;
                if (armed.isEmpty() && !closed) {
                    LockSupport.park(this); // until arm, close or a spurious wake-up: the loop looks again
                }
                idle = false;
                lastBusy = System.nanoTime();
            } else {
                LockSupport.parkNanos(this, tickNanos);
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(thread);
    }
}
