package io.chronix.bench.cache;

import io.chronix.bench.engine.EngineBench;
import io.chronix.engine.Chronix;
import io.chronix.engine.cache.BlockCache;
import io.chronix.engine.io.NioFileIO;
import io.chronix.engine.maintenance.MaintenanceScheduler;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.read.ScanResult;
import io.chronix.engine.segment.SegmentFile;
import io.chronix.engine.segment.SegmentWriterConfig;
import io.chronix.engine.store.CsxSegmentStore;

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

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One day of every host, {@code time} and two float fields, with a cold block cache (emptied before
 * each op: every block read, CRC-checked, decompressed and decoded) and a warm one (every block a
 * hit: a copy of its Arrow buffer images). {@code scan*}: through {@code Chronix.scan}, merge and
 * output included; {@code read*}: the segment store's row groups alone (24 segments, their row
 * groups decoded into vectors and closed), which is where the cache acts. Segment readers stay open
 * in both cases.
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
    private CsxSegmentStore store;
    private List<SegmentFile> files;
    private static final List<String> COLUMNS = List.of("time", "host", "rack", "usage_user", "usage_system");

    @Setup(Level.Trial)
    public void build() throws Exception {
        scheduler = MaintenanceScheduler.create(1);
        dir = CacheData.build(hosts, 1, scheduler);
        cache = BlockCache.create(512L << 20);
        engine = Chronix.open(dir, CacheData.config(cache), scheduler);
        allocator = new RootAllocator();
        request = new ScanRequest("cpu", List.of("time", "usage_user", "usage_system"), CacheData.START,
                CacheData.START + CacheData.DAY - 1, List.of());
        Path segments = dir.resolve("segments");
        store = new CsxSegmentStore(NioFileIO.INSTANCE, segments, dir.resolve("tmp"), SegmentWriterConfig.defaults(), cache);
        try (Stream<Path> s = Files.walk(segments)) {
            files = s.filter(p -> p.toString().endsWith(".csx")).map(p -> SegmentFile.parse(segments.relativize(p).toString())).toList();
        }
        if (files.size() != 24 || read() != 24L * 60 * hosts) {
            throw new IllegalStateException("unexpected set-up: " + files.size() + " segments");
        }
    }

    @TearDown(Level.Trial)
    public void close() throws Exception {
        engine.close();
        store.close();
        allocator.close();
        scheduler.close();
        EngineBench.delete(dir);
    }

    private int scan() {
        try (ScanResult r = engine.scan(request, allocator)) {
            return r.batches().stream().mapToInt(b -> b.getRowCount()).sum();
        }
    }

    private long read() {
        long[] rows = new long[1];
        for (SegmentFile f : files) {
            store.read(f, COLUMNS, Long.MIN_VALUE, Long.MAX_VALUE, List.of(), allocator, root -> rows[0] += root.getRowCount());
        }
        return rows[0];
    }

    @Benchmark
    public int scanCold() {
        cache.invalidateAll();
        return scan();
    }

    @Benchmark
    public int scanWarm() {
        return scan();
    }

    @Benchmark
    public long readCold() {
        cache.invalidateAll();
        return read();
    }

    @Benchmark
    public long readWarm() {
        return read();
    }
}
