package io.chronix.engine.segment;

import io.chronix.engine.error.CorruptFileException;
import io.chronix.engine.error.UnsupportedFormatVersionException;
import io.chronix.engine.io.FileIO;
import io.chronix.engine.io.NioFileIO;
import io.chronix.engine.segment.encoding.Encodings;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import java.util.zip.CRC32C;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The bytes are the contract: every bit of a segment matters (a flip anywhere is a typed error),
 * every truncation is a typed error, a foreign version is refused, the fixture pins version 2 (what
 * the writer writes) and the version 1 fixture still reads.
 */
class SegmentFormatContractTest {

    static final Path FIXTURE = Path.of("src/test/resources/segment-fixture-v2/shard_0/seg_1_1.csx");
    /** Written by the version 1 writer from the same columns; read, never rewritten. */
    static final Path FIXTURE_V1 = Path.of("src/test/resources/segment-fixture-v1/shard_0/seg_1_1.csx");

    @TempDir
    Path dir;

    private final BufferAllocator allocator = new RootAllocator();
    private byte[] good;

    @BeforeEach
    void writeSmallSegment() throws IOException {
        SegmentFile file = SegmentFile.of(0, 1, 1);
        SegmentWriter.write(NioFileIO.INSTANCE, dir.resolve("tmp"), dir.resolve("segments"), file, fixtureColumns(),
                fixtureConfig(), 99);
        good = Files.readAllBytes(file.resolve(dir.resolve("segments")));
    }

    @AfterEach
    void closeAllocator() {
        allocator.close();
    }

    /** Small, deterministic, and touching every type, NULLs, several row groups and series. */
    static SegmentColumns fixtureColumns() {
        SegmentTestData d = new SegmentTestData(20_261_201L, 3, 12);
        return d.all();
    }

    static SegmentWriterConfig fixtureConfig() {
        return SegmentWriterConfig.defaults().withRowGroupRows(16);
    }

    /** Opens {@code bytes} as a segment and decodes every row group. */
    private void readEverything(byte[] bytes) {
        try (SegmentReader r = SegmentReader.open(new BytesFileIO(bytes), Path.of("mem.csx"))) {
            for (int g = 0; g < r.rowGroups().size(); g++) {
                try (VectorSchemaRoot ignored = r.readRowGroup(allocator, g, null)) {
                    // decoded
                }
            }
            r.seriesIndex();
        }
    }

    @Test
    void theSmallSegmentReadsBackWhole() {
        readEverything(good);
        assertThat(good.length).isGreaterThan(SegmentFormat.MIN_FILE_SIZE);
    }

    @Test
    void everySingleBitFlipIsATypedError() {
        TreeMap<String, Integer> byReason = new TreeMap<>();
        int flips = 0;
        for (int at = 0; at < good.length; at++) {
            for (int bit = 0; bit < 8; bit++) {
                byte[] bad = good.clone();
                bad[at] ^= (byte) (1 << bit);
                Throwable t = catchThrowable(() -> readEverything(bad));
                flips++;
                assertThat(t).as("flip of bit %d at offset %d of %d", bit, at, good.length)
                        .isInstanceOfAny(CorruptFileException.class, UnsupportedFormatVersionException.class);
                String key = t instanceof CorruptFileException c ? c.reason().replaceAll("\\[.*", "").trim() : "version";
                byReason.merge(key, 1, Integer::sum);
            }
        }
        assertThat(flips).isEqualTo(good.length * 8); // guard: the loop really ran over the file
        System.out.println("bit flips by reason: " + byReason);
    }

    @Test
    void truncationAtEveryOffsetIsATypedError() {
        for (int len = 0; len < good.length; len++) {
            byte[] cut = java.util.Arrays.copyOf(good, len);
            int l = len;
            assertThatThrownBy(() -> readEverything(cut)).as("truncated to %d of %d bytes", l, good.length)
                    .isInstanceOf(CorruptFileException.class);
        }
    }

    @Test
    void aBlockDamagedBehindAValidFileChecksumIsCaughtByItsBlockChecksum() {
        // flip a payload bit and re-seal the file CRC: only the per-block CRC can catch this
        SegmentMeta meta;
        try (SegmentReader r = SegmentReader.open(new BytesFileIO(good), Path.of("mem.csx"))) {
            meta = r.meta();
        }
        SegmentMeta.Block b = meta.rowGroups().get(1).blocks().get(meta.columnIndex("f"));
        byte[] bad = good.clone();
        bad[(int) b.offset() + b.storedLength() / 2] ^= 0x10;
        reseal(bad);
        try (SegmentReader r = SegmentReader.open(new BytesFileIO(bad), Path.of("mem.csx"))) {
            assertThat(r.readRowGroup(allocator, 0, null)).satisfies(VectorSchemaRoot::close); // other row groups are fine
            assertThatThrownBy(() -> r.readRowGroup(allocator, 1, List.of("f")))
                    .isInstanceOf(CorruptFileException.class)
                    .satisfies(e -> assertThat(((CorruptFileException) e).offset()).isEqualTo(b.offset()))
                    .hasMessageContaining("block checksum mismatch");
        }
    }

    @Test
    void foreignVersionsAreRefusedInBothDirections() {
        for (int version : new int[] {SegmentFormat.MIN_READ_VERSION - 1, SegmentFormat.VERSION + 1, 0xFFFF}) {
            byte[] other = good.clone();
            ByteBuffer.wrap(other).order(ByteOrder.LITTLE_ENDIAN).putShort(SegmentFormat.VERSION_OFFSET, (short) version);
            reseal(other); // a well-formed file of another version, not damage
            assertThatThrownBy(() -> readEverything(other))
                    .isInstanceOfSatisfying(UnsupportedFormatVersionException.class, e -> {
                        assertThat(e.found()).isEqualTo(version);
                        assertThat(e.expected()).isEqualTo(SegmentFormat.VERSION);
                    });
        }
    }

    @Test
    void anAlpRdBlockInAFileLabelledVersion1IsCorrupt() {
        SegmentMeta meta;
        try (SegmentReader r = SegmentReader.open(new BytesFileIO(good), Path.of("mem.csx"))) {
            meta = r.meta();
        }
        boolean alpRd = meta.rowGroups().stream().flatMap(g -> g.blocks().stream()).anyMatch(b -> b.encoding() == Encodings.ALP_RD);
        assertThat(alpRd).as("guard: the fixture holds an alp-rd block").isTrue();
        byte[] v1 = good.clone();
        ByteBuffer.wrap(v1).order(ByteOrder.LITTLE_ENDIAN).putShort(SegmentFormat.VERSION_OFFSET, (short) 1);
        reseal(v1);
        assertThatThrownBy(() -> readEverything(v1)).isInstanceOfSatisfying(CorruptFileException.class,
                e -> assertThat(e.reason()).contains("encoding alp-rd does not fit"));
    }

    @Test
    void fixtureForVersion1StillReadsWithEveryValue() {
        SegmentTestData d = new SegmentTestData(20_261_201L, 3, 12);
        try (SegmentReader r = SegmentReader.open(NioFileIO.INSTANCE, FIXTURE_V1)) {
            assertThat(r.header().version()).isEqualTo(1);
            int row = 0;
            for (int g = 0; g < r.rowGroups().size(); g++) {
                try (VectorSchemaRoot root = r.readRowGroup(allocator, g, List.of("time", "f"))) {
                    org.apache.arrow.vector.Float8Vector f = (org.apache.arrow.vector.Float8Vector) root.getVector("f");
                    for (int i = 0; i < root.getRowCount(); i++, row++) {
                        assertThat(((org.apache.arrow.vector.TimeStampNanoVector) root.getVector("time")).get(i)).isEqualTo(d.time[row]);
                        if (!f.isNull(i)) {
                            assertThat(Double.doubleToRawLongBits(f.get(i))).isEqualTo(Double.doubleToRawLongBits(d.f[row]));
                        }
                    }
                }
            }
            assertThat(row).isEqualTo(36);
        }
    }

    @Test
    void fixtureForVersion2IsWhatTheWriterStillWritesAndStillReads() throws IOException {
        if (Boolean.getBoolean("chronix.regenerateFixtures")) {
            Files.createDirectories(FIXTURE.getParent());
            Files.write(FIXTURE, good);
        }
        byte[] fixture = Files.readAllBytes(FIXTURE);
        assertThat(fixture).as("writer output changed: a format change needs a new VERSION and a new fixture").isEqualTo(good);
        try (SegmentReader r = SegmentReader.open(NioFileIO.INSTANCE, FIXTURE)) {
            assertThat(r.header().version()).isEqualTo(2);
            assertThat(r.header().maxWalSequence()).isEqualTo(99);
            assertThat(r.header().seriesCount()).isEqualTo(3);
            assertThat(r.header().rowCount()).isEqualTo(36);
            SegmentTestData d = new SegmentTestData(20_261_201L, 3, 12);
            try (VectorSchemaRoot root = r.readRowGroup(allocator, 0, List.of("time", "host", "s"))) {
                assertThat(((org.apache.arrow.vector.TimeStampNanoVector) root.getVector("time")).get(0)).isEqualTo(d.time[0]);
                assertThat(SegmentRoundTripTest.string((org.apache.arrow.vector.VarCharVector) root.getVector("host"), 0)).isEqualTo(d.host[0]);
            }
        }
    }

    static void reseal(byte[] file) {
        int footer = file.length - SegmentFormat.FOOTER_SIZE;
        CRC32C crc = new CRC32C();
        crc.update(file, 0, footer + SegmentFormat.FOOTER_CRC_COVERED);
        ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN).putInt(footer + SegmentFormat.FOOTER_CRC_OFFSET, (int) crc.getValue());
    }

    /** A read-only FileIO over one byte array, so thousands of damaged copies cost no disk. */
    static final class BytesFileIO implements FileIO {
        private final byte[] bytes;

        BytesFileIO(byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        public ReadableFile openRead(Path path) {
            return new ReadableFile() {
                @Override
                public int read(ByteBuffer dst, long position) {
                    if (position >= bytes.length) {
                        return -1;
                    }
                    int n = (int) Math.min(dst.remaining(), bytes.length - position);
                    dst.put(bytes, (int) position, n);
                    return n;
                }

                @Override
                public long size() {
                    return bytes.length;
                }

                @Override
                public void close() {
                }
            };
        }

        @Override
        public WritableFile create(Path path) {
            throw new UnsupportedOperationException();
        }

        @Override
        public WritableFile openAppend(Path path) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void truncate(Path path, long size) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void delete(Path path) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<Path> list(Path dir) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean exists(Path path) {
            return true;
        }

        @Override
        public long size(Path path) {
            return bytes.length;
        }

        @Override
        public void createDirectories(Path dir) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void syncDirectory(Path dir) {
            throw new UnsupportedOperationException();
        }
    }
}
