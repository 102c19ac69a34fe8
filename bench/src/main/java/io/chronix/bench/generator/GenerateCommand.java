package io.chronix.bench.generator;

import io.chronix.bench.cli.Options;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.zip.GZIPOutputStream;

/**
 * {@code bench generate}: writes the cpu-only data set as line protocol to a file or stdout.
 *
 * <pre>
 * --hosts N         hosts (default 100)
 * --duration D      length of the data set (default 1d; 10s, 5m, 12h, 3d or ISO-8601)
 * --start T         first timestamp, ISO-8601 (default 2016-01-01T00:00:00Z, as TSBS)
 * --interval D      time between rows of one host (default 10s)
 * --seed S          random seed (default 123)
 * --floats          emit float fields instead of TSBS's truncated integers
 * --out FILE        output file (default: stdout); a name ending in .gz is gzip-compressed
 * </pre>
 */
public final class GenerateCommand {
    private GenerateCommand() {
    }

    public static CpuOnlyConfig config(Options o) {
        return config(o, 100);
    }

    /** The data-set options above, with {@code defaultHosts} when {@code --hosts} is not given. */
    public static CpuOnlyConfig config(Options o, int defaultHosts) {
        return new CpuOnlyConfig(
                o.integer("hosts", defaultHosts),
                o.instant("start", CpuOnlyConfig.TSBS_START),
                o.duration("duration", Duration.ofDays(1)),
                o.duration("interval", CpuOnlyConfig.TSBS_INTERVAL),
                o.longValue("seed", 123),
                !o.flag("floats"));
    }

    public static void run(Options o) throws IOException {
        CpuOnlyConfig config = config(o);
        String out = o.string("out", "-");
        o.rejectUnknown();
        long started = System.nanoTime();
        long bytes;
        if (out.equals("-")) {
            bytes = write(config, System.out);
        } else {
            Path path = Path.of(out);
            try (OutputStream file = open(path)) {
                bytes = write(config, file);
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        System.err.printf("generated %,d rows (%,d values, %d hosts x %,d ticks) = %,d bytes in %.2f s%n",
                config.rows(), config.values(), config.hosts(), config.ticks(), bytes, seconds);
    }

    private static OutputStream open(Path path) throws IOException {
        OutputStream raw = new BufferedOutputStream(Files.newOutputStream(path), 1 << 20);
        return path.toString().endsWith(".gz") ? new GZIPOutputStream(raw, 1 << 16) : raw;
    }

    /** Writes the data set to {@code out} (not closed) and returns the byte count. */
    public static long write(CpuOnlyConfig config, OutputStream out) {
        LineProtocolSink sink = new LineProtocolSink(out);
        new CpuOnlyGenerator(config).generate(sink);
        return sink.bytesWritten();
    }
}
