package io.chronix.api.query;

import org.junit.jupiter.api.Test;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** A thread lowers its own CPU priority by a step, and only its own. */
class ThreadNiceTest {

    @Test
    void aThreadRaisesItsOwnNiceValueByTheStep() throws Exception {
        // the service runs on Linux (the only system whose nice value the pool sets): elsewhere this fails, never skips
        assertThat(System.getProperty("os.name", "").toLowerCase(Locale.ROOT)).contains("linux");
        AtomicInteger first = new AtomicInteger();
        AtomicInteger second = new AtomicInteger();
        Thread t = Thread.ofPlatform().start(() -> {
            first.set(ThreadNice.lowerCurrentThread(3));
            second.set(ThreadNice.lowerCurrentThread(3));
        });
        t.join();
        assertThat(first.get()).as("set").isBetween(3, 19);
        assertThat(second.get()).as("relative to the thread's own value").isEqualTo(Math.min(19, first.get() + 3));
        AtomicInteger other = new AtomicInteger();
        Thread u = Thread.ofPlatform().start(() -> other.set(ThreadNice.lowerCurrentThread(1)));
        u.join();
        assertThat(other.get()).as("another thread starts from the process's value, not the first thread's").isEqualTo(first.get() - 2);
        assertThat(ThreadNice.lowerCurrentThread(0)).as("a zero step does nothing").isEqualTo(-1);
    }
}
