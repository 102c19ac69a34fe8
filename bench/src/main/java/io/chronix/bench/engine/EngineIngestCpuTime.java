package io.chronix.bench.engine;

import io.chronix.bench.generator.CpuOnlyConfig;
import io.chronix.bench.generator.CpuOnlyGenerator;
import io.chronix.bench.generator.LineProtocolSink;
import io.chronix.engine.Chronix;
import io.chronix.engine.ingest.LineProtocolParser;
import io.chronix.engine.ingest.ParseResult;
import io.chronix.engine.ingest.Precision;
import io.chronix.engine.maintenance.MaintenanceScheduler;
import io.chronix.engine.model.PointBatch;

import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The service's write path without HTTP, in CPU time: the e2e data set (TSBS cpu-only, integer
 * fields, seed 123) cut into bodies of 5,000 lines, each parsed into a reused builder, built and
 * written with {@code Chronix.write} (the engine's default fsync policy), into a fresh engine per
 * round; then the engine is closed (its last memtables flushed). Per round it takes the writing
 * thread's CPU time and allocated bytes, and the whole process's CPU time (flushes on the
 * maintenance thread, GC and JIT included), each per row. The first {@code warmup} rounds are not
 * counted, so the JIT has settled; the process figure still carries the GC.
 *
 * <pre>java -cp [storage-engine.jar:]benchmarks.jar io.chronix.bench.engine.EngineIngestCpuTime [rounds] [warmup] [hours]</pre>
 *
 * Prints the median and min–max over the rounds of ns per row (writer thread, process) and bytes
 * allocated per row (writer thread). A storage-engine jar first on the class path measures that
 * build's engine with the same harness.
 */
public final class EngineIngestCpuTime {
    static final int LINES = 5_000;

    private EngineIngestCpuTime() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        int warmup = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        int hours = args.length > 2 ? Integer.parseInt(args[2]) : 24;
        List<byte[]> bodies = bodies(CpuOnlyConfig.of(100, Duration.ofHours(hours), 123, true));
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        LineProtocolParser parser = new LineProtocolParser();
        PointBatch.Builder builder = PointBatch.builder();
        double[] thread = new double[rounds];
        double[] process = new double[rounds];
        double[] bytes = new double[rounds];
        for (int r = -warmup; r < rounds; r++) {
            Path dir = EngineBench.newDirectory("engine-ingest-cpu");
            long rows = 0;
            long cpu0;
            long proc0;
            long alloc0;
            long cpu1;
            long alloc1;
            try (MaintenanceScheduler scheduler = MaintenanceScheduler.create(1)) {
                Chronix engine = Chronix.open(dir, EngineBench.config(), scheduler);
                proc0 = os.getProcessCpuTime();
                cpu0 = threads.getCurrentThreadCpuTime();
                alloc0 = threads.getCurrentThreadAllocatedBytes();
                for (byte[] body : bodies) {
                    ParseResult p = parser.parse(body, 0, body.length, Precision.NANOSECONDS, 0, builder.reset());
                    if (p.hasErrors()) {
                        throw new IllegalStateException("body does not parse: " + p.errors());
                    }
                    PointBatch batch = builder.build();
                    engine.write(batch);
                    rows += batch.size();
                }
                cpu1 = threads.getCurrentThreadCpuTime();
                alloc1 = threads.getCurrentThreadAllocatedBytes();
                engine.close();
            }
            long proc1 = os.getProcessCpuTime();
            EngineBench.delete(dir);
            if (r >= 0) {
                thread[r] = (double) (cpu1 - cpu0) / rows;
                process[r] = (double) (proc1 - proc0) / rows;
                bytes[r] = (double) (alloc1 - alloc0) / rows;
            }
            System.out.printf("round %d: %,d rows, writer %.0f ns/row, process %.0f ns/row, %.0f B/row%s%n", r, rows,
                    (double) (cpu1 - cpu0) / rows, (double) (proc1 - proc0) / rows, (double) (alloc1 - alloc0) / rows,
                    r < 0 ? " (warm-up)" : "");
        }
        print("writer thread CPU ns/row", thread);
        print("process CPU ns/row (flush, GC, JIT included)", process);
        print("writer thread bytes allocated/row", bytes);
    }

    private static void print(String what, double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        System.out.printf("%-46s median %.0f (%.0f – %.0f)%n", what, s[s.length / 2], s[0], s[s.length - 1]);
    }

    private static List<byte[]> bodies(CpuOnlyConfig config) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new CpuOnlyGenerator(config).generate(new LineProtocolSink(out));
        byte[] all = out.toByteArray();
        List<byte[]> bodies = new ArrayList<>();
        int start = 0;
        int lines = 0;
        for (int i = 0; i < all.length; i++) {
            if (all[i] == '\n' && ++lines == LINES) {
                bodies.add(Arrays.copyOfRange(all, start, i + 1));
                start = i + 1;
                lines = 0;
            }
        }
        if (start < all.length) {
            bodies.add(Arrays.copyOfRange(all, start, all.length));
        }
        assert new String(bodies.getFirst(), 0, 3, StandardCharsets.US_ASCII).equals("cpu");
        return bodies;
    }
}
