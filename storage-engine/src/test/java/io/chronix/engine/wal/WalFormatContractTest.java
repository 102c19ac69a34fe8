package io.chronix.engine.wal;

import io.chronix.engine.codec.WalCodec;
import io.chronix.engine.codec.WalEntry;
import io.chronix.engine.error.CorruptFileException;
import io.chronix.engine.error.UnsupportedFormatVersionException;
import io.chronix.engine.io.SimulatedFileIO;
import io.chronix.engine.model.FieldType;
import io.chronix.engine.model.PointBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.zip.CRC32C;

import static io.chronix.engine.wal.WalFixtures.DIR;
import static io.chronix.engine.wal.WalFixtures.Replayed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The bytes are the contract: round trip, versions, bit flips, truncation at every offset. */
class WalFormatContractTest {

    private static final Path FIRST = DIR.resolve(WalFormat.fileName(1));

    static List<WalEntry> oneOfEachType() {
        PointBatch one = PointBatch.builder().beginPoint("cpu", 1_700_000_000_000_000_000L).tag("host", "a")
                .floatField("usage", 0.25).endPoint().build();
        PointBatch.Builder b = PointBatch.builder();
        for (int i = 0; i < 50; i++) {
            b.beginPoint("mem", 1_700_000_000_000_000_000L + i * 1_000_000L).tag("host", "h" + (i % 3)).tag("dc", "eu")
                    .integerField("used", i * 1000L).unsignedField("free", -1L).booleanField("ok", i % 2 == 0)
                    .stringField("note", "n" + i).endPoint();
        }
        TreeMap<String, String> tags = new TreeMap<>();
        tags.put("host", "a");
        return List.of(new WalEntry.Points(one), new WalEntry.Points(b.build()),
                new WalEntry.Schema(List.of(new WalEntry.FieldDeclaration("cpu", "usage", FieldType.FLOAT))),
                new WalEntry.Tombstone("cpu", tags, 10, 20));
    }

    @ParameterizedTest(name = "compression={0}")
    @ValueSource(booleans = {false, true})
    void everyRecordTypeRoundTripsThroughWriterAndReader(boolean compression) {
        SimulatedFileIO io = WalFixtures.simulated();
        WalConfig config = WalFixtures.config(io, FsyncPolicy.PER_WRITE).withCompression(compression);
        List<WalEntry> entries = oneOfEachType();
        try (WalWriter w = WalWriter.open(config, new WalMetrics())) {
            for (WalEntry e : entries) {
                w.appendDurable(e.recordType(), ByteBuffer.wrap(WalCodec.encode(e)));
            }
        }
        List<Replayed> back = WalFixtures.recover(config);
        assertThat(back).extracting(Replayed::type)
                .containsExactly(WalRecordType.DATA, WalRecordType.BATCH, WalRecordType.SCHEMA, WalRecordType.TOMBSTONE);
        assertThat(back).extracting(Replayed::sequence).containsExactly(1L, 2L, 3L, 4L);
        for (int i = 0; i < entries.size(); i++) {
            assertThat(WalCodec.decode(back.get(i).payload())).isEqualTo(entries.get(i));
        }
        if (compression) {
            List<Boolean> flags = new ArrayList<>();
            WalReader.scan(io, DIR, r -> flags.add(r.compressed()));
            assertThat(flags).as("the 50-point batch compresses").contains(true);
        }
    }

    @Test
    void fileStartsWithMagicAndVersionAndFramesAreLittleEndianAsSpecified() {
        SimulatedFileIO io = WalFixtures.simulated();
        try (WalWriter w = WalWriter.open(WalFixtures.config(io, FsyncPolicy.PER_WRITE), new WalMetrics())) {
            w.append(WalRecordType.SCHEMA, ByteBuffer.wrap(new byte[] {9, 8, 7}));
        }
        ByteBuffer f = ByteBuffer.wrap(io.contents(FIRST)).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(f.limit()).isEqualTo(6 + 18 + 3);
        assertThat(new byte[] {f.get(0), f.get(1), f.get(2), f.get(3)}).isEqualTo("CXWL".getBytes());
        assertThat(f.getShort(4)).isEqualTo((short) 1);
        int frame = 6;
        assertThat(f.getInt(frame + 4)).as("length").isEqualTo(3);
        assertThat(f.getLong(frame + 8)).as("sequence").isEqualTo(1L);
        assertThat(f.get(frame + 16)).as("record type").isEqualTo((byte) 2);
        assertThat(f.get(frame + 17)).as("payload version").isEqualTo((byte) 1);
        CRC32C crc = new CRC32C();
        crc.update(f.array(), frame + 4, 14 + 3);
        assertThat(f.getInt(frame)).as("CRC over length, sequence, type, payload version, payload").isEqualTo((int) crc.getValue());
    }

    @ParameterizedTest(name = "file version {0}")
    @ValueSource(ints = {0, 2, 0xFFFF})
    void fileOfAnotherVersionIsRefusedNamingBothVersions(int version) {
        SimulatedFileIO io = writeRecords(3);
        byte[] bytes = io.contents(FIRST);
        bytes[4] = (byte) version;
        bytes[5] = (byte) (version >>> 8);
        io.overwrite(FIRST, bytes);
        assertThatThrownBy(() -> WalWriter.open(WalFixtures.config(io, FsyncPolicy.PER_BATCH), new WalMetrics()))
                .isInstanceOfSatisfying(UnsupportedFormatVersionException.class, e -> {
                    assertThat(e.found()).isEqualTo(version);
                    assertThat(e.expected()).isEqualTo(1);
                    assertThat(e.path()).isEqualTo(FIRST);
                })
                .hasMessageContaining("found=" + version).hasMessageContaining("expected=1");
    }

    @ParameterizedTest(name = "payload version {0}")
    @ValueSource(ints = {0, 2})
    void recordOfAnotherPayloadVersionIsRefused(int version) {
        SimulatedFileIO io = writeRecords(3);
        byte[] bytes = io.contents(FIRST);
        int frame = WalFormat.HEADER_SIZE;
        bytes[frame + WalFormat.PAYLOAD_VERSION_OFFSET] = (byte) version;
        rewriteCrc(bytes, frame);
        io.overwrite(FIRST, bytes);
        assertThatThrownBy(() -> WalWriter.open(WalFixtures.config(io, FsyncPolicy.PER_BATCH), new WalMetrics()))
                .isInstanceOfSatisfying(UnsupportedFormatVersionException.class, e -> {
                    assertThat(e.found()).isEqualTo(version);
                    assertThat(e.expected()).isEqualTo(1);
                });
    }

    @Test
    void everySingleBitFlipInHeaderFrameAndPayloadIsDetected() {
        SimulatedFileIO io = writeRecords(3);
        byte[] clean = io.contents(FIRST);
        List<Replayed> all = WalFixtures.scan(io, DIR, new ArrayList<>());
        assertThat(all).hasSize(3);
        long[] frameStarts = frameStarts(clean);
        int flips = 0;
        for (int bit = 0; bit < clean.length * 8; bit++) {
            byte[] damaged = clean.clone();
            damaged[bit / 8] ^= (byte) (1 << (bit % 8));
            SimulatedFileIO copy = WalFixtures.simulated();
            copy.overwrite(FIRST, damaged);
            int at = bit / 8;
            if (at < WalFormat.HEADER_SIZE) {
                if (at < WalFormat.VERSION_OFFSET) {
                    WalReader.Scan scan = WalReader.scan(copy, DIR, r -> { });
                    assertThat(scan.damage()).as("magic bit %d", bit).isNotNull();
                    assertThat(scan.records()).isZero();
                } else {
                    assertThatThrownBy(() -> WalReader.scan(copy, DIR, r -> { }))
                            .as("version bit %d", bit).isInstanceOf(UnsupportedFormatVersionException.class);
                }
                flips++;
                continue;
            }
            int frame = 0;
            while (frame + 1 < frameStarts.length && frameStarts[frame + 1] <= at) {
                frame++;
            }
            List<Replayed> seen = new ArrayList<>();
            WalReader.Scan scan = WalReader.scan(copy, DIR, r -> seen.add(new Replayed(r.sequence(), r.type(), r.payloadBytes())));
            assertThat(scan.damage()).as("bit %d in frame %d", bit, frame).isNotNull();
            assertThat(scan.damage().offset()).as("damage located at the flipped frame").isEqualTo(frameStarts[frame]);
            assertThat(seen).as("only the intact frames before the flip, unaltered").isEqualTo(all.subList(0, frame));
            flips++;
        }
        assertThat(flips).isEqualTo(clean.length * 8);
    }

    @Test
    void truncationAtEveryOffsetOfTheLastRecordsRecoversExactlyTheIntactPrefix() {
        SimulatedFileIO io = writeRecords(4);
        byte[] clean = io.contents(FIRST);
        long[] starts = frameStarts(clean);
        List<Replayed> all = WalFixtures.scan(io, DIR, new ArrayList<>());
        int cuts = 0;
        for (int len = (int) starts[starts.length - 2]; len <= clean.length; len++) {
            SimulatedFileIO copy = WalFixtures.simulated();
            copy.overwrite(FIRST, java.util.Arrays.copyOf(clean, len));
            WalMetrics metrics = new WalMetrics();
            WalConfig config = WalFixtures.config(copy, FsyncPolicy.PER_WRITE);
            int intact = 0;
            while (intact < starts.length && frameEnd(starts, intact, clean.length) <= len) {
                intact++;
            }
            boolean atBoundary = len == WalFormat.HEADER_SIZE || (intact > 0 && frameEnd(starts, intact - 1, clean.length) == len);
            List<Replayed> back = new ArrayList<>();
            try (WalWriter w = WalWriter.open(config, metrics, 0, r -> back.add(new Replayed(r.sequence(), r.type(), r.payloadBytes())))) {
                assertThat(back).as("cut at %d", len).isEqualTo(all.subList(0, intact));
                assertThat(metrics.truncations()).as("a cut inside a record is reported").isEqualTo(atBoundary ? 0 : 1);
                long next = w.appendDurable(WalRecordType.DATA, WalFixtures.payload("after"));
                assertThat(next).as("no phantom sequence").isEqualTo(intact + 1);
            }
            List<Replayed> again = WalFixtures.recover(config);
            assertThat(again).hasSize(intact + 1);
            assertThat(again.getLast().sequence()).isEqualTo(intact + 1);
            cuts++;
        }
        assertThat(cuts).isGreaterThan(2 * WalFormat.FRAME_OVERHEAD);
    }

    @Test
    void foreignMagicIsRefusedAsCorruptionNamingFileAndOffset() {
        SimulatedFileIO io = writeRecords(1);
        byte[] bytes = io.contents(FIRST);
        bytes[0] = '{';
        io.overwrite(FIRST, bytes);
        assertThatThrownBy(() -> WalWriter.open(WalFixtures.config(io, FsyncPolicy.PER_BATCH), new WalMetrics()))
                .isInstanceOfSatisfying(CorruptFileException.class, e -> {
                    assertThat(e.path()).isEqualTo(FIRST);
                    assertThat(e.offset()).isZero();
                });
    }

    @Test
    void sequencesAreMonotonicAcrossFiles() {
        SimulatedFileIO io = WalFixtures.simulated();
        WalConfig config = WalFixtures.config(io, FsyncPolicy.PER_BATCH).withMaxFileSize(200);
        try (WalWriter w = WalWriter.open(config, new WalMetrics())) {
            for (int i = 0; i < 30; i++) {
                w.appendDurable(WalRecordType.DATA, WalFixtures.payload("record-" + i));
            }
            assertThat(w.fileCount()).isGreaterThan(3);
        }
        List<Replayed> back = WalFixtures.recover(config);
        assertThat(back).extracting(Replayed::sequence).containsExactlyElementsOf(
                java.util.stream.LongStream.rangeClosed(1, 30).boxed().toList());
        for (Path f : WalReader.walFiles(io, DIR)) {
            List<Long> seqs = new ArrayList<>();
            WalReader.scanFiles(io, List.of(f), 0, r -> seqs.add(r.sequence()));
            assertThat(seqs.getFirst()).as("a file is named after its first sequence")
                    .isEqualTo(WalFormat.startSequenceOf(f.getFileName().toString()));
        }
    }

    // ---------------------------------------------------------------- helpers

    static SimulatedFileIO writeRecords(int n) {
        SimulatedFileIO io = WalFixtures.simulated();
        try (WalWriter w = WalWriter.open(WalFixtures.config(io, FsyncPolicy.PER_WRITE), new WalMetrics())) {
            for (int i = 0; i < n; i++) {
                w.append(WalRecordType.ofCode(i % 4), WalFixtures.payload("payload number " + i + " " + "x".repeat(i)));
            }
        }
        return io;
    }

    static long[] frameStarts(byte[] file) {
        ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        List<Long> starts = new ArrayList<>();
        int at = WalFormat.HEADER_SIZE;
        while (at < file.length) {
            starts.add((long) at);
            at += WalFormat.FRAME_OVERHEAD + b.getInt(at + WalFormat.LENGTH_OFFSET);
        }
        return starts.stream().mapToLong(Long::longValue).toArray();
    }

    static long frameEnd(long[] starts, int i, int fileLength) {
        return i + 1 < starts.length ? starts[i + 1] : fileLength;
    }

    static void rewriteCrc(byte[] bytes, int frame) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int length = b.getInt(frame + WalFormat.LENGTH_OFFSET);
        CRC32C crc = new CRC32C();
        crc.update(bytes, frame + WalFormat.CRC_COVERAGE_OFFSET, WalFormat.FRAME_OVERHEAD - WalFormat.CRC_COVERAGE_OFFSET + length);
        b.putInt(frame + WalFormat.CRC_OFFSET, (int) crc.getValue());
    }
}
