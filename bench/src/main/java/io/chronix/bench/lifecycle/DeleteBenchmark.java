package io.chronix.bench.lifecycle;

import io.chronix.bench.engine.EngineBench;
import io.chronix.engine.Chronix;
import io.chronix.engine.EngineConfig;
import io.chronix.engine.lifecycle.DeleteResult;
import io.chronix.engine.maintenance.MaintenanceScheduler;
import io.chronix.engine.model.PointBatch;
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
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Deleting one series whose points lie in every one of {@code segments} segments (each segment:
 * one point of each of {@code hosts} series, 10 s apart from the previous segment): the whole
 * delete — the flush (nothing to write), the scan of the series' stored rows through the series
 * tables, the fsynced catalog record, the in-memory tombstone. Each measured call deletes another
 * series ({@code SingleShotTime}, one call per iteration), so every call finds 1,000 segments'
 * worth of points. {@code dryRun…} counts the same without recording anything (repeatedly for one
 * series, and single-shot for another series each call, as the delete is measured).
 */
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED",
        "--sun-misc-unsafe-memory-access=allow", "-Xmx2g"})
public class DeleteBenchmark {

    static final long T0 = 1_767_225_600_000_000_000L; // 2026-01-01T00:00:00Z

    @Param({"1000"})
    int segments;

    @Param({"100"})
    int hosts;

    private Path dir;
    private MaintenanceScheduler scheduler;
    private Chronix engine;
    private int next;

    @Setup(Level.Trial)
    public void build() throws Exception {
        dir = EngineBench.newDirectory("delete-bench");
        scheduler = MaintenanceScheduler.create(1);
        EngineConfig config = EngineConfig.defaults().withFlushThresholdBytes(1L << 40).withOooToleranceShards(1000)
                .withShardDuration(Duration.ofDays(1));
        engine = Chronix.open(dir, config, scheduler);
        for (int s = 0; s < segments; s++) {
            PointBatch.Builder b = PointBatch.builder();
            for (int h = 0; h < hosts; h++) {
                b.beginPoint("cpu", T0 + s * 10_000_000_000L).tag("host", "host_" + h).floatField("usage", s + h).endPoint();
            }
            engine.write(b.build());
            engine.flush();
        }
        if (engine.segmentCount() != segments) {
            throw new IllegalStateException("expected " + segments + " segments, got " + engine.segmentCount());
        }
    }

    @TearDown(Level.Trial)
    public void close() throws Exception {
        engine.close();
        scheduler.close();
        EngineBench.delete(dir);
    }

    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 5, batchSize = 1)
    @Measurement(iterations = 20, batchSize = 1)
    public DeleteResult deleteOneSeries() {
        DeleteResult r = engine.deleteSeries("cpu", Map.of("host", "host_" + next++));
        if (r.pointsDeleted() != segments) {
            throw new IllegalStateException("expected " + segments + " points deleted, got " + r.pointsDeleted());
        }
        return r;
    }

    /** The dry run measured like {@link #deleteOneSeries}: one call per iteration, another series each time. */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 5, batchSize = 1)
    @Measurement(iterations = 20, batchSize = 1)
    public DeleteResult dryRunOneSeriesSingleShot() {
        DeleteResult r = engine.delete().measurement("cpu").tag("host", "host_" + next++).dryRun().execute();
        if (r.pointsDeleted() != segments) {
            throw new IllegalStateException("expected " + segments + " points counted, got " + r.pointsDeleted());
        }
        return r;
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 2, time = 2)
    @Measurement(iterations = 3, time = 2)
    public DeleteResult dryRunOneSeries() {
        return engine.delete().measurement("cpu").tag("host", "host_" + (hosts - 1)).dryRun().execute();
    }
}
