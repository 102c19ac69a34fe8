package io.chronix.bench.peer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A process's CPU time by kind of thread, from Linux's {@code /proc/PID/task/TID/{comm,stat}}: a
 * JVM's JIT compiler threads ({@code C1/C2 CompilerThre…}), its garbage collector's threads ({@code
 * GC Thread#…}, {@code G1 …}) and everything else (request threads, the carriers of virtual threads,
 * background work). It answers "how much of the server's CPU was its own work": a JVM warming up
 * spends a large share of a short load compiling.
 *
 * <p>Utime + stime in clock ticks, converted at {@code USER_HZ} = 100 (the kernel's fixed value for
 * {@code /proc}); a thread that ends between listing and reading is skipped.
 */
public final class ThreadCpu {
    public static final String JIT = "jit";
    public static final String GC = "gc";
    public static final String OTHER = "other";
    private static final long NANOS_PER_TICK = 10_000_000L;

    private ThreadCpu() {
    }

    /** The kind of a thread named {@code comm} (as the kernel holds it, at most 15 characters). */
    public static String kindOf(String comm) {
        if (comm.startsWith("C1 Compiler") || comm.startsWith("C2 Compiler")) {
            return JIT;
        }
        if (comm.startsWith("GC Thread") || comm.startsWith("G1 ") || comm.startsWith("ZGC") || comm.startsWith("Shenandoah")) {
            return GC;
        }
        return OTHER;
    }

    /** {@link #of(Path)} for the process {@code pid}, from its {@code /proc/<pid>/task}. */
    public static Map<String, Long> ofProcess(long pid) {
        return of(Path.of("/proc", Long.toString(pid), "task"));
    }

    /**
     * CPU nanoseconds of each kind, in the order jit, gc, other; empty if {@code taskDir} cannot be
     * read (not Linux, or the process ended).
     */
    public static Map<String, Long> of(Path taskDir) {
        Map<String, Long> out = new LinkedHashMap<>();
        out.put(JIT, 0L);
        out.put(GC, 0L);
        out.put(OTHER, 0L);
        try (Stream<Path> tasks = Files.list(taskDir)) {
            for (Path t : (Iterable<Path>) tasks::iterator) {
                try {
                    String comm = Files.readString(t.resolve("comm")).strip();
                    long ticks = ticksOf(Files.readString(t.resolve("stat")));
                    out.merge(kindOf(comm), ticks * NANOS_PER_TICK, Long::sum);
                } catch (IOException ended) {
                    // the thread ended after the listing
                }
            }
        } catch (IOException | UncheckedIOException e) {
            return Map.of();
        }
        return out;
    }

    /**
     * Utime + stime of one {@code stat} line. The second field (the name, in parentheses) may hold
     * spaces and parentheses, so fields are counted from the last ')'.
     */
    static long ticksOf(String stat) {
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).strip().split(" ");
        // after the name: state(3) ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime(14) stime(15)
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }
}
