package io.chronix.bench.compaction;

import io.chronix.engine.Chronix;
import io.chronix.engine.compaction.CompactionResult;
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
import java.util.concurrent.TimeUnit;

/**
 * Compacting 100 flushed TSBS segments of one shard (360,000 rows, 3.6 M field values) into one:
 * the whole {@code Chronix.compact()} (merge, streaming write, catalog swap, input deletion). Each
 * invocation compacts a fresh copy of the same namespace. Divide {@link CompactionReport}'s bytes
 * and rows by this time for MB/s and rows/s. A small heap ({@code -Xmx256m}) on purpose: the merge
 * streams, so it must not need the inputs' size in memory.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED",
        "--sun-misc-unsafe-memory-access=allow", "-Xmx256m"})
public class CompactionBenchmark {

    @Param({"float", "integer"})
    String variant;

    @Param({"100"})
    int segments;

    @Param({"65536"})
    int rowGroupRows;

    private MaintenanceScheduler scheduler;
    private Path template;
    private Path run;
    private Chronix engine;

    @Setup(Level.Trial)
    public void build() throws Exception {
        scheduler = MaintenanceScheduler.create(1);
        template = CompactionData.build(segments, variant.equals("integer"), rowGroupRows, scheduler);
    }

    @Setup(Level.Invocation)
    public void open() throws Exception {
        run = CompactionData.copy(template);
        engine = Chronix.open(run, CompactionData.config(rowGroupRows), scheduler);
    }

    @Benchmark
    public CompactionResult compact() {
        CompactionResult r = engine.compact();
        if (r.segmentsIn() != segments || r.segmentsOut() != 1) {
            throw new IllegalStateException("unexpected compaction: " + r);
        }
        return r;
    }

    @TearDown(Level.Invocation)
    public void closeRun() throws Exception {
        engine.close();
        CompactionData.delete(run);
    }

    @TearDown(Level.Trial)
    public void close() throws Exception {
        scheduler.close();
        CompactionData.delete(template);
    }
}
