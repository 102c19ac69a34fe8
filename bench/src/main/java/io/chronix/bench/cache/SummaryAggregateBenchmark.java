package io.chronix.bench.cache;

import io.chronix.bench.engine.EngineBench;
import io.chronix.engine.Chronix;
import io.chronix.engine.cache.BlockCache;
import io.chronix.engine.maintenance.MaintenanceScheduler;
import io.chronix.engine.read.AggregateRequest;
import io.chronix.engine.read.AggregateResult;
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
 * Count/sum/min/max/first/last of one float field per series over 30 days (all hosts), answered
 * from segment summaries against the same aggregate decoded from blocks. The range starts half an
 * hour into the data, so the first segment is read from blocks in both cases (as a "last 30 days"
 * query would cut one). The block cache is off (size 0): "from blocks" decodes every block.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED",
        "--sun-misc-unsafe-memory-access=allow", "-Xmx2g"})
public class SummaryAggregateBenchmark {

    @Param({"10"})
    int hosts;

    @Param({"30"})
    int days;

    private Path dir;
    private MaintenanceScheduler scheduler;
    private Chronix engine;
    private BufferAllocator allocator;
    private AggregateRequest request;

    @Setup(Level.Trial)
    public void build() throws Exception {
        scheduler = MaintenanceScheduler.create(1);
        dir = CacheData.build(hosts, days, scheduler);
        engine = Chronix.open(dir, CacheData.config(BlockCache.create(0)), scheduler);
        allocator = new RootAllocator();
        request = new AggregateRequest("cpu", "usage_user", CacheData.START + 30 * CacheData.MINUTE,
                CacheData.START + days * CacheData.DAY - 1, List.of());
        AggregateResult a = engine.aggregate(request, allocator);
        AggregateResult b = engine.aggregate(request.withoutSummaries(), allocator);
        if (a.series().size() != hosts || a.segmentsFromSummaries() != engine.segmentCount() - 1 || b.segmentsFromSummaries() != 0
                || a.series().getFirst().aggregate().count() != b.series().getFirst().aggregate().count()) {
            throw new IllegalStateException("unexpected set-up: " + a.segmentsFromSummaries() + " of " + engine.segmentCount()
                    + " from summaries, " + a.series().size() + " series");
        }
    }

    @TearDown(Level.Trial)
    public void close() throws Exception {
        engine.close();
        allocator.close();
        scheduler.close();
        EngineBench.delete(dir);
    }

    @Benchmark
    public long fromSummaries() {
        return engine.aggregate(request, allocator).series().getFirst().aggregate().count();
    }

    @Benchmark
    public long fromBlocks() {
        return engine.aggregate(request.withoutSummaries(), allocator).series().getFirst().aggregate().count();
    }
}
