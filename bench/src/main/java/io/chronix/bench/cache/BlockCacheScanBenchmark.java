package io.chronix.bench.cache;

import io.chronix.bench.engine.EngineBench;
import io.chronix.engine.Chronix;
import io.chronix.engine.cache.BlockCache;
import io.chronix.engine.maintenance.MaintenanceScheduler;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.read.ScanResult;
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
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One day of every host, {@code time} and two float fields, scanned with a cold block cache (emptied
 * before each scan: every block read, CRC-checked, decompressed and decoded) and a warm one (every
 * block a hit: a copy of its Arrow buffer images). Segment readers stay open in both cases, so the
 * difference is the block work alone.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED",
        "--sun-misc-unsafe-memory-access=allow", "-Xmx2g"})
public class BlockCacheScanBenchmark {

    @Param({"100"})
    int hosts;

    private Path dir;
    private MaintenanceScheduler scheduler;
    private Chronix engine;
    private BlockCache cache;
    private BufferAllocator allocator;
    private ScanRequest request;

    @Setup(Level.Trial)
    public void build() throws Exception {
        scheduler = MaintenanceScheduler.create(1);
        dir = CacheData.build(hosts, 1, scheduler);
        cache = BlockCache.create(512L << 20);
        engine = Chronix.open(dir, CacheData.config(cache), scheduler);
        allocator = new RootAllocator();
        request = new ScanRequest("cpu", List.of("time", "usage_user", "usage_system"), CacheData.START,
                CacheData.START + CacheData.DAY - 1, List.of());
    }

    @TearDown(Level.Trial)
    public void close() throws Exception {
        engine.close();
        allocator.close();
        scheduler.close();
        EngineBench.delete(dir);
    }

    private int scan() {
        try (ScanResult r = engine.scan(request, allocator)) {
            return r.batches().stream().mapToInt(b -> b.getRowCount()).sum();
        }
    }

    @Benchmark
    public int cold() {
        cache.invalidateAll();
        return scan();
    }

    @Benchmark
    public int warm() {
        return scan();
    }
}
