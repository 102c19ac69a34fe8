package io.chronix.bench.wal;

import io.chronix.engine.wal.FsyncPolicy;
import io.chronix.engine.wal.WalConfig;
import io.chronix.engine.wal.WalMetrics;
import io.chronix.engine.wal.WalRecordType;
import io.chronix.engine.wal.WalWriter;
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

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Durable appends to real files under each fsync policy, one record per call. Run with {@code -t N}
 * for N concurrent writers (group commit scaling); {@code -bm sample} gives p50/p99 latency.
 * Files go to {@code -Dchronix.bench.dir} (default: the system temp directory).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class WalAppendBenchmark {

    @Param({"PER_WRITE", "PER_BATCH", "PERIODIC"})
    FsyncPolicy policy;

    @Param({"100", "1024"})
    int payloadBytes;

    private Path dir;
    private WalWriter wal;
    private ScheduledExecutorService scheduler;
    private ByteBuffer payload;
    private WalMetrics metrics;

    @Setup(Level.Trial)
    public void open() throws IOException {
        Path base = Path.of(System.getProperty("chronix.bench.dir", System.getProperty("java.io.tmpdir")));
        dir = Files.createTempDirectory(base, "wal-bench");
        metrics = new WalMetrics();
        wal = WalWriter.open(WalConfig.defaults(dir.resolve("wal")).withFsyncPolicy(policy), metrics);
        if (policy == FsyncPolicy.PERIODIC) {
            scheduler = Executors.newSingleThreadScheduledExecutor();
            wal.startPeriodicSync(scheduler);
        }
        byte[] bytes = new byte[payloadBytes];
        new java.util.Random(1).nextBytes(bytes);
        payload = ByteBuffer.wrap(bytes);
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        wal.close();
        // how well writers shared fsyncs over the whole trial (warm-up included): the figure that
        // separates "the grouping is poor" from "the device is slow"
        String device;
        try {
            device = String.format("%.0f µs per group fsync", metrics.groupSyncNanos() / 1e3 / Math.max(1, metrics.groupSyncs()));
        } catch (NoSuchMethodError olderEngine) {
            device = "group fsync time not counted by this engine";
        }
        System.out.printf("%nWAL %s %d B: %d records, %d fsyncs, %.1f records per fsync, %s%n", policy, payloadBytes,
                metrics.records(), metrics.syncs(), metrics.records() / (double) Math.max(1, metrics.syncs()), device);
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Benchmark
    public long appendDurable() {
        // ByteBuffer is shared read-only across threads: the writer never moves its position
        return wal.appendDurable(WalRecordType.DATA, payload);
    }
}
