package io.chronix.engine.tool;

import io.chronix.engine.Chronix;
import io.chronix.engine.EngineConfig;
import io.chronix.engine.codec.WalCodec;
import io.chronix.engine.codec.WalEntry;
import io.chronix.engine.error.WalReplayException;
import io.chronix.engine.io.NioFileIO;
import io.chronix.engine.maintenance.MaintenanceScheduler;
import io.chronix.engine.model.FieldType;
import io.chronix.engine.model.PointBatch;
import io.chronix.engine.wal.FsyncPolicy;
import io.chronix.engine.wal.WalConfig;
import io.chronix.engine.wal.WalMetrics;
import io.chronix.engine.wal.WalReader;
import io.chronix.engine.wal.WalRecordType;
import io.chronix.engine.wal.WalWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChronixToolTest {

    private static final long T0 = Instant.parse("2026-01-01T00:00:00Z").getEpochSecond() * 1_000_000_000L;

    @TempDir
    Path ns;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        out.reset();
        err.reset();
        return ChronixTool.run(args, new PrintStream(out, true), new PrintStream(err, true), NioFileIO.INSTANCE);
    }

    private Path writeFive() {
        try (WalWriter wal = WalWriter.open(WalConfig.defaults(ns.resolve("wal")).withFsyncPolicy(FsyncPolicy.PER_WRITE), new WalMetrics())) {
            for (int i = 0; i < 5; i++) {
                wal.append(WalRecordType.ofCode(i % 4), ByteBuffer.wrap(("record " + i).getBytes()));
            }
            return wal.activeFile();
        }
    }

    /** A Schema record and four points using its field: a log the engine replays. */
    private Path writeFiveReplayable() {
        List<ByteBuffer> records = new ArrayList<>();
        records.add(schema("cpu", "usage", FieldType.FLOAT));
        for (int i = 0; i < 4; i++) {
            records.add(point("cpu", "usage", i));
        }
        return writeWal(ns.resolve("wal"), records);
    }

    private static ByteBuffer schema(String measurement, String field, FieldType type) {
        return ByteBuffer.wrap(WalCodec.encode(new WalEntry.Schema(List.of(new WalEntry.FieldDeclaration(measurement, field, type)))));
    }

    private static ByteBuffer point(String measurement, String field, double value) {
        return ByteBuffer.wrap(WalCodec.encode(new WalEntry.Points(PointBatch.builder()
                .beginPoint(measurement, T0 + (long) value).tag("host", "a").floatField(field, value).endPoint().build())));
    }

    private static Path writeWal(Path dir, List<ByteBuffer> records) {
        try (WalWriter wal = WalWriter.open(WalConfig.defaults(dir).withFsyncPolicy(FsyncPolicy.PER_WRITE), new WalMetrics())) {
            for (ByteBuffer r : records) {
                wal.append(WalCodec.decode(r.duplicate()).recordType(), r);
            }
            return wal.activeFile();
        }
    }

    @Test
    void dumpPrintsOneLinePerRecord() {
        writeFive();
        assertThat(run("wal", "dump", ns.toString())).isZero();
        String[] lines = out.toString().strip().split("\n");
        assertThat(lines).hasSize(1 + 5);
        assertThat(lines[1]).isEqualTo("wal_00000000000000000001.cxwl\t6\t1\tDATA\t8\t1\tok");
        assertThat(lines[3]).contains("\t3\tSCHEMA\t");
    }

    @Test
    void verifyExitsZeroOneOrTwoForCleanTornAndCorrupt() throws Exception {
        Path file = writeFiveReplayable();
        assertThat(run("wal", "verify", ns.toString())).isZero();
        assertThat(out.toString()).contains("clean");

        Files.write(file, new byte[] {1, 2, 3}, StandardOpenOption.APPEND);
        assertThat(run("wal", "verify", ns.resolve("wal").toString())).isEqualTo(ChronixTool.EXIT_TORN);
        assertThat(out.toString()).contains("torn tail").contains("offset");

        byte[] bytes = Files.readAllBytes(file);
        bytes[6 + 18] ^= 1;
        Files.write(file, bytes);
        assertThat(run("wal", "verify", ns.toString())).isEqualTo(ChronixTool.EXIT_CORRUPT);
        assertThat(out.toString()).contains("corrupt").contains("offset 6");
        assertThat(run("wal", "dump", ns.toString())).isEqualTo(ChronixTool.EXIT_CORRUPT);
        assertThat(out.toString()).contains("BAD");
    }

    @Test
    void verifyAndDumpAgreeThatAPreallocatedZeroTailIsTheCleanEndAndGarbageAfterItIsTorn() throws Exception {
        // a writer still open (as at a crash) leaves its file extended by zeros past the records
        try (WalWriter wal = WalWriter.open(WalConfig.defaults(ns.resolve("wal")), new WalMetrics())) {
            wal.appendDurable(WalRecordType.SCHEMA, schema("cpu", "usage", FieldType.FLOAT));
            for (int i = 0; i < 4; i++) {
                wal.appendDurable(WalRecordType.DATA, point("cpu", "usage", i));
            }
            Path file = wal.activeFile();
            long size = Files.size(file);
            assertThat(size).as("preallocated: the smallest extension, 16 KiB, past the records").isGreaterThan(16 * 1024);

            assertThat(run("wal", "verify", ns.toString())).isZero();
            assertThat(out.toString()).contains("clean").contains("5 intact records");
            assertThat(run("wal", "dump", ns.toString())).isZero();
            assertThat(out.toString().strip().split("\n")).hasSize(1 + 5);

            try (var ch = java.nio.channels.FileChannel.open(file, StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.wrap(new byte[] {7}), size - 1);
            }
            assertThat(run("wal", "verify", ns.toString())).isEqualTo(ChronixTool.EXIT_TORN);
            assertThat(out.toString()).contains("torn tail").contains("non-zero byte at offset " + (size - 1));
        }
    }

    @Test
    void repairKeepsWhatPrecedesTheDamageReportsTheRestAndLetsTheEngineOpen() throws Exception {
        Path file = writeFiveReplayable();
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length - 20] ^= 1;
        bytes[40] ^= 1;
        Files.write(file, bytes);
        assertThat(run("wal", "verify", ns.toString())).isEqualTo(ChronixTool.EXIT_CORRUPT);

        assertThat(run("wal", "repair", ns.toString())).isZero();
        assertThat(out.toString()).contains("repaired corrupt").contains("kept 1 records").contains("dropped");
        assertThat(run("wal", "verify", ns.toString())).isZero();
        try (WalWriter wal = WalWriter.open(WalConfig.defaults(ns.resolve("wal")), new WalMetrics())) {
            assertThat(wal.lastSequence()).isEqualTo(1);
        }
        assertThat(run("wal", "repair", ns.toString())).isZero();
        assertThat(out.toString()).contains("nothing to repair");
    }

    @Test
    void verifyReportsARecordAheadOfItsSchemaRecordByFileOffsetAndSequenceAndExitsThree() {
        Path file = writeWal(ns.resolve("wal"), List.of(schema("cpu", "usage", FieldType.FLOAT), point("cpu", "usage", 1),
                point("cpu", "idle", 2), schema("cpu", "idle", FieldType.FLOAT), point("cpu", "idle", 3)));
        assertThat(run("wal", "verify", ns.toString())).isEqualTo(ChronixTool.EXIT_OUT_OF_ORDER);
        assertThat(out.toString())
                .contains("replay check: 5 records above the WAL floor 0, against no catalog")
                .contains("out of order in " + file + " at offset " + offsetOf(file, 3) + ", sequence 3: field \"idle\" (FLOAT) "
                        + "of measurement \"cpu\" is declared only by the later Schema record at sequence 4")
                .contains("the engine opens this log")
                .doesNotContain("clean");
        assertThat(out.toString().lines().filter(l -> l.startsWith("out of order"))).as("one finding: the later use is in order")
                .hasSize(1);
    }

    @Test
    void verifyReportsARecordWhoseFieldNoSchemaRecordDeclaredAndExitsThreeAsTheEngineOpens() {
        Path file = writeWal(ns.resolve("wal"), List.of(schema("cpu", "usage", FieldType.FLOAT), point("cpu", "usage", 1),
                point("cpu", "idle", 2), schema("cpu", "usage", FieldType.FLOAT)));
        assertThat(run("wal", "verify", ns.toString())).isEqualTo(ChronixTool.EXIT_OUT_OF_ORDER);
        long offset = offsetOf(file, 3);
        assertThat(out.toString()).contains("undeclared in " + file + " at offset " + offset + ", sequence 3: field \"idle\" (FLOAT) "
                + "of measurement \"cpu\" is declared neither in the catalog nor by any Schema record of the WAL; "
                + "replay declares it from this record's own type and opens")
                .contains("the engine opens this log");
        try (MaintenanceScheduler scheduler = MaintenanceScheduler.create(1); Chronix c = Chronix.open(ns, EngineConfig.defaults(), scheduler)) {
            assertThat(c.schema("cpu").orElseThrow().columns()).extracting(col -> col.name()).contains("idle", "usage");
        }
    }

    @Test
    void verifyReportsATypeConflictAndAnUnsupportedRecord() {
        writeWal(ns.resolve("wal"), List.of(schema("cpu", "usage", FieldType.INTEGER), point("cpu", "usage", 1),
                ByteBuffer.wrap(WalCodec.encode(new WalEntry.Tombstone("cpu", new java.util.TreeMap<>(), 0, 1)))));
        assertThat(run("wal", "verify", ns.toString())).isEqualTo(ChronixTool.EXIT_CORRUPT);
        assertThat(out.toString()).contains("type conflict in").contains("sequence 2: field \"usage\" of measurement \"cpu\" is FLOAT "
                + "in this record but declared INTEGER").contains("unsupported in").contains("sequence 3: a Tombstone record");
    }

    @Test
    void verifyTakesDeclarationsAndTheFloorFromTheNamespacesCatalog() throws Exception {
        EngineConfig config = EngineConfig.defaults().withWalMaxFileSize(4096).withMaintenanceInterval(java.time.Duration.ZERO)
                .withClock(java.time.Clock.fixed(java.time.Instant.ofEpochSecond(T0 / 1_000_000_000L + 3600), java.time.ZoneOffset.UTC));
        try (MaintenanceScheduler scheduler = MaintenanceScheduler.create(1);
                Chronix c = Chronix.open(ns, config, scheduler)) {
            for (int i = 0; i < 100; i++) {
                c.write(PointBatch.builder().beginPoint("cpu", T0 + i).tag("host", "h" + i).floatField("usage", i).endPoint().build());
            }
            c.flush(); // "usage" goes to the catalog; the WAL's old files go, its floor rises
            for (int i = 0; i < 10; i++) {
                c.write(PointBatch.builder().beginPoint("cpu", T0 + 1000 + i).tag("host", "a").floatField("usage", i).endPoint().build());
            }
        }
        assertThat(run("wal", "verify", ns.toString())).isZero();
        assertThat(out.toString()).contains("replay check: 10 records above the WAL floor 101, against 2 catalog declarations")
                .contains("clean");

        // the same log copied away from its catalog: the declaration may be in a catalog the tool cannot see
        Path copy = Files.createDirectories(ns.resolveSibling(ns.getFileName() + "-copy").resolve("wal-aside"));
        try (var files = Files.list(ns.resolve("wal"))) {
            for (Path f : files.toList()) {
                Files.copy(f, copy.resolve(f.getFileName()));
            }
        }
        assertThat(run("wal", "verify", copy.toString())).isZero();
        assertThat(out.toString()).contains("against no catalog").contains("not declared in this log in ")
                .contains("the catalog it belongs to may declare it");
    }

    /** The offset of the frame of the record with sequence {@code seq} in {@code file}. */
    private static long offsetOf(Path file, long seq) {
        long[] offset = {-1};
        WalReader.scan(NioFileIO.INSTANCE, file.getParent(), r -> {
            if (r.sequence() == seq) {
                offset[0] = r.offset();
            }
        });
        assertThat(offset[0]).as("record %d found", seq).isPositive();
        return offset[0];
    }

    @Test
    void unknownCommandPrintsUsage() {
        assertThat(run("wal", "explode", ns.toString())).isEqualTo(ChronixTool.EXIT_USAGE);
        assertThat(run()).isEqualTo(ChronixTool.EXIT_USAGE);
        assertThat(err.toString()).contains("usage");
    }
}
