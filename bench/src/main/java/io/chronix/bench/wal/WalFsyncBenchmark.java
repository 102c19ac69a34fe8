package io.chronix.bench.wal;

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
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;

/**
 * The device cost under every durable WAL append: one small write followed by fdatasync
 * ({@code FileChannel.force(false)}), with the file either growing at each write ({@code APPEND}, what
 * the WAL does) or overwriting a region zero-filled and fsynced beforehand ({@code ZEROED}, what
 * preallocation would give: no size or block-allocation change for the journal to commit). This is
 * the latency that bounds {@code PER_BATCH} throughput at {@code writers ÷ fsync time}.
 * Files go to {@code -Dchronix.bench.dir}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 1, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(1)
public class WalFsyncBenchmark {

    public enum Layout { APPEND, ZEROED }

    /** Zero-filled region for {@code ZEROED}; the file restarts at 0 when a run reaches its end. */
    private static final long REGION = 64L * 1024 * 1024;

    @Param({"APPEND", "ZEROED"})
    Layout layout;

    @Param({"118"})
    int frameBytes;

    private Path file;
    private FileChannel channel;
    private ByteBuffer frame;
    private long position;

    @Setup(Level.Trial)
    public void open() throws IOException {
        Path base = Path.of(System.getProperty("chronix.bench.dir", System.getProperty("java.io.tmpdir")));
        Files.createDirectories(base);
        file = Files.createTempFile(base, "fsync-bench", ".bin");
        channel = FileChannel.open(file, StandardOpenOption.WRITE);
        if (layout == Layout.ZEROED) {
            ByteBuffer zeros = ByteBuffer.allocateDirect(1 << 20);
            for (long at = 0; at < REGION; at += zeros.capacity()) {
                zeros.clear();
                while (zeros.hasRemaining()) {
                    channel.write(zeros, at + zeros.position());
                }
            }
            channel.force(true);
        }
        byte[] bytes = new byte[frameBytes];
        new java.util.Random(1).nextBytes(bytes);
        frame = ByteBuffer.allocateDirect(frameBytes).put(bytes).flip();
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        channel.close();
        Files.deleteIfExists(file);
    }

    @Benchmark
    public long writeAndFdatasync() throws IOException {
        if (position + frameBytes > REGION) {
            position = 0;
            if (layout == Layout.APPEND) {
                channel.truncate(0);
                channel.force(true);
            }
        }
        frame.clear();
        while (frame.hasRemaining()) {
            channel.write(frame, position + frame.position());
        }
        position += frameBytes;
        channel.force(false);
        return position;
    }
}
