package io.chronix.bench.ingest;

import io.chronix.bench.generator.CpuOnlyConfig;
import io.chronix.bench.generator.CpuOnlyGenerator;
import io.chronix.bench.generator.LineProtocolSink;
import io.chronix.engine.ingest.LineProtocolParser;
import io.chronix.engine.ingest.ParseResult;
import io.chronix.engine.ingest.Precision;
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

import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The line-protocol parser on one thread, on the request bodies the load generator posts: 5,000
 * TSBS cpu-only lines (10 tags, 10 fields each, integer or float fields), parsed into a reused
 * {@link PointBatch.Builder} and built into a batch, as the write path does. Score: bodies per
 * second; the bytes and lines per body are printed at setup, so MB/s = score × bytes and lines/s =
 * score × 5,000.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
public class LineProtocolParserBenchmark {

    /** 100 hosts × 50 ticks = 5,000 lines: one request of the load generator. */
    static final int HOSTS = 100;
    static final int LINES = 5_000;

    @Param({"true", "false"})
    public boolean integerFields;

    private byte[] body;
    private final LineProtocolParser parser = new LineProtocolParser();
    private final PointBatch.Builder builder = PointBatch.builder();

    @Setup(Level.Trial)
    public void setUp() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        LineProtocolSink sink = new LineProtocolSink(out);
        new CpuOnlyGenerator(CpuOnlyConfig.of(HOSTS, Duration.ofSeconds(10L * LINES / HOSTS), 123, integerFields)).generate(sink);
        body = out.toByteArray();
        ParseResult r = parser.parse(body, Precision.NANOSECONDS, 0, builder.reset());
        if (r.hasErrors() || r.points() != LINES) {
            throw new IllegalStateException("benchmark body does not parse: " + r.errors());
        }
        System.out.printf("%nbody: %d bytes, %d lines, integerFields=%s%n", body.length, r.points(), integerFields);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        builder.reset();
    }

    @Benchmark
    public PointBatch parseBody() {
        parser.parse(body, Precision.NANOSECONDS, 0, builder.reset());
        return builder.build();
    }

    @Benchmark
    public int parseOnly() {
        return parser.parse(body, Precision.NANOSECONDS, 0, builder.reset()).points();
    }
}
