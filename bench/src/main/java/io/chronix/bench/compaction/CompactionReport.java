package io.chronix.bench.compaction;

import io.chronix.engine.Chronix;
import io.chronix.engine.compaction.CompactionResult;
import io.chronix.engine.maintenance.MaintenanceScheduler;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Path;
import java.util.List;

/**
 * One compaction of 100 TSBS segments per variant (float, integer), measured from inside: wall and CPU time,
 * MB/s and rows/s of input, peak heap, peak decoded (Arrow, off-heap) memory, and bytes per field
 * value of the files before and after.
 *
 * <p>Peak heap: every heap {@link MemoryPoolMXBean}'s peak is reset after a {@code System.gc()}
 * right before the compaction and read right after it; the figure is the sum of the pools' peaks
 * (an upper bound of the peak of their sum, garbage not yet collected included). Run it with a
 * small {@code -Xmx} to see the bound hold.
 *
 * <pre>java -Xmx256m --add-opens=java.base/java.nio=ALL-UNNAMED --enable-native-access=ALL-UNNAMED \
 *   -cp bench/target/benchmarks.jar io.chronix.bench.compaction.CompactionReport [segments] [runs] [rowGroupRows]</pre>
 */
public final class CompactionReport {

    private CompactionReport() {
    }

    public static void main(String[] args) throws Exception {
        int segments = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        int rowGroupRows = args.length > 2 ? Integer.parseInt(args[2]) : io.chronix.engine.segment.SegmentFormat.DEFAULT_ROW_GROUP_ROWS;
        System.out.printf("TSBS cpu-only, %d hosts, %d segments of %d ticks in one shard, row groups of %d rows; max heap %d MB; median of %d runs%n",
                CompactionData.HOSTS, segments, CompactionData.TICKS_PER_SEGMENT, rowGroupRows, Runtime.getRuntime().maxMemory() >> 20, runs);
        System.out.println("variant\tms\tcpu ms\tMB/s in\trows/s in\tpeak heap MB\tpeak decoded MB\tB/value before\tB/value after\trows in\trows out\tMB in\tMB out");
        try (MaintenanceScheduler scheduler = MaintenanceScheduler.create(1)) {
            for (String variant : List.of("float", "integer")) {
                Path template = CompactionData.build(segments, variant.equals("integer"), rowGroupRows, scheduler);
                try {
                    double[] ms = new double[runs];
                    double[] cpu = new double[runs];
                    java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
                    long[] heap = new long[runs];
                    CompactionResult last = null;
                    for (int i = 0; i < runs; i++) {
                        Path run = CompactionData.copy(template);
                        try (Chronix engine = Chronix.open(run, CompactionData.config(rowGroupRows), scheduler)) {
                            System.gc();
                            List<MemoryPoolMXBean> pools = ManagementFactory.getMemoryPoolMXBeans().stream()
                                    .filter(p -> p.getType() == MemoryType.HEAP).toList();
                            pools.forEach(MemoryPoolMXBean::resetPeakUsage);
                            long start = System.nanoTime();
                            long cpuStart = threads.getCurrentThreadCpuTime();
                            last = engine.compact(); // the merge runs on this thread
                            cpu[i] = (threads.getCurrentThreadCpuTime() - cpuStart) / 1e6;
                            ms[i] = (System.nanoTime() - start) / 1e6;
                            heap[i] = pools.stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum();
                        } finally {
                            CompactionData.delete(run);
                        }
                    }
                    java.util.Arrays.sort(ms);
                    java.util.Arrays.sort(cpu);
                    java.util.Arrays.sort(heap);
                    double median = ms[runs / 2];
                    long values = last.rowsIn() * CompactionData.FIELDS;
                    System.out.printf("%s\t%.0f\t%.0f\t%.1f\t%.0f\t%.1f\t%.1f\t%.3f\t%.3f\t%d\t%d\t%.1f\t%.1f%n", variant, median, cpu[runs / 2],
                            last.bytesIn() / 1e6 / (median / 1e3), last.rowsIn() / (median / 1e3), heap[runs / 2] / 1048576.0,
                            last.peakDecodedBytes() / 1048576.0, (double) last.bytesIn() / values, (double) last.bytesOut() / values,
                            last.rowsIn(), last.rowsOut(), last.bytesIn() / 1e6, last.bytesOut() / 1e6);
                } finally {
                    CompactionData.delete(template);
                }
            }
        }
    }
}
