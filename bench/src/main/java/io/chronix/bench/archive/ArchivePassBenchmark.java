package io.chronix.bench.archive;

import io.chronix.engine.archive.ArchiveReport;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * One archiving pass over a day of TSBS cpu-only data (100 hosts, 864,000 rows, flushed to
 * {@code .csx}): read every segment, write Parquet (zstd) through DuckDB on one thread, store it,
 * read it back and verify, record, delete the hot files. Single shot per fresh namespace; the
 * hot and Parquet sizes are printed and counted ({@code hotBytes}, {@code parquetBytes}), so MB/s
 * of hot data is {@code hotBytes / time}. DuckDB runs one thread and the pass is sequential:
 * the figure is per core.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED",
        "--sun-misc-unsafe-memory-access=allow", "-Xmx4g"})
public class ArchivePassBenchmark {

    private ArchiveBench bench;

    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Sizes {
        public long hotBytes;
        public long parquetBytes;
        public long rows;
    }

    @Setup(Level.Iteration)
    public void load() throws Exception {
        bench = new ArchiveBench("archive-pass");
    }

    @TearDown(Level.Iteration)
    public void close() throws Exception {
        bench.close();
    }

    @Benchmark
    public ArchiveReport archiveADay(Sizes sizes) {
        ArchiveReport r = bench.engine.archive(Duration.ofDays(1));
        if (r.failure().isPresent() || r.rows() != ArchiveBench.DAY.rows()) {
            throw new IllegalStateException("pass did not archive the day: " + r);
        }
        sizes.hotBytes = r.hotBytes();
        sizes.parquetBytes = r.objectBytes();
        sizes.rows = r.rows();
        System.out.printf("%n[archive] segments=%d rows=%d hotBytes=%d parquetBytes=%d ratio=%.3f%n", r.segments(), r.rows(),
                r.hotBytes(), r.objectBytes(), (double) r.objectBytes() / r.hotBytes());
        return r;
    }
}
