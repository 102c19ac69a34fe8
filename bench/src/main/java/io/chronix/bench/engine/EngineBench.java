package io.chronix.bench.engine;

import io.chronix.bench.generator.CpuOnlyConfig;
import io.chronix.bench.generator.CpuOnlyGenerator;
import io.chronix.bench.generator.Dataset;
import io.chronix.engine.Chronix;
import io.chronix.engine.EngineConfig;
import io.chronix.engine.maintenance.MaintenanceScheduler;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** Shared set-up of the engine benchmarks (also the cache ones): directories, TSBS data, deleting afterwards. */
public final class EngineBench {

    /** The flags the engine needs in a forked JVM (Arrow on JDK 25; native lz4/zstd). */
    public static final String[] JVM_FLAGS = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED",
            "--sun-misc-unsafe-memory-access=allow"};

    private EngineBench() {
    }

    public static Path newDirectory(String prefix) throws IOException {
        Path base = Path.of(System.getProperty("chronix.bench.dir", System.getProperty("java.io.tmpdir")));
        return Files.createTempDirectory(base, prefix);
    }

    public static void delete(Path dir) throws IOException {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** TSBS's data set starts in 2016; the engine's window is anchored on the newest write, so the clock only bounds the future. */
    static EngineConfig config() {
        return EngineConfig.defaults();
    }

    /** The generator's first {@code ticks} ticks as {@code values[tick][field][host]}, with the data set. */
    static Generated generate(int hosts, int ticks, boolean integers) {
        CpuOnlyConfig c = CpuOnlyConfig.of(hosts, Duration.ofSeconds(10L * ticks), 123, integers);
        CpuOnlyGenerator g = new CpuOnlyGenerator(c);
        List<double[][]> out = new ArrayList<>(ticks);
        g.generate(new io.chronix.bench.generator.TickSink() {
            @Override
            public void tick(long timeNanos, double[][] values) {
                double[][] copy = new double[values.length][];
                for (int f = 0; f < values.length; f++) {
                    copy[f] = values[f].clone();
                }
                out.add(copy);
            }
        });
        return new Generated(g.dataset(), out);
    }

    record Generated(Dataset dataset, List<double[][]> ticks) {
    }

    /** Writes a whole generated data set through an {@link EngineTickSink}. */
    static long load(Chronix engine, CpuOnlyConfig config, int ticksPerBatch) {
        try (EngineTickSink sink = new EngineTickSink(engine, ticksPerBatch)) {
            new CpuOnlyGenerator(config).generate(sink);
            sink.close();
            return sink.rows();
        }
    }

    static Chronix open(Path dir, EngineConfig config, MaintenanceScheduler scheduler) {
        return Chronix.open(dir, config, scheduler);
    }

    /**
     * Writes {@code segments × ticksPerSegment} ticks of TSBS cpu-only data for {@code hosts} hosts,
     * one batch and one flush per {@code ticksPerSegment} ticks, so each flush makes one segment per
     * shard it touches.
     */
    public static void loadSegments(Chronix engine, int hosts, int ticksPerSegment, int segments, boolean integers) {
        CpuOnlyConfig c = CpuOnlyConfig.of(hosts, Duration.ofSeconds(10L * ticksPerSegment * segments), 123, integers);
        EngineTickSink sink = new EngineTickSink(engine, ticksPerSegment);
        new CpuOnlyGenerator(c).generate(new io.chronix.bench.generator.TickSink() {
            int ticks;

            @Override
            public void open(Dataset dataset) {
                sink.open(dataset);
            }

            @Override
            public void tick(long timeNanos, double[][] values) {
                sink.tick(timeNanos, values); // writes a batch every ticksPerSegment ticks
                if (++ticks % ticksPerSegment == 0) {
                    engine.flush();
                }
            }
        });
    }
}
