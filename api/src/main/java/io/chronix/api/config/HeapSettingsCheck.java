package io.chronix.api.config;

import com.sun.management.HotSpotDiagnosticMXBean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Configuration;

import java.lang.management.ManagementFactory;
import java.util.Optional;

/**
 * Says once, at start, when the JVM's heap is not the fixed, pre-touched heap a database wants.
 *
 * <p>Why it matters: a heap that starts small grows under the first load, and every page of a newly
 * committed region is faulted in on first touch — by a collector copying survivors into it, or by a
 * request thread allocating in it. On a virtual machine a page fault is expensive: on our two-core
 * bench machine, first touches made 1.0–1.3 s of the collector's pause time system time in a 3.5 M
 * row load and the queries after it, with single pauses up to 370 ms, and pre-touching 4 GiB at start
 * took 6–8 s. With {@code -Xms} equal to {@code -Xmx} and {@code -XX:+AlwaysPreTouch} that cost
 * is paid once, before the port opens, and never again (docs/benchmarks.md as of commit 5e95285, "A fixed, pre-touched
 * heap"; docs/operations.md, "The JVM's heap").
 *
 * <p>Only a warning (and an info line when all is well): a developer's {@code java -jar} runs fine
 * without it.
 */
@Configuration(proxyBeanMethods = false)
class HeapSettingsCheck implements ApplicationListener<ApplicationReadyEvent> {

    private static final Logger log = LoggerFactory.getLogger(HeapSettingsCheck.class);

    @Override
    public void onApplicationEvent(ApplicationReadyEvent event) {
        var heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        boolean preTouch = hotSpot != null && Boolean.parseBoolean(hotSpot.getVMOption("AlwaysPreTouch").getValue());
        advice(heap.getInit(), heap.getMax(), preTouch).ifPresentOrElse(log::warn,
                () -> log.info("the JVM's heap is fixed at {} and pre-touched", mib(heap.getMax())));
    }

    /**
     * The warning for a heap that starts at {@code initBytes}, may grow to {@code maxBytes} ({@code
     * -1}: undefined) and is or is not pre-touched; empty when the heap is fixed and pre-touched.
     */
    static Optional<String> advice(long initBytes, long maxBytes, boolean preTouch) {
        boolean fixed = maxBytes > 0 && initBytes == maxBytes;
        if (fixed && preTouch) {
            return Optional.empty();
        }
        StringBuilder what = new StringBuilder("the JVM's heap is ");
        if (!fixed) {
            what.append("not fixed [initial=").append(mib(initBytes)).append(", max=").append(mib(maxBytes)).append(']');
        }
        if (!preTouch) {
            what.append(fixed ? "" : " and ").append("not pre-touched [AlwaysPreTouch=false]");
        }
        return Optional.of(what + ": growing it under load costs page faults inside collector pauses and"
                + " requests. Start the service with -Xms equal to -Xmx (or -XX:InitialRAMPercentage equal to"
                + " -XX:MaxRAMPercentage) and -XX:+AlwaysPreTouch; see docs/operations.md, \"The JVM's heap\".");
    }

    private static String mib(long bytes) {
        return bytes < 0 ? "undefined" : (bytes >> 20) + " MiB";
    }
}
