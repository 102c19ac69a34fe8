package io.chronix.engine.tool;

import io.chronix.engine.io.NioFileIO;
import io.chronix.engine.wal.FsyncPolicy;
import io.chronix.engine.wal.WalConfig;
import io.chronix.engine.wal.WalMetrics;
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

import static org.assertj.core.api.Assertions.assertThat;

class ChronixToolTest {

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
        Path file = writeFive();
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
            for (int i = 0; i < 5; i++) {
                wal.appendDurable(WalRecordType.DATA, ByteBuffer.wrap(("record " + i).getBytes()));
            }
            Path file = wal.activeFile();
            long size = Files.size(file);
            assertThat(size).as("preallocated").isGreaterThan(WalConfig.DEFAULT_PREALLOCATION);

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
        Path file = writeFive();
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
    void unknownCommandPrintsUsage() {
        assertThat(run("wal", "explode", ns.toString())).isEqualTo(ChronixTool.EXIT_USAGE);
        assertThat(run()).isEqualTo(ChronixTool.EXIT_USAGE);
        assertThat(err.toString()).contains("usage");
    }
}
