package io.chronix.bench.archive;

import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.read.ScanResult;
import io.chronix.engine.read.TagPredicate;
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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Scans over one day of TSBS cpu-only data (100 hosts, 864,000 rows): {@code tier=hot} as
 * {@code .csx} segments; {@code tier=cold-warm} archived, the Parquet files in the local cache;
 * {@code tier=cold-cold} archived with the cache emptied before every scan (each scan copies the
 * objects from the store again — here the filesystem backend, so no network). Queries:
 * {@code day-one-field} all hosts, {@code usage_user}, the whole day; {@code host-12h} one host, one
 * field, 12 hours.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED",
        "--sun-misc-unsafe-memory-access=allow", "-Xmx4g"})
public class ArchivedScanBenchmark {

    @Param({"hot", "cold-warm", "cold-cold"})
    String tier;

    @Param({"day-one-field", "host-12h"})
    String query;

    private ArchiveBench bench;
    private BufferAllocator allocator;
    private ScanRequest request;
    private long expectedRows;

    @Setup(Level.Trial)
    public void load() throws Exception {
        bench = new ArchiveBench("archived-scan");
        allocator = new RootAllocator();
        long start = ArchiveBench.DAY.startNanos();
        if (query.equals("day-one-field")) {
            request = ScanRequest.all("cpu").withColumns("time", "hostname", "usage_user");
            expectedRows = ArchiveBench.DAY.rows();
        } else {
            long from = start + Duration.ofMinutes(30).toNanos();
            request = new ScanRequest("cpu", List.of("time", "usage_user"), from, from + Duration.ofHours(12).toNanos() - 1,
                    List.of(new TagPredicate.Eq("hostname", "host_0")));
            expectedRows = 4320;
        }
        if (!tier.equals("hot")) {
            bench.engine.archive(Duration.ofDays(1));
            if (bench.engine.segmentCount() != 0) {
                throw new IllegalStateException("the day is not fully archived");
            }
        }
        check(scan());
    }

    @Setup(Level.Invocation)
    public void emptyCache() throws IOException {
        if (tier.equals("cold-cold")) {
            Path cache = bench.tier.cache().directory();
            try (Stream<Path> s = Files.list(cache)) {
                for (Path p : s.filter(Files::isRegularFile).toList()) {
                    bench.tier.cache().invalidate(p.getFileName().toString().substring(0, p.getFileName().toString().indexOf('@')).replace('+', '/'));
                }
            }
        }
    }

    @TearDown(Level.Trial)
    public void close() throws Exception {
        allocator.close();
        bench.close();
    }

    private long scan() {
        try (ScanResult r = bench.engine.scan(request, allocator)) {
            return r.rowCount();
        }
    }

    private void check(long rows) {
        if (rows != expectedRows) {
            throw new IllegalStateException("expected " + expectedRows + " rows, got " + rows);
        }
    }

    @Benchmark
    public long scanTheDay() {
        return scan();
    }
}
