package io.chronix.api.query;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** Deadlines are honoured once, never early, never after the alarm is closed, and after an idle spell too. */
@Timeout(30)
class QueryWatchdogTest {

    @Test
    void anActionRunsOnceAfterItsDeadlineAndNotBefore() throws Exception {
        try (QueryWatchdog w = new QueryWatchdog(Duration.ofMillis(5), Duration.ofSeconds(5))) {
            AtomicLong ranAt = new AtomicLong();
            AtomicInteger runs = new AtomicInteger();
            CountDownLatch ran = new CountDownLatch(1);
            long armedAt = System.nanoTime();
            w.arm(Duration.ofMillis(100), () -> {
                ranAt.set(System.nanoTime());
                runs.incrementAndGet();
                ran.countDown();
            });
            assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(ranAt.get() - armedAt).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(100));
            Thread.sleep(100);
            assertThat(runs.get()).isEqualTo(1);
        }
    }

    @Test
    void aClosedAlarmNeverRuns() throws Exception {
        try (QueryWatchdog w = new QueryWatchdog(Duration.ofMillis(5), Duration.ofSeconds(5))) {
            AtomicInteger runs = new AtomicInteger();
            CountDownLatch later = new CountDownLatch(1);
            w.arm(Duration.ofMillis(50), runs::incrementAndGet).close();
            w.arm(Duration.ofMillis(150), later::countDown); // runs after the closed one's deadline
            assertThat(later.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(runs.get()).isZero();
        }
    }

    /** With no query for longer than idleAfter the thread sleeps without a limit; the next alarm wakes it. */
    @Test
    void anAlarmArmedAfterAnIdleSpellRuns() throws Exception {
        try (QueryWatchdog w = new QueryWatchdog(Duration.ofMillis(5), Duration.ofMillis(20))) {
            for (int i = 0; i < 20; i++) {
                Thread.sleep(i % 2 == 0 ? 60 : 1); // past idleAfter, or not
                CountDownLatch ran = new CountDownLatch(1);
                w.arm(Duration.ofMillis(1), ran::countDown);
                assertThat(ran.await(10, TimeUnit.SECONDS)).as("alarm %d", i).isTrue();
            }
        }
    }

    @Test
    void aFailingActionDoesNotStopTheOthers() throws Exception {
        try (QueryWatchdog w = new QueryWatchdog(Duration.ofMillis(5), Duration.ofSeconds(5))) {
            CountDownLatch ran = new CountDownLatch(1);
            w.arm(Duration.ofMillis(10), () -> {
                throw new IllegalStateException("expected by the test");
            });
            w.arm(Duration.ofMillis(60), ran::countDown);
            assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
        }
    }
}
