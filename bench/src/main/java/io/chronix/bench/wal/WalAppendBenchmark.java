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
 *
 * <h2>Platform or virtual writers</h2>
 * JMH runs the {@code N} writers as platform threads unless the forked JVM is given {@code
 * -Djmh.executor=VIRTUAL} (JMH 1.37; {@code PLATFORM} is the default, named explicitly below). The
 * service runs every request on a virtual thread ({@code spring.threads.virtual.enabled=true}), so
 * the writers that share a group commit in production are virtual threads: {@code VIRTUAL} is the
 * production case, {@code PLATFORM} the one earlier figures were taken with. The executor is a JVM
 * property, not a {@code @Param}, so one invocation measures one kind of writer:
 *
 * <pre>
 * FLAGS="--add-opens=java.base/java.nio=ALL-UNNAMED --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow"
 * for ex in PLATFORM VIRTUAL; do
 *   java $FLAGS -jar bench/target/benchmarks.jar WalAppendBenchmark -p policy=PER_BATCH,PERIODIC -p payloadBytes=100,1024 \
 *       -t 64 -f 1 -wi 1 -i 5 -w 2s -r 2s -jvmArgsAppend "$FLAGS -Djmh.executor=$ex -Dchronix.bench.dir=bench/target/walbench"
 * done
 * </pre>
 *
 * {@code -Dchronix.bench.syncLatencyMicros=N} (with {@code chronix.bench.dir} on a memory file
 * system) makes every fsync take a fixed N µs after the real one ({@link FixedSyncLatencyFileIO}):
 * a steady stand-in for the device, for A/B runs of the group-commit code on a shared machine.
 *
 * <p>At tear-down each trial prints its records per fsync and the mean time inside a group fsync
 * (over the whole trial, warm-up included), and which kind of thread the writers were.
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
        WalConfig config = WalConfig.defaults(dir.resolve("wal")).withFsyncPolicy(policy);
        long syncLatencyMicros = Long.getLong("chronix.bench.syncLatencyMicros", 0);
        if (syncLatencyMicros > 0) {
            config = config.withIo(new FixedSyncLatencyFileIO(config.io(), syncLatencyMicros));
        }
        wal = WalWriter.open(config, metrics);
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
        // trial-level tear-down runs on one of the benchmark's own threads
        String writers = Thread.currentThread().isVirtual() ? "virtual" : "platform";
        System.out.printf("%nWAL %s %d B: %d records, %d fsyncs, %.1f records per fsync, %s, %s writers%n", policy, payloadBytes,
                metrics.records(), metrics.syncs(), metrics.records() / (double) Math.max(1, metrics.syncs()), device, writers);
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
