package io.chronix.bench.engine;

import io.chronix.bench.generator.HostTags;
import io.chronix.engine.Chronix;
import io.chronix.engine.maintenance.MaintenanceScheduler;
import io.chronix.engine.model.PointBatch;
import io.chronix.engine.wal.FsyncPolicy;
import org.openjdk.jmh.annotations.AuxCounters;
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
 * In-process ingest through {@code Chronix.write}: one op builds a {@code PointBatch} of {@code
 * ticksPerBatch} TSBS ticks (100 hosts each, 10 tags, 10 fields) and writes it — WAL append and
 * durability per {@code policy}, memtable insert, last-value cache. Background flushes run on a
 * one-thread shared scheduler (the second core). rows/s = ops/s × 100 × ticksPerBatch; bytes per
 * point = {@code gc.alloc.rate.norm} / (100 × ticksPerBatch), batch building included.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED",
        "--sun-misc-unsafe-memory-access=allow", "-Xmx4g"})
public class EngineIngestBenchmark {

    static final int HOSTS = 100;
    static final int DISTINCT_TICKS = 360;
    static final long INTERVAL = 10_000_000_000L;

    @Param({"PERIODIC", "PER_BATCH"})
    FsyncPolicy policy;

    @Param({"1", "10"})
    int ticksPerBatch;

    @Param({"false", "true"})
    boolean integers;

    private Path dir;
    private MaintenanceScheduler scheduler;
    private Chronix engine;
    private List<HostTags> hosts;
    private List<double[][]> values;
    private final PointBatch.Builder builder = PointBatch.builder();
    private long time;
    private int tick;

    @Setup(Level.Trial)
    public void open() throws Exception {
        EngineBench.Generated g = EngineBench.generate(HOSTS, DISTINCT_TICKS, integers);
        hosts = g.dataset().hosts();
        values = g.ticks();
        time = g.dataset().config().startNanos();
        dir = EngineBench.newDirectory("engine-ingest");
        scheduler = MaintenanceScheduler.create(1);
        engine = Chronix.open(dir, EngineBench.config().withFsyncPolicy(policy), scheduler);
    }

    @TearDown(Level.Trial)
    public void close() throws Exception {
        engine.close();
        scheduler.close();
        EngineBench.delete(dir);
    }

    /** Rows written per op, reported beside the score. */
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    @State(Scope.Thread)
    public static class Rows {
        public long rows;
    }

    /** The same batch building without the write: its allocation is the caller's share of {@link #writeBatch}'s. */
    @Benchmark
    public PointBatch buildBatchOnly(Rows rows) {
        builder.reset();
        for (int t = 0; t < ticksPerBatch; t++) {
            EngineTickSink.appendTick(builder, hosts, integers, time, values.get(tick));
            time += INTERVAL;
            tick = (tick + 1) % DISTINCT_TICKS;
        }
        PointBatch batch = builder.build();
        rows.rows += batch.size();
        return batch;
    }

    @Benchmark
    public long writeBatch(Rows rows) {
        builder.reset();
        for (int t = 0; t < ticksPerBatch; t++) {
            EngineTickSink.appendTick(builder, hosts, integers, time, values.get(tick));
            time += INTERVAL;
            tick = (tick + 1) % DISTINCT_TICKS;
        }
        PointBatch batch = builder.build();
        rows.rows += batch.size();
        return engine.write(batch);
    }
}
