package io.chronix.bench.segment;

import io.chronix.bench.engine.EngineBench;
import io.chronix.bench.generator.CpuOnlyConfig;
import io.chronix.engine.Chronix;
import io.chronix.engine.maintenance.MaintenanceScheduler;

import io.chronix.engine.segment.SeriesFormat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Bytes per field value of a whole namespace directory, by kind of file: TSBS cpu-only data written
 * through the engine API with the engine's default configuration (1 h shards, 64 MB flush
 * threshold, the default maintenance), batches of 50 ticks × the hosts (the e2e load's 5,000-line
 * batches at 100 hosts), then one flush and a close. Prints, per kind, the files, their bytes and
 * their allocated bytes (4 KiB filesystem blocks: what {@code du -B1} and so the end-to-end
 * figure count), and the directories' own blocks.
 *
 * <pre>
 * java --add-opens=java.base/java.nio=ALL-UNNAMED --enable-native-access=ALL-UNNAMED \
 *      -cp bench/target/benchmarks.jar io.chronix.bench.segment.NamespaceSizeReport [hosts] [hours] [integers|floats]
 * </pre>
 */
public final class NamespaceSizeReport {

    /** The filesystem block the allocated figure rounds every file up to (ext4's default). */
    private static final long BLOCK = 4096;

    private NamespaceSizeReport() {
    }

    public static void main(String[] args) throws Exception {
        int hosts = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        int hours = args.length > 1 ? Integer.parseInt(args[1]) : 24;
        boolean integers = args.length <= 2 || args[2].equals("integers");
        CpuOnlyConfig config = CpuOnlyConfig.of(hosts, Duration.ofHours(hours), 123, integers);
        Path dir = EngineBench.newDirectory("namespace-size");
        long values;
        try (MaintenanceScheduler scheduler = MaintenanceScheduler.create(1)) {
            try (Chronix engine = Chronix.open(dir, EngineBench.config(), scheduler)) {
                values = EngineBench.load(engine, config, 50) * 10;
                engine.flush();
                System.out.println("segments after flush: " + engine.segmentCount());
            }
            report(dir, values);
        } finally {
            EngineBench.delete(dir);
        }
    }

    /** Prints the table of {@code dir}'s files by kind over {@code values} field values. */
    static void report(Path dir, long values) throws IOException {
        Map<String, long[]> kinds = new LinkedHashMap<>(); // kind -> {files, bytes, allocated}
        for (String k : new String[] {".csx", ".series", ".series as version 1", ".summary", "catalog", "wal", "other files",
                "directories"}) {
            kinds.put(k, new long[3]);
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.toList()) {
                long[] k;
                long size;
                if (Files.isDirectory(p)) {
                    k = kinds.get("directories");
                    size = 0;
                } else {
                    k = kinds.get(kind(dir.relativize(p)));
                    size = Files.size(p);
                }
                k[0]++;
                k[1] += size;
                k[2] += Files.isDirectory(p) ? BLOCK : allocated(size);
                if (k == kinds.get(".series")) {
                    // what the same sidecar took in version 1: its plain body stored as it is
                    long v1 = versionOneSize(p);
                    long[] old = kinds.get(".series as version 1");
                    old[0]++;
                    old[1] += v1;
                    old[2] += allocated(v1);
                }
            }
        }
        System.out.printf("field values: %,d%n", values);
        System.out.println("kind\tfiles\tbytes\tallocated\tB/value (bytes)\tB/value (allocated)");
        long bytes = 0;
        long allocated = 0;
        for (Map.Entry<String, long[]> e : kinds.entrySet()) {
            long[] k = e.getValue();
            if (!e.getKey().equals(".series as version 1")) { // a what-if, not in the directory
                bytes += k[1];
                allocated += k[2];
            }
            System.out.printf("%s\t%d\t%,d\t%,d\t%.4f\t%.4f%n", e.getKey(), k[0], k[1], k[2], (double) k[1] / values, (double) k[2] / values);
        }
        System.out.printf("total\t\t%,d\t%,d\t%.4f\t%.4f%n", bytes, allocated, (double) bytes / values, (double) allocated / values);
    }

    private static long allocated(long size) {
        return (size + BLOCK - 1) / BLOCK * BLOCK;
    }

    /** A version-1 sidecar is the header, the plain body and the CRC; version 2 records the plain length. */
    private static long versionOneSize(Path sidecar) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(sidecar)).order(ByteOrder.LITTLE_ENDIAN);
        int version = Short.toUnsignedInt(b.getShort(SeriesFormat.VERSION_OFFSET));
        if (version == SeriesFormat.VERSION_PLAIN) {
            return b.capacity();
        }
        return SeriesFormat.HEADER_SIZE + Integer.toUnsignedLong(b.getInt(SeriesFormat.HEADER_SIZE)) + SeriesFormat.TRAILER_SIZE;
    }

    private static String kind(Path relative) {
        String name = relative.getFileName().toString();
        String top = relative.getName(0).toString();
        if (name.endsWith(".csx")) {
            return ".csx";
        }
        if (name.endsWith(".series")) {
            return ".series";
        }
        if (name.endsWith(".summary")) {
            return ".summary";
        }
        if (top.startsWith("catalog")) {
            return "catalog";
        }
        if (top.equals("wal")) {
            return "wal";
        }
        return "other files";
    }
}
