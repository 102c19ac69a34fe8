package io.chronix.bench.segment;

import io.chronix.engine.segment.encoding.Alp;
import io.chronix.engine.segment.encoding.AlpRd;
import io.chronix.engine.segment.encoding.BlockBuffer;
import io.chronix.engine.segment.encoding.DeltaOfDelta;
import io.chronix.engine.segment.encoding.DeltaZigzag;
import io.chronix.engine.segment.encoding.Encodings;
import io.chronix.engine.segment.encoding.FloatEncoder;
import io.chronix.engine.segment.encoding.Gorilla;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * Decode throughput of one 65,536-value block (one row group's column) of TSBS cpu-only data,
 * series by series as the writer lays it out, single thread. Score = values decoded per second
 * (ops/s with {@code @OperationsPerInvocation(BLOCK)}). Decoding targets reused arrays; the
 * reader's copy into Arrow vectors is not included.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class SegmentDecodeBenchmark {

    static final int BLOCK = 65_536;

    private byte[] time;
    private int timeLen;
    private byte[] gorilla;
    private int gorillaLen;
    private byte[] alp;
    private int alpLen;
    private byte[] alpFull;
    private int alpFullLen;
    private byte[] alpRd;
    private int alpRdLen;
    private byte[] ints;
    private int intsLen;
    private final long[] longs = new long[BLOCK];
    private final long[] scratch = new long[BLOCK];
    private final double[] doubles = new double[BLOCK];

    @Setup(Level.Trial)
    public void encode() {
        // 8 hosts x 8,192 ticks = one 65,536-row group: 8 series, so 7 series boundaries in the block
        TsbsSegmentData f = TsbsSegmentData.generate(8, Duration.ofSeconds(10L * 8192), 123, false);
        TsbsSegmentData i = TsbsSegmentData.generate(8, Duration.ofSeconds(10L * 8192), 123, true);
        BlockBuffer out = new BlockBuffer(1 << 20);
        DeltaOfDelta.encode(f.time, 0, BLOCK, out, new long[BLOCK], new int[65]);
        time = copy(out);
        timeLen = out.size();
        out.reset();
        Gorilla.encode(f.floats[0], 0, BLOCK, out);
        gorilla = copy(out);
        gorillaLen = out.size();
        out.reset();
        double[] intFloats = i.integersAsFloats()[0];
        if (new FloatEncoder(FloatEncoder.Policy.ALP).encode(intFloats, 0, BLOCK, out) != Encodings.ALP) {
            throw new IllegalStateException("ALP refused whole-number floats");
        }
        alp = copy(out);
        alpLen = out.size();
        out.reset();
        if (new FloatEncoder(FloatEncoder.Policy.ALP).encode(f.floats[0], 0, BLOCK, out) != Encodings.ALP) {
            throw new IllegalStateException("ALP refused the full-precision floats");
        }
        alpFull = copy(out);
        alpFullLen = out.size();
        out.reset();
        new FloatEncoder(FloatEncoder.Policy.ALP_RD).encode(f.floats[0], 0, BLOCK, out);
        alpRd = copy(out);
        alpRdLen = out.size();
        out.reset();
        DeltaZigzag.encode(i.integers[0], 0, BLOCK, out, new long[BLOCK], new int[65]);
        ints = copy(out);
        intsLen = out.size();
        System.out.printf("%nblock bytes/value: time %.4f, gorilla(float) %.4f, alp(integer-valued float) %.4f, alp(float) %.4f, "
                        + "alp-rd(float) %.4f, delta-zigzag(integer) %.4f%n", timeLen / (double) BLOCK, gorillaLen / (double) BLOCK,
                alpLen / (double) BLOCK, alpFullLen / (double) BLOCK, alpRdLen / (double) BLOCK, intsLen / (double) BLOCK);
    }

    private static byte[] copy(BlockBuffer out) {
        return Arrays.copyOf(out.array(), out.size() + Encodings.PAD);
    }

    @Benchmark
    @OperationsPerInvocation(BLOCK)
    public long timestampsDeltaOfDelta() {
        DeltaOfDelta.decode(time, 0, timeLen, longs, BLOCK);
        return longs[BLOCK - 1];
    }

    @Benchmark
    @OperationsPerInvocation(BLOCK)
    public double floatsGorilla() {
        Gorilla.decode(gorilla, 0, gorillaLen, doubles, BLOCK);
        return doubles[BLOCK - 1];
    }

    @Benchmark
    @OperationsPerInvocation(BLOCK)
    public double floatsAlp() {
        Alp.decode(alp, 0, alpLen, doubles, BLOCK, scratch);
        return doubles[BLOCK - 1];
    }

    /** ALP on the full-precision float variant (exponents 14–16, 17-digit integers). */
    @Benchmark
    @OperationsPerInvocation(BLOCK)
    public double floatsAlpFullPrecision() {
        Alp.decode(alpFull, 0, alpFullLen, doubles, BLOCK, scratch);
        return doubles[BLOCK - 1];
    }

    /** ALP-RD on the full-precision float variant. */
    @Benchmark
    @OperationsPerInvocation(BLOCK)
    public double floatsAlpRd() {
        AlpRd.decode(alpRd, 0, alpRdLen, doubles, BLOCK, scratch);
        return doubles[BLOCK - 1];
    }

    @Benchmark
    @OperationsPerInvocation(BLOCK)
    public long integersDeltaZigzag() {
        DeltaZigzag.decode(ints, 0, intsLen, longs, 0, BLOCK);
        return longs[BLOCK - 1];
    }
}
