package io.chronix.bench.wal;

import io.chronix.engine.io.NioFileIO;
import io.chronix.engine.wal.FsyncPolicy;
import io.chronix.engine.wal.WalConfig;
import io.chronix.engine.wal.WalMetrics;
import io.chronix.engine.wal.WalReader;
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
import org.openjdk.jmh.infra.Blackhole;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Replay (scan + CRC check of every record) of a 256 MiB log in the page cache. One op = the whole
 * log, so MB/s = 256 / (s/op).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(1)
public class WalReplayBenchmark {

    static final long LOG_BYTES = 256L * 1024 * 1024;

    @Param({"100", "1024"})
    int payloadBytes;

    private Path dir;

    @Setup(Level.Trial)
    public void write() throws IOException {
        Path base = Path.of(System.getProperty("chronix.bench.dir", System.getProperty("java.io.tmpdir")));
        dir = Files.createTempDirectory(base, "wal-replay");
        byte[] bytes = new byte[payloadBytes];
        new java.util.Random(1).nextBytes(bytes);
        int perBatch = Math.max(1, 64 * 1024 / payloadBytes);
        List<ByteBuffer> batch = new ArrayList<>();
        for (int i = 0; i < perBatch; i++) {
            batch.add(ByteBuffer.wrap(bytes));
        }
        try (WalWriter wal = WalWriter.open(WalConfig.defaults(dir.resolve("wal")).withFsyncPolicy(FsyncPolicy.PERIODIC),
                new WalMetrics())) {
            while (wal.metrics().bytes() < LOG_BYTES) {
                wal.appendBatch(WalRecordType.DATA, batch);
            }
        }
    }

    @TearDown(Level.Trial)
    public void delete() throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Benchmark
    public long replayAll(Blackhole bh) {
        WalReader.Scan scan = WalReader.scan(NioFileIO.INSTANCE, dir.resolve("wal"), r -> bh.consume(r.sequence()));
        if (!scan.clean()) {
            throw new IllegalStateException("damaged: " + scan.damage());
        }
        return scan.records();
    }
}
