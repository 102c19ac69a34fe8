package io.chronix.engine.wal;

import io.chronix.engine.error.CorruptFileException;
import io.chronix.engine.io.NioFileIO;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Recovery on real files: a torn tail is cut and reported; damage before the tail refuses open until repaired. */
class WalRecoveryTest {

    @TempDir
    Path tmp;

    private final List<LogRecord> warnings = new ArrayList<>();
    private final Logger loaderLog = Logger.getLogger(WalLoader.class.getName());
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord r) {
            if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
                warnings.add(r);
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void captureWarnings() {
        loaderLog.addHandler(capture);
    }

    @AfterEach
    void release() {
        loaderLog.removeHandler(capture);
    }

    private WalConfig config() {
        return WalConfig.defaults(tmp.resolve("wal")).withFsyncPolicy(FsyncPolicy.PER_BATCH);
    }

    private Path writeTen() {
        try (WalWriter wal = WalWriter.open(config(), new WalMetrics())) {
            for (int i = 0; i < 10; i++) {
                wal.appendDurable(WalRecordType.DATA, WalFixtures.payload("record " + i));
            }
            return wal.activeFile();
        }
    }

    @Test
    void tornTailIsCutToTheLastGoodRecordWithAWarningAndACount() throws IOException {
        Path file = writeTen();
        long good = Files.size(file);
        // a crash mid-append: a frame header that promises more payload than arrived
        ByteBuffer partial = ByteBuffer.allocate(25).order(ByteOrder.LITTLE_ENDIAN).putInt(0xDEAD).putInt(500).putLong(11);
        Files.write(file, partial.array(), StandardOpenOption.APPEND);

        WalMetrics metrics = new WalMetrics();
        List<Long> seqs = new ArrayList<>();
        try (WalWriter wal = WalWriter.open(config(), metrics, 0, r -> seqs.add(r.sequence()))) {
            assertThat(seqs).hasSize(10);
            assertThat(Files.size(file)).isEqualTo(good);
            assertThat(metrics.truncations()).isEqualTo(1);
            assertThat(metrics.truncatedBytes()).isEqualTo(25);
            assertThat(wal.appendDurable(WalRecordType.DATA, WalFixtures.payload("eleven"))).isEqualTo(11);
        }
        assertThat(warnings).as("reported, never silent").hasSize(1);
        LogRecord w = warnings.getFirst();
        String text = java.text.MessageFormat.format(w.getMessage(), w.getParameters());
        assertThat(text).contains(file.toString()).contains("offset=" + good);
    }

    @Test
    void tornHeaderOfTheNewestFileIsRemoved() throws IOException {
        writeTen();
        Path half = tmp.resolve("wal").resolve(WalFormat.fileName(11));
        Files.write(half, new byte[] {'C', 'X', 'W'});
        WalMetrics metrics = new WalMetrics();
        try (WalWriter wal = WalWriter.open(config(), metrics)) {
            assertThat(Files.exists(half)).isFalse();
            assertThat(metrics.truncations()).isEqualTo(1);
            assertThat(wal.appendDurable(WalRecordType.DATA, WalFixtures.payload("eleven"))).isEqualTo(11);
        }
    }

    @ParameterizedTest(name = "header {0}")
    @ValueSource(strings = {"bad magic", "other version", "bad magic, zeros after"})
    void newestFileHoldingOnlyAHeaderNotAsWrittenIsRemoved(String damage) throws IOException {
        writeTen();
        // a power loss before the new file's header was fsynced, on a file system that left its block's old bytes
        byte[] header = damage.startsWith("bad magic") ? new byte[] {'x', 'Q', 0x7F, 3, 1, 0} : new byte[] {'C', 'X', 'W', 'L', 9, 0};
        byte[] content = damage.endsWith("zeros after") ? java.util.Arrays.copyOf(header, header.length + 100) : header;
        Path garbled = tmp.resolve("wal").resolve(WalFormat.fileName(11));
        Files.write(garbled, content);
        WalMetrics metrics = new WalMetrics();
        List<Long> seqs = new ArrayList<>();
        try (WalWriter wal = WalWriter.open(config(), metrics, 0, r -> seqs.add(r.sequence()))) {
            assertThat(seqs).hasSize(10);
            assertThat(Files.exists(garbled)).isFalse();
            assertThat(metrics.truncations()).isEqualTo(1);
            assertThat(wal.appendDurable(WalRecordType.DATA, WalFixtures.payload("eleven"))).isEqualTo(11);
        }
        assertThat(warnings).as("reported, never silent").hasSize(1);
    }

    @Test
    void newestFileWithABadHeaderAndAnythingAfterItIsStillCorruption() throws IOException {
        writeTen();
        Path garbled = tmp.resolve("wal").resolve(WalFormat.fileName(11));
        Files.write(garbled, new byte[] {'x', 'Q', 0x7F, 3, 1, 0, 0, 0, 42});
        assertThatThrownBy(() -> WalWriter.open(config(), new WalMetrics())).isInstanceOfSatisfying(CorruptFileException.class,
                e -> assertThat(e.path()).isEqualTo(garbled));
        assertThat(Files.exists(garbled)).isTrue();
    }

    @Test
    void damageBeforeTheTailRefusesOpenNamingFileAndOffsetUntilRepaired() throws IOException {
        Path file = writeTen();
        byte[] bytes = Files.readAllBytes(file);
        long[] starts = WalFormatContractTest.frameStarts(bytes);
        bytes[(int) starts[3] + WalFormat.PAYLOAD_OFFSET] ^= 0x40;
        Files.write(file, bytes);

        assertThatThrownBy(() -> WalWriter.open(config(), new WalMetrics()))
                .isInstanceOfSatisfying(CorruptFileException.class, e -> {
                    assertThat(e.path()).isEqualTo(file);
                    assertThat(e.offset()).isEqualTo(starts[3]);
                })
                .hasMessageContaining("repair");
        assertThat(Files.readAllBytes(file)).as("a refused open changes nothing").isEqualTo(bytes);

        WalMetrics metrics = new WalMetrics();
        WalRepair.Report report = WalRepair.repair(NioFileIO.INSTANCE, tmp.resolve("wal"), metrics);
        assertThat(report.changed()).isTrue();
        assertThat(report.keptRecords()).isEqualTo(3);
        assertThat(report.droppedBytes()).isEqualTo(bytes.length - starts[3]);
        assertThat(metrics.truncations()).isEqualTo(1);

        List<Long> seqs = new ArrayList<>();
        WalWriter.open(config(), new WalMetrics(), 0, r -> seqs.add(r.sequence())).close();
        assertThat(seqs).containsExactly(1L, 2L, 3L);
    }

    @Test
    void damageInAnEarlierFileIsCorruptionEvenAtItsEnd() throws IOException {
        WalConfig small = config().withMaxFileSize(120);
        try (WalWriter wal = WalWriter.open(small, new WalMetrics())) {
            for (int i = 0; i < 10; i++) {
                wal.appendDurable(WalRecordType.DATA, WalFixtures.payload("record " + i));
            }
        }
        List<Path> files = WalReader.walFiles(NioFileIO.INSTANCE, small.directory());
        assertThat(files).hasSizeGreaterThan(2);
        Path first = files.getFirst();
        byte[] bytes = Files.readAllBytes(first);
        Files.write(first, java.util.Arrays.copyOf(bytes, bytes.length - 1));
        assertThatThrownBy(() -> WalWriter.open(small, new WalMetrics()))
                .isInstanceOfSatisfying(CorruptFileException.class, e -> assertThat(e.path()).isEqualTo(first));

        WalRepair.Report report = WalRepair.repair(NioFileIO.INSTANCE, small.directory(), new WalMetrics());
        assertThat(report.droppedFiles()).hasSize(files.size() - 1);
        assertThat(report.droppedFiles()).allMatch(f -> f.records() > 0);
        assertThat(WalReader.walFiles(NioFileIO.INSTANCE, small.directory())).containsExactly(first);
        WalWriter.open(small, new WalMetrics()).close();
    }

    @Test
    void replayAllReportsATornTailWithoutCuttingItAndRefusesCorruption() throws IOException {
        Path file = writeTen();
        Files.write(file, new byte[] {1, 2, 3, 4, 5}, StandardOpenOption.APPEND);
        long size = Files.size(file);
        List<Long> seqs = new ArrayList<>();
        WalReader.Scan scan = WalReader.replayAll(NioFileIO.INSTANCE, tmp.resolve("wal"), r -> seqs.add(r.sequence()));
        assertThat(seqs).hasSize(10);
        assertThat(scan.damage().kind()).isEqualTo(WalReader.DamageKind.TORN_TAIL);
        assertThat(Files.size(file)).as("reading changes nothing").isEqualTo(size);

        byte[] bytes = Files.readAllBytes(file);
        bytes[WalFormat.HEADER_SIZE + WalFormat.SEQUENCE_OFFSET] ^= 1;
        Files.write(file, bytes);
        assertThatThrownBy(() -> WalReader.replayAll(NioFileIO.INSTANCE, tmp.resolve("wal"), r -> { }))
                .isInstanceOfSatisfying(CorruptFileException.class, e -> assertThat(e.offset()).isEqualTo(WalFormat.HEADER_SIZE));
    }

    @Test
    void cleanLogNeedsNoRepair() {
        writeTen();
        WalRepair.Report report = WalRepair.repair(NioFileIO.INSTANCE, tmp.resolve("wal"), new WalMetrics());
        assertThat(report.changed()).isFalse();
        assertThat(report.keptRecords()).isEqualTo(10);
    }
}
