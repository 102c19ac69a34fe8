package io.chronix.bench.peer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ThreadCpuTest {

    @Test
    void threadNamesAreSortedIntoJitGcAndOther() {
        assertEquals(ThreadCpu.JIT, ThreadCpu.kindOf("C2 CompilerThre"));
        assertEquals(ThreadCpu.JIT, ThreadCpu.kindOf("C1 CompilerThre"));
        assertEquals(ThreadCpu.GC, ThreadCpu.kindOf("GC Thread#1"));
        assertEquals(ThreadCpu.GC, ThreadCpu.kindOf("G1 Conc#0"));
        assertEquals(ThreadCpu.GC, ThreadCpu.kindOf("G1 Refine#0"));
        assertEquals(ThreadCpu.OTHER, ThreadCpu.kindOf("ForkJoinPool-1"));
        assertEquals(ThreadCpu.OTHER, ThreadCpu.kindOf("java"));
    }

    @Test
    void ticksAreCountedFromTheLastParenthesisSoANameWithSpacesAndParenthesesParses() {
        // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime ...
        String stat = "4242 (odd) name) (x) S 1 4242 4242 0 -1 4194560 100 0 0 0 37 5 0 0 20 0 1 0\n";
        assertEquals(42, ThreadCpu.ticksOf(stat));
    }

    @Test
    void aTaskDirectoryIsSummedByKindInNanoseconds(@TempDir Path dir) throws IOException {
        task(dir, "1", "C2 CompilerThre", 300, 20);
        task(dir, "2", "C1 CompilerThre", 10, 0);
        task(dir, "3", "GC Thread#0", 7, 3);
        task(dir, "4", "ForkJoinPool-1", 100, 50);
        task(dir, "5", "java", 1, 1);
        Map<String, Long> cpu = ThreadCpu.of(dir);
        assertEquals(330 * 10_000_000L, cpu.get(ThreadCpu.JIT));
        assertEquals(10 * 10_000_000L, cpu.get(ThreadCpu.GC));
        assertEquals(152 * 10_000_000L, cpu.get(ThreadCpu.OTHER));
    }

    @Test
    void aMissingTaskDirectoryGivesNoFigures(@TempDir Path dir) {
        assertTrue(ThreadCpu.of(dir.resolve("absent")).isEmpty());
    }

    @Test
    void thisProcessHasCpuTimeWhereTheKernelTellsIt() {
        Path self = Path.of("/proc/self/task");
        if (Files.isDirectory(self)) {
            Map<String, Long> cpu = ThreadCpu.of(self);
            assertTrue(cpu.values().stream().mapToLong(Long::longValue).sum() > 0, cpu::toString);
        } else {
            assertTrue(ThreadCpu.of(self).isEmpty());
        }
    }

    private static void task(Path dir, String tid, String comm, long utime, long stime) throws IOException {
        Path t = Files.createDirectories(dir.resolve(tid));
        Files.writeString(t.resolve("comm"), comm + "\n");
        Files.writeString(t.resolve("stat"), tid + " (" + comm + ") S 1 1 1 0 -1 0 0 0 0 0 " + utime + " " + stime + " 0 0 20 0 1 0\n");
    }
}
