package io.chronix.engine.wal;

import io.chronix.engine.error.CorruptFileException;
import io.chronix.engine.error.DiskFullException;
import io.chronix.engine.io.SimulatedFileIO;
import io.chronix.engine.io.SimulatedFileIO.PowerLoss;
import io.chronix.engine.wal.WalFixtures.Replayed;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.chronix.engine.wal.WalFixtures.DIR;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The preallocated tail: appends land on zeros written ahead of them, a reader takes zeros at a
 * record boundary as the end of the records, and every other tail state is still classified — garbage
 * after the zeros is a torn tail, an intact record after them is corruption.
 */
class WalPreallocationTest {

    private static final int EXTENT = 4096;

    private static WalConfig config(SimulatedFileIO io) {
        return WalFixtures.config(io, FsyncPolicy.PER_BATCH).withPreallocation(EXTENT);
    }

    /** A log that lost power, every write kept, while its writer was open: {@code acked} are in {@code file}. */
    private record Crashed(List<Long> acked, Path file, long end) {
    }

    private static Crashed crash(SimulatedFileIO io, WalConfig config, int records) {
        WalWriter wal = WalWriter.open(config, new WalMetrics());
        List<Long> acked = appendAndAbandon(wal, records);
        Path file = wal.activeFile();
        io.powerLoss(PowerLoss.KEEP, new java.util.Random(1));
        return new Crashed(acked, file, recordsEnd(io, file));
    }

    /** Appends {@code n} records and leaves the writer open (as a crash would). */
    private static List<Long> appendAndAbandon(WalWriter wal, int n) {
        List<Long> acked = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            acked.add(wal.appendDurable(WalRecordType.DATA, WalFixtures.payload("record " + i)));
        }
        return acked;
    }

    /** The end of the last record of the active file: the file's length once a clean close trimmed it. */
    private static long recordsEnd(SimulatedFileIO io, Path file) {
        WalReader.Scan scan = WalReader.scanFiles(io, List.of(file), 0, r -> { });
        return scan.files().getFirst().validLength();
    }

    @Test
    void appendsLandOnZerosWrittenAheadAndACleanCloseTrimsThem() {
        SimulatedFileIO io = WalFixtures.simulated();
        Path file;
        try (WalWriter wal = WalWriter.open(config(io), new WalMetrics())) {
            appendAndAbandon(wal, 3);
            file = wal.activeFile();
            byte[] open = io.contents(file);
            long end = recordsEnd(io, file);
            assertThat(io.preallocations.get()).as("the file was extended ahead of the records").isPositive();
            assertThat((long) open.length).as("zeros ahead of the records").isGreaterThan(end + EXTENT / 2);
            assertThat(Arrays.copyOfRange(open, (int) end, open.length)).as("the tail is zeros").containsOnly((byte) 0);
            assertThat(WalReader.scan(io, DIR, r -> { }).clean()).as("a zero tail is the end, not damage").isTrue();
        }
        assertThat((long) io.contents(file).length).as("closed: exactly its records").isEqualTo(recordsEnd(io, file));
    }

    @Test
    void aFewRecordsGetKilobytesOfZerosNotAWholeExtent() {
        SimulatedFileIO io = WalFixtures.simulated();
        WalConfig config = WalFixtures.config(io, FsyncPolicy.PER_BATCH).withPreallocation(1 << 20);
        try (WalWriter wal = WalWriter.open(config, new WalMetrics())) {
            appendAndAbandon(wal, 100);
            Path file = wal.activeFile();
            long end = recordsEnd(io, file);
            long length = io.contents(file).length;
            assertThat(end).as("100 small records").isLessThan(WalWriter.MIN_EXTENT);
            assertThat(length).as("the smallest extension past them, not 1 MiB").isBetween(end, WalWriter.MIN_EXTENT + end);
            assertThat(wal.preallocatedBytes()).isEqualTo(length - end);
        }
    }

    @Test
    void aGrowingFileGetsExtensionsAsLargeAsItselfUpToTheConfiguredExtent() {
        SimulatedFileIO io = WalFixtures.simulated();
        long max = 256 * 1024;
        WalConfig config = WalFixtures.config(io, FsyncPolicy.PER_BATCH).withPreallocation(max).withMaxFileSize(64L << 20);
        ByteBuffer big = ByteBuffer.allocate(2000);
        try (WalWriter wal = WalWriter.open(config, new WalMetrics())) {
            Path file = wal.activeFile();
            for (int i = 0; i < 1000; i++) { // about 2 MB of records
                wal.appendDurable(WalRecordType.DATA, big.duplicate());
                long end = recordsEnd(io, file);
                assertThat(wal.preallocatedBytes()).as("zeros after record " + i)
                        .isLessThanOrEqualTo(Math.min(max, Math.max(WalWriter.MIN_EXTENT, end)) + big.capacity());
            }
            // 16, 32, 64, 128 KiB, then 256 KiB extents: a size change to commit once per extent, not per record
            assertThat(io.preallocations.get()).isBetween(4, 4 + (int) (2_000_000 / max) + 2);
            assertThat(wal.preallocatedBytes()).as("zeros ahead stay bounded by the configured extent").isLessThanOrEqualTo(max + big.capacity());
        }
    }

    @Test
    void zeroedTailAfterACrashIsTheEndOfTheLogAndNotReportedAsTorn() {
        SimulatedFileIO io = WalFixtures.simulated();
        Crashed crashed = crash(io, config(io), 5);
        List<Long> acked = crashed.acked();
        Path file = crashed.file();
        long end = crashed.end();
        assertThat((long) io.contents(file).length).as("the crash left the zeros").isGreaterThan(end);

        WalReader.Scan scan = WalReader.scan(io, DIR, r -> { });
        assertThat(scan.clean()).as("verify: clean").isTrue();
        assertThat(scan.lastSequence()).isEqualTo(acked.getLast());

        WalMetrics metrics = new WalMetrics();
        List<Replayed> back = WalFixtures.recover(config(io), metrics);
        assertThat(back).extracting(Replayed::sequence).containsExactlyElementsOf(acked);
        assertThat(metrics.truncations()).as("nothing was lost, so nothing is reported").isZero();
        assertThat((long) io.contents(file).length).as("recovery trimmed the zeros").isEqualTo(end);
    }

    @Test
    void garbageAfterTheZerosOfTheLastFileIsATornTailCutAndReported() {
        SimulatedFileIO io = WalFixtures.simulated();
        Crashed crashed = crash(io, config(io), 4);
        List<Long> acked = crashed.acked();
        Path file = crashed.file();
        long end = crashed.end();
        byte[] bytes = io.contents(file);
        bytes[(int) end + 700] = 0x5A; // a stray page of a record that never completed
        io.overwrite(file, bytes);

        WalReader.Scan scan = WalReader.scan(io, DIR, r -> { });
        assertThat(scan.damage()).isNotNull();
        assertThat(scan.damage().kind()).isEqualTo(WalReader.DamageKind.TORN_TAIL);
        assertThat(scan.damage().offset()).as("the damage starts where the records end").isEqualTo(end);
        assertThat(scan.damage().reason()).contains("non-zero byte at offset " + (end + 700));

        WalMetrics metrics = new WalMetrics();
        assertThat(WalFixtures.recover(config(io), metrics)).extracting(Replayed::sequence).containsExactlyElementsOf(acked);
        assertThat(metrics.truncations()).as("reported, never silent").isEqualTo(1);
        assertThat((long) io.contents(file).length).isEqualTo(end);
    }

    @Test
    void anIntactRecordAfterZerosIsCorruptionNotATail() {
        SimulatedFileIO io = WalFixtures.simulated();
        Path file = crash(io, config(io).withPreallocation(0), 3).file();
        byte[] bytes = io.contents(file);
        long[] starts = WalFormatContractTest.frameStarts(bytes);
        int third = (int) starts[2];
        // records 1 and 2, a stretch of zeros, then record 3 intact: a hole, which no crash makes
        byte[] holed = new byte[bytes.length + 64];
        System.arraycopy(bytes, 0, holed, 0, third);
        System.arraycopy(bytes, third, holed, third + 64, bytes.length - third);
        io.overwrite(file, holed);

        assertThatThrownBy(() -> WalFixtures.recover(config(io)))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("intact records follow it");
        assertThat(io.contents(file)).as("open refused and changed nothing").isEqualTo(holed);
    }

    @Test
    void zerosAfterTheRecordsOfAnEarlierFileAreItsEndButGarbageThereIsCorruption() {
        SimulatedFileIO io = WalFixtures.simulated();
        WalConfig config = config(io).withMaxFileSize(512);
        List<Long> acked;
        Path first;
        try (WalWriter wal = WalWriter.open(config, new WalMetrics())) {
            first = wal.activeFile();
            acked = appendAndAbandon(wal, 100);
            assertThat(wal.fileCount()).isGreaterThan(3);
        }
        List<Path> files = WalReader.walFiles(io, DIR);
        for (Path f : files.subList(0, files.size() - 1)) {
            assertThat((long) io.contents(f).length).as("rotation trimmed " + f.getFileName()).isEqualTo(recordsEnd(io, f));
        }
        // a trim lost to a crash leaves zeros after an earlier file's records: still that file's end
        byte[] bytes = io.contents(first);
        byte[] padded = Arrays.copyOf(bytes, bytes.length + 300);
        io.overwrite(first, padded);
        assertThat(WalFixtures.recover(config)).extracting(Replayed::sequence).containsExactlyElementsOf(acked);

        padded[bytes.length + 299] = 1;
        io.overwrite(first, padded);
        assertThatThrownBy(() -> WalFixtures.recover(config))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("non-zero byte");
    }

    @Test
    void aFullDiskFailsThePreallocationQuietlyAndTheAppendOnItsOwnBytes() {
        SimulatedFileIO io = WalFixtures.simulated();
        WalConfig config = config(io);
        List<Long> acked = new ArrayList<>();
        byte[] kb = new byte[1000];
        try (WalWriter wal = WalWriter.open(config, new WalMetrics())) {
            io.capacity(io.usedBytes() + 2500);
            acked.add(wal.appendDurable(WalRecordType.DATA, ByteBuffer.wrap(kb)));
            assertThat(io.noSpaceErrors.get()).as("the extent did not fit").isPositive();
            assertThat((long) io.contents(wal.activeFile()).length).as("its partial zeros were cut")
                    .isEqualTo(recordsEnd(io, wal.activeFile()));
            acked.add(wal.appendDurable(WalRecordType.DATA, ByteBuffer.wrap(kb)));
            assertThatThrownBy(() -> wal.appendDurable(WalRecordType.DATA, ByteBuffer.wrap(kb)))
                    .isInstanceOf(DiskFullException.class);
            assertThat(wal.isHealthy()).isTrue();

            io.capacity(Long.MAX_VALUE);
            int before = io.preallocations.get();
            acked.add(wal.appendDurable(WalRecordType.DATA, ByteBuffer.wrap(kb)));
            assertThat(io.preallocations.get()).as("preallocation resumes once space returns").isGreaterThan(before);
            assertThat(acked.getLast()).as("no hole").isEqualTo(acked.get(1) + 1);
        }
        assertThat(WalFixtures.recover(config)).extracting(Replayed::sequence).containsExactlyElementsOf(acked);
    }

    @Test
    void appendsIntoPreallocatedSpaceSucceedOnAFullDisk() {
        SimulatedFileIO io = WalFixtures.simulated();
        WalConfig config = config(io);
        List<Long> acked = new ArrayList<>();
        try (WalWriter wal = WalWriter.open(config, new WalMetrics())) {
            acked.add(wal.appendDurable(WalRecordType.DATA, WalFixtures.payload("first")));
            io.capacity(io.usedBytes());
            for (int i = 0; i < 20; i++) {
                acked.add(wal.appendDurable(WalRecordType.DATA, WalFixtures.payload("into reserved space " + i)));
            }
            assertThat(io.noSpaceErrors.get()).as("nothing needed new space").isZero();
        }
        assertThat(WalFixtures.recover(config)).extracting(Replayed::sequence).containsExactlyElementsOf(acked);
    }
}
