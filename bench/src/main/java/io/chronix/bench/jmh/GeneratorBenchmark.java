package io.chronix.bench.jmh;

import io.chronix.bench.generator.CpuOnlyConfig;
import io.chronix.bench.generator.CpuOnlyGenerator;
import io.chronix.bench.generator.LineProtocolSink;
import io.chronix.bench.generator.TickSink;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * How fast the generator makes data, so a load figure can be shown not to be bounded by it:
 * {@code columnar} is the random walks alone into a sink that consumes them (the engine-feed path),
 * {@code lineProtocol} adds formatting into a discarding stream. Score: rows per second
 * (one operation = one row, 10 field values).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class GeneratorBenchmark {
    /** 100 hosts x 10 minutes = 6,000 rows per invocation. */
    private static final int HOSTS = 100;
    private static final Duration DURATION = Duration.ofMinutes(10);
    private static final int ROWS = HOSTS * 60;

    @Param({"true", "false"})
    public boolean integerFields;

    private CpuOnlyConfig config;

    @Setup
    public void setUp() {
        config = CpuOnlyConfig.of(HOSTS, DURATION, 42, integerFields);
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public void columnar(Blackhole bh) {
        new CpuOnlyGenerator(config).generate(new TickSink() {
            @Override
            public void tick(long timeNanos, double[][] values) {
                bh.consume(timeNanos);
                bh.consume(values[0][0] + values[9][HOSTS - 1]);
            }
        });
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public long lineProtocol() {
        LineProtocolSink sink = new LineProtocolSink(OutputStream.nullOutputStream());
        new CpuOnlyGenerator(config).generate(sink);
        return sink.bytesWritten();
    }
}
