package io.chronix.it.foundation;

import io.chronix.it.support.ServiceProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The service says at start whether its heap is the fixed, pre-touched one docs/operations.md
 * prescribes, from the JVM it really runs on.
 */
class HeapSettingsIT {

    @TempDir
    Path data;

    @Test
    void aGrowingHeapIsWarnedAboutNamingItsSizesAndTheFlags() throws Exception {
        try (ServiceProcess service = ServiceProcess.start(data, List.of("-Xms64m", "-Xmx512m"), List.of())) {
            assertThat(heapLine(service))
                    .contains("WARN")
                    .contains("not fixed [initial=64 MiB, max=512 MiB] and not pre-touched [AlwaysPreTouch=false]")
                    .contains("-XX:+AlwaysPreTouch");
        }
    }

    @Test
    void aFixedPreTouchedHeapIsReportedWithoutAWarning() throws Exception {
        try (ServiceProcess service = ServiceProcess.start(data, List.of("-Xms256m", "-Xmx256m", "-XX:+AlwaysPreTouch"),
                List.of())) {
            assertThat(heapLine(service)).contains("INFO").contains("the JVM's heap is fixed at 256 MiB and pre-touched");
            assertThat(service.output()).doesNotContain("not pre-touched").doesNotContain("heap is not fixed");
        }
    }

    /** The check's line: logged once the application is ready, which may be just after health says UP. */
    private static String heapLine(ServiceProcess service) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline) {
            String line = service.output().lines().filter(l -> l.contains("the JVM's heap is")).findFirst().orElse(null);
            if (line != null) {
                return line;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no heap line in the service's output:\n" + service.output());
    }
}
