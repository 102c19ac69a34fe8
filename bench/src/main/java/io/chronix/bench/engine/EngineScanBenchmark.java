package io.chronix.bench.engine;

import io.chronix.bench.generator.CpuOnlyConfig;
import io.chronix.engine.Chronix;
import io.chronix.engine.maintenance.MaintenanceScheduler;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.read.ScanResult;
import io.chronix.engine.read.TagPredicate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One series, one field, 12 hours: {@code SELECT time, usage_user FROM cpu WHERE hostname =
 * 'host_0' AND time in a 12 h window} as an engine scan, over TSBS cpu-only data of 100 hosts ×
 * 13 h at 10 s (468,000 rows, 4,320 in the answer). {@code source=segments}: everything flushed;
 * {@code source=memtable}: nothing flushed.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED",
        "--sun-misc-unsafe-memory-access=allow", "-Xmx4g"})
public class EngineScanBenchmark {

    @Param({"segments", "memtable"})
    String source;

    private Path dir;
    private MaintenanceScheduler scheduler;
    private Chronix engine;
    private BufferAllocator allocator;
    private ScanRequest request;

    @Setup(Level.Trial)
    public void load() throws Exception {
        dir = EngineBench.newDirectory("engine-scan");
        scheduler = MaintenanceScheduler.create(1);
        engine = Chronix.open(dir, EngineBench.config().withFlushThresholdBytes(1L << 40), scheduler);
        CpuOnlyConfig c = CpuOnlyConfig.of(100, Duration.ofHours(13), 123, false);
        EngineBench.load(engine, c, 10);
        if (source.equals("segments")) {
            engine.flush();
        }
        allocator = new RootAllocator();
        long from = c.startNanos() + Duration.ofMinutes(30).toNanos();
        long to = from + Duration.ofHours(12).toNanos() - 1;
        request = new ScanRequest("cpu", List.of("time", "usage_user"), from, to, List.of(new TagPredicate.Eq("hostname", "host_0")));
        try (ScanResult r = engine.scan(request, allocator)) {
            if (r.rowCount() != 4320) {
                throw new IllegalStateException("expected 4320 rows, got " + r.rowCount());
            }
        }
    }

    @TearDown(Level.Trial)
    public void close() throws Exception {
        engine.close();
        scheduler.close();
        allocator.close();
        EngineBench.delete(dir);
    }

    @Benchmark
    public long scanOneSeries12h() {
        try (ScanResult r = engine.scan(request, allocator)) {
            return r.rowCount();
        }
    }
}
