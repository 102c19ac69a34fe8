package io.chronix.bench.segment;

import org.openjdk.jmh.annotations.Benchmark;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@link SegmentDecodeBenchmark}'s blocks and decode calls, timed in <em>thread CPU time</em>
 * instead of wall time, so the figure is values per second per core even on a machine whose other
 * jobs take the cores away (JMH's throughput counts the time the thread waited for a core).
 * Optionally runs a second build of the benchmark — a baseline benchmarks jar, loaded in its own
 * class loader — interleaved with this one, run by run, so both see the same machine: an A/B in
 * one process.
 *
 * <pre>java -cp benchmarks.jar io.chronix.bench.segment.SegmentDecodeCpuTime [runs] [millis per run] [baseline benchmarks.jar]</pre>
 */
public final class SegmentDecodeCpuTime {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private SegmentDecodeCpuTime() {
    }

    private record Subject(String name, Object bench, Class<?> type) {
        Method method(String name) {
            try {
                return type.getMethod(name);
            } catch (NoSuchMethodException e) {
                return null;
            }
        }
    }

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 9;
        long millis = args.length > 1 ? Long.parseLong(args[1]) : 400;
        List<Subject> subjects = new ArrayList<>();
        subjects.add(subject("this", SegmentDecodeBenchmark.class));
        if (args.length > 2) {
            URLClassLoader loader = new URLClassLoader(new URL[] {Path.of(args[2]).toUri().toURL()},
                    ClassLoader.getPlatformClassLoader());
            subjects.add(subject("baseline", loader.loadClass(SegmentDecodeBenchmark.class.getName())));
        }
        List<String> names = new ArrayList<>();
        for (Method m : SegmentDecodeBenchmark.class.getDeclaredMethods()) {
            if (m.isAnnotationPresent(Benchmark.class)) {
                names.add(m.getName());
            }
        }
        names.sort(null);
        for (String name : names) {
            for (Subject s : subjects) {
                Method m = s.method(name);
                if (m != null) {
                    measure(s.bench(), m, 2_000); // warm-up: the JIT compiles the decoder
                }
            }
        }
        double[][][] rates = new double[names.size()][subjects.size()][runs];
        for (int run = 0; run < runs; run++) {
            for (int k = 0; k < names.size(); k++) {
                for (int j = 0; j < subjects.size(); j++) {
                    // alternate which build goes first, so neither always follows the other
                    int s = (run & 1) == 0 ? j : subjects.size() - 1 - j;
                    Method m = subjects.get(s).method(names.get(k));
                    rates[k][s][run] = m == null ? Double.NaN : measure(subjects.get(s).bench(), m, millis);
                }
            }
        }
        System.out.printf("values per CPU-second, one thread, %d runs of %d ms CPU each: median (min – max)%n", runs, millis);
        for (int k = 0; k < names.size(); k++) {
            StringBuilder line = new StringBuilder(String.format("%-26s", names.get(k)));
            double[] medians = new double[subjects.size()];
            for (int s = 0; s < subjects.size(); s++) {
                double[] r = rates[k][s].clone();
                Arrays.sort(r);
                medians[s] = r[runs / 2];
                line.append(Double.isNaN(r[0]) ? String.format("  %s: -", subjects.get(s).name())
                        : String.format("  %s: %s (%s – %s)", subjects.get(s).name(), human(medians[s]), human(r[0]), human(r[runs - 1])));
            }
            if (subjects.size() > 1 && !Double.isNaN(medians[1])) {
                line.append(String.format("  this/baseline %.2f×", medians[0] / medians[1]));
            }
            System.out.println(line);
        }
    }

    private static Subject subject(String name, Class<?> type) throws Exception {
        Object bench = type.getConstructor().newInstance();
        type.getMethod("encode").invoke(bench);
        return new Subject(name, bench, type);
    }

    /** Calls {@code m} until {@code millis} of this thread's CPU time have passed; returns values per CPU-second. */
    private static double measure(Object bench, Method m, long millis) throws Exception {
        long budget = millis * 1_000_000L;
        long calls = 0;
        long start = THREADS.getCurrentThreadCpuTime();
        long now;
        do {
            for (int i = 0; i < 16; i++) {
                m.invoke(bench);
            }
            calls += 16;
            now = THREADS.getCurrentThreadCpuTime();
        } while (now - start < budget);
        return (double) calls * SegmentDecodeBenchmark.BLOCK / ((now - start) / 1e9);
    }

    private static String human(double perSecond) {
        return perSecond >= 1e9 ? String.format("%.2f G/s", perSecond / 1e9) : String.format("%.0f M/s", perSecond / 1e6);
    }
}
