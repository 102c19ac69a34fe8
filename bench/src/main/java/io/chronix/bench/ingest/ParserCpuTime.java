package io.chronix.bench.ingest;

import io.chronix.bench.generator.CpuOnlyConfig;
import io.chronix.bench.generator.CpuOnlyGenerator;
import io.chronix.bench.generator.LineProtocolSink;
import io.chronix.engine.ingest.LineProtocolParser;
import io.chronix.engine.ingest.ParseResult;
import io.chronix.engine.ingest.Precision;
import io.chronix.engine.model.PointBatch;

import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Arrays;

/**
 * The parser's throughput per core, measured in the thread's own CPU time rather than wall time:
 * the JMH benchmark ({@link LineProtocolParserBenchmark}) divides by wall time, which on a shared
 * machine counts the time other processes held the core. Same bodies as the JMH benchmark (5,000
 * TSBS cpu-only lines), same work ({@code parseBody}: parse and build the batch).
 *
 * <pre>java -cp benchmarks.jar io.chronix.bench.ingest.ParserCpuTime [rounds] [bodiesPerRound]</pre>
 *
 * Prints, per field kind, the median and min–max over the rounds of MB/s and lines/s per CPU
 * second, after a warm-up of the same length.
 */
public final class ParserCpuTime {

    private ParserCpuTime() {
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 15;
        int bodies = args.length > 1 ? Integer.parseInt(args[1]) : 40;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (boolean integerFields : new boolean[] {true, false}) {
            byte[] body = body(integerFields);
            LineProtocolParser parser = new LineProtocolParser();
            PointBatch.Builder builder = PointBatch.builder();
            long sink = 0;
            for (int i = 0; i < rounds * bodies; i++) { // warm-up: let the JIT settle
                sink += parse(parser, builder, body);
            }
            double[] mbPerCpuSecond = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                long cpu0 = threads.getCurrentThreadCpuTime();
                for (int i = 0; i < bodies; i++) {
                    sink += parse(parser, builder, body);
                }
                long cpu = threads.getCurrentThreadCpuTime() - cpu0;
                mbPerCpuSecond[r] = (double) body.length * bodies / cpu * 1e3; // bytes/ns * 1e3 = MB/s
            }
            Arrays.sort(mbPerCpuSecond);
            double median = mbPerCpuSecond[rounds / 2];
            double linesPerByte = (double) LineProtocolParserBenchmark.LINES / body.length;
            System.out.printf("%-7s fields: %,d bytes/body; per CPU second: median %.0f MB/s (%.0f – %.0f), %,.0f lines/s  [%d]%n",
                    integerFields ? "integer" : "float", body.length, median, mbPerCpuSecond[0], mbPerCpuSecond[rounds - 1],
                    median * 1e6 * linesPerByte, sink % 10);
        }
    }

    private static int parse(LineProtocolParser parser, PointBatch.Builder builder, byte[] body) {
        parser.parse(body, Precision.NANOSECONDS, 0, builder.reset());
        return builder.build().size();
    }

    private static byte[] body(boolean integerFields) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        LineProtocolSink sink = new LineProtocolSink(out);
        int hosts = LineProtocolParserBenchmark.HOSTS;
        new CpuOnlyGenerator(CpuOnlyConfig.of(hosts, Duration.ofSeconds(10L * LineProtocolParserBenchmark.LINES / hosts), 123,
                integerFields)).generate(sink);
        byte[] body = out.toByteArray();
        ParseResult r = new LineProtocolParser().parse(body, Precision.NANOSECONDS, 0, PointBatch.builder());
        if (r.hasErrors() || r.points() != LineProtocolParserBenchmark.LINES) {
            throw new IllegalStateException("benchmark body does not parse: " + r.errors());
        }
        return body;
    }
}
