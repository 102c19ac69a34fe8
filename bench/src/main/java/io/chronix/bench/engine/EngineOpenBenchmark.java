package io.chronix.bench.engine;

import io.chronix.engine.Chronix;
import io.chronix.engine.EngineConfig;
import io.chronix.engine.maintenance.MaintenanceScheduler;
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
import java.util.concurrent.TimeUnit;

/**
 * Opening (and closing) a namespace of {@code segments} segments of {@code rowsPerSegment} rows
 * each, after a flush (empty WAL). Open reads the catalog and lists the shard directories; it opens
 * no segment, so the time should follow the segment count, not the rows. Compaction and the
 * periodic maintenance pass are off, in the build and in the opens: with them the 1,000 flushes
 * are merged into a few segments while the data is written, and an open could start a merge.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED",
        "--sun-misc-unsafe-memory-access=allow", "-Xmx4g"})
public class EngineOpenBenchmark {

    @Param({"1000"})
    int segments;

    @Param({"100", "1000"})
    int rowsPerSegment;

    private Path dir;
    private MaintenanceScheduler scheduler;

    @Setup(Level.Trial)
    public void build() throws Exception {
        dir = EngineBench.newDirectory("engine-open");
        scheduler = MaintenanceScheduler.create(1);
        int ticksPerSegment = rowsPerSegment / 100;
        try (Chronix engine = Chronix.open(dir, config().withFlushThresholdBytes(1L << 40), scheduler)) {
            EngineBench.loadSegments(engine, 100, ticksPerSegment, segments, false);
            if (engine.segmentCount() != segments) {
                throw new IllegalStateException("expected " + segments + " segments, got " + engine.segmentCount());
            }
        }
    }

    @TearDown(Level.Trial)
    public void close() throws Exception {
        scheduler.close();
        EngineBench.delete(dir);
    }

    @Benchmark
    public int openAndClose() {
        try (Chronix engine = Chronix.open(dir, config(), scheduler)) {
            return engine.segmentCount();
        }
    }

    private static EngineConfig config() {
        return EngineBench.config().withMaintenanceInterval(Duration.ZERO).withCompactionTrigger(1_000_000);
    }
}
