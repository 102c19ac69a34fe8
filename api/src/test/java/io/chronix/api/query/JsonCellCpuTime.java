package io.chronix.api.query;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarCharVector;

import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;

/**
 * A figure, not a test: thread CPU time to write 350,000 ASCII VARCHAR cells (TSBS host names) as
 * JSON strings, through a decoded {@code String} (the path before the byte path) and straight from
 * Arrow's bytes ({@link JsonBytes#asciiUtf8}), alternating in one process. Run with the test
 * classpath (docs/benchmarks.md): {@code java ... io.chronix.api.query.JsonCellCpuTime [rounds]}.
 */
public final class JsonCellCpuTime {

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 15;
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        int n = 350_000;
        try (BufferAllocator a = new RootAllocator(); VarCharVector v = new VarCharVector("hostname", a)) {
            v.allocateNew(n);
            for (int i = 0; i < n; i++) {
                v.setSafe(i, ("host_" + (i % 400)).getBytes(StandardCharsets.US_ASCII));
            }
            v.setValueCount(n);
            long[] viaString = new long[rounds];
            long[] viaBytes = new long[rounds];
            for (int round = -5; round < rounds; round++) { // five rounds of warm-up
                JsonBytes w = new JsonBytes(OutputStream.nullOutputStream());
                long t0 = cpu.getCurrentThreadCpuTime();
                for (int i = 0; i < n; i++) {
                    w.string(new String(v.get(i), StandardCharsets.UTF_8));
                }
                long t1 = cpu.getCurrentThreadCpuTime();
                for (int i = 0; i < n; i++) {
                    long start = v.getStartOffset(i);
                    if (!w.asciiUtf8(v.getDataBuffer(), start, (int) (v.getEndOffset(i) - start))) {
                        throw new IllegalStateException("not ASCII at " + i);
                    }
                }
                long t2 = cpu.getCurrentThreadCpuTime();
                if (round >= 0) {
                    viaString[round] = t1 - t0;
                    viaBytes[round] = t2 - t1;
                }
            }
            java.util.Arrays.sort(viaString);
            java.util.Arrays.sort(viaBytes);
            System.out.printf("350,000 VARCHAR cells, CPU ms median (min-max) of %d rounds: via String %.1f (%.1f-%.1f), via bytes %.1f (%.1f-%.1f), ratio %.1fx%n",
                    rounds, viaString[rounds / 2] / 1e6, viaString[0] / 1e6, viaString[rounds - 1] / 1e6,
                    viaBytes[rounds / 2] / 1e6, viaBytes[0] / 1e6, viaBytes[rounds - 1] / 1e6,
                    (double) viaString[rounds / 2] / viaBytes[rounds / 2]);
        }
    }
}
