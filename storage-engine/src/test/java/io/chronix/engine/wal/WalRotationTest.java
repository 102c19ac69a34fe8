package io.chronix.engine.wal;

import io.chronix.engine.io.SimulatedFileIO;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

import static io.chronix.engine.wal.WalFixtures.DIR;
import static io.chronix.engine.wal.WalFixtures.Replayed;
import static org.assertj.core.api.Assertions.assertThat;

class WalRotationTest {

    private static WalConfig smallFiles(SimulatedFileIO io) {
        return WalFixtures.config(io, FsyncPolicy.PER_BATCH).withMaxFileSize(256);
    }

    @Test
    void filesRotateBeforeExceedingTheMaximumAndAreNamedAfterTheirFirstSequence() {
        SimulatedFileIO io = WalFixtures.simulated();
        try (WalWriter wal = WalWriter.open(smallFiles(io), new WalMetrics())) {
            for (int i = 0; i < 40; i++) {
                wal.appendDurable(WalRecordType.DATA, ByteBuffer.wrap(new byte[30]));
            }
            List<Path> files = WalReader.walFiles(io, DIR);
            assertThat(wal.fileCount()).isEqualTo(files.size()).isGreaterThan(5);
            for (Path f : files) {
                assertThat(io.contents(f).length).isLessThanOrEqualTo(256);
                assertThat(f.getFileName().toString()).matches("wal_\\d{20}\\.cxwl");
            }
            assertThat(files.getFirst().getFileName().toString()).isEqualTo("wal_00000000000000000001.cxwl");
        }
    }

    @Test
    void rotationFsyncsTheDirectoryAndNeverListsIt() {
        SimulatedFileIO io = WalFixtures.simulated();
        try (WalWriter wal = WalWriter.open(smallFiles(io), new WalMetrics())) {
            int listings = io.listings.get();
            int dirSyncs = io.directorySyncs.get();
            for (int i = 0; i < 40; i++) {
                wal.appendDurable(WalRecordType.DATA, ByteBuffer.wrap(new byte[30]));
            }
            int created = wal.fileCount() - 1;
            assertThat(created).isPositive();
            assertThat(io.directorySyncs.get() - dirSyncs).as("one directory fsync per created file").isEqualTo(created);
            assertThat(io.listings.get()).as("the file count is cached, not re-read").isEqualTo(listings);
        }
    }

    @Test
    void aBatchIsNeverSplitAcrossFiles() {
        SimulatedFileIO io = WalFixtures.simulated();
        try (WalWriter wal = WalWriter.open(smallFiles(io), new WalMetrics())) {
            wal.appendDurable(WalRecordType.DATA, ByteBuffer.wrap(new byte[100]));
            long last = wal.appendBatch(WalRecordType.BATCH, List.of(ByteBuffer.wrap(new byte[100]), ByteBuffer.wrap(new byte[100]),
                    ByteBuffer.wrap(new byte[100])));
            assertThat(last).isEqualTo(4);
            assertThat(wal.activeFile().getFileName().toString()).isEqualTo(WalFormat.fileName(2));
        }
    }

    @Test
    void truncateBeforeRemovesWhollyCoveredFilesButNeverTheActiveOneAndIsIdempotent() {
        SimulatedFileIO io = WalFixtures.simulated();
        WalConfig config = smallFiles(io);
        try (WalWriter wal = WalWriter.open(config, new WalMetrics())) {
            for (int i = 0; i < 40; i++) {
                wal.appendDurable(WalRecordType.DATA, ByteBuffer.wrap(new byte[30]));
            }
            List<Path> files = WalReader.walFiles(io, DIR);
            long thirdStart = WalFormat.startSequenceOf(files.get(2).getFileName().toString());
            assertThat(wal.truncateBefore(thirdStart - 2)).as("the second file still holds thirdStart-1").isEqualTo(1);
            assertThat(wal.truncateBefore(thirdStart - 1)).isEqualTo(1);
            assertThat(wal.truncateBefore(thirdStart - 1)).as("idempotent").isZero();
            assertThat(WalReader.walFiles(io, DIR).getFirst()).isEqualTo(files.get(2));

            wal.truncateBefore(Long.MAX_VALUE);
            assertThat(WalReader.walFiles(io, DIR)).containsExactly(wal.activeFile());
            assertThat(wal.fileCount()).isEqualTo(1);
            long next = wal.appendDurable(WalRecordType.DATA, WalFixtures.payload("still writable"));
            assertThat(next).isEqualTo(41);
        }
        List<Replayed> back = WalFixtures.recover(config);
        assertThat(back.getLast().sequence()).isEqualTo(41);
        assertThat(back.getFirst().sequence()).isEqualTo(WalFormat.startSequenceOf(WalReader.walFiles(io, DIR).getFirst().getFileName().toString()));
    }

    @Test
    void truncatingEverythingWrittenRollsOverSoTheCoveredFileGoesAtOnce() throws IOException {
        SimulatedFileIO io = WalFixtures.simulated();
        WalConfig config = WalFixtures.config(io, FsyncPolicy.PER_BATCH);
        try (WalWriter wal = WalWriter.open(config, new WalMetrics())) {
            for (int i = 0; i < 10; i++) {
                wal.appendDurable(WalRecordType.DATA, ByteBuffer.wrap(new byte[100]));
            }
            Path first = wal.activeFile();
            assertThat(wal.truncateBefore(9)).as("record 10 is not covered: no roll-over").isZero();
            assertThat(wal.activeFile()).isEqualTo(first);

            assertThat(wal.truncateBefore(10)).isEqualTo(1);
            assertThat(WalReader.walFiles(io, DIR)).containsExactly(wal.activeFile());
            assertThat(wal.activeFile().getFileName().toString()).isEqualTo(WalFormat.fileName(11));
            assertThat(io.size(wal.activeFile())).as("header only").isEqualTo(WalFormat.HEADER_SIZE);
            assertThat(wal.truncateBefore(10)).as("an empty active file is not rolled again").isZero();
            assertThat(wal.activeFile().getFileName().toString()).isEqualTo(WalFormat.fileName(11));
        }
        try (WalWriter reopened = WalWriter.open(config, new WalMetrics())) {
            assertThat(reopened.appendDurable(WalRecordType.DATA, WalFixtures.payload("after"))).isEqualTo(11);
        }
        assertThat(WalFixtures.recover(config)).extracting(Replayed::sequence).containsExactly(11L);
    }

    @Test
    void reopenContinuesTheLastFileAndTheSequence() {
        SimulatedFileIO io = WalFixtures.simulated();
        WalConfig config = WalFixtures.config(io, FsyncPolicy.PER_BATCH);
        try (WalWriter wal = WalWriter.open(config, new WalMetrics())) {
            wal.appendDurable(WalRecordType.DATA, WalFixtures.payload("one"));
        }
        try (WalWriter wal = WalWriter.open(config, new WalMetrics())) {
            assertThat(wal.lastSequence()).isEqualTo(1);
            assertThat(wal.appendDurable(WalRecordType.DATA, WalFixtures.payload("two"))).isEqualTo(2);
            assertThat(wal.fileCount()).isEqualTo(1);
        }
        assertThat(WalFixtures.recover(config)).extracting(Replayed::sequence).containsExactly(1L, 2L);
    }

    @Test
    void replayStartsAboveTheFloorTheCallerAlreadyHolds() {
        SimulatedFileIO io = WalFixtures.simulated();
        WalConfig config = WalFixtures.config(io, FsyncPolicy.PER_BATCH);
        try (WalWriter wal = WalWriter.open(config, new WalMetrics())) {
            for (int i = 0; i < 10; i++) {
                wal.appendDurable(WalRecordType.DATA, WalFixtures.payload("r" + i));
            }
        }
        List<Long> seen = new java.util.ArrayList<>();
        WalWriter.open(config, new WalMetrics(), 7, r -> seen.add(r.sequence())).close();
        assertThat(seen).containsExactly(8L, 9L, 10L);
    }
}
