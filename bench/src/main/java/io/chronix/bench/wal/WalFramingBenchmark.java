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

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Framing + CRC-32C with no I/O behind it (a discarding file seam): the ceiling of the append path.
 * Bytes per record are {@code payload + 18}; MB/s = ops/s × that.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class WalFramingBenchmark {

    @Param({"100", "1024", "65536"})
    int payloadBytes;

    private WalWriter wal;
    private ByteBuffer payload;

    @Setup(Level.Trial)
    public void open() {
        WalConfig config = WalConfig.defaults(Path.of("/discard/wal")).withIo(new DiscardingFileIO())
                .withFsyncPolicy(FsyncPolicy.PERIODIC).withMaxFileSize(Long.MAX_VALUE);
        wal = WalWriter.open(config, new WalMetrics());
        byte[] bytes = new byte[payloadBytes];
        new java.util.Random(1).nextBytes(bytes);
        payload = ByteBuffer.wrap(bytes);
    }

    @TearDown(Level.Trial)
    public void close() {
        wal.close();
    }

    @Benchmark
    public long frameAndCrc() {
        return wal.append(WalRecordType.DATA, payload);
    }
}
