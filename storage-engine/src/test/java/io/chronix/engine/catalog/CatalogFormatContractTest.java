package io.chronix.engine.catalog;

import io.chronix.engine.error.CorruptFileException;
import io.chronix.engine.error.UnsupportedFormatVersionException;
import io.chronix.engine.io.NioFileIO;
import io.chronix.engine.model.FieldType;
import io.chronix.engine.schema.Column;
import io.chronix.engine.schema.SchemaRegistry.CatalogDeclaration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

/** Format contract of {@code catalog/manifest.cxct}. */
class CatalogFormatContractTest {

    @TempDir
    Path dir;

    static SegmentEntry entry(long id, String measurement) {
        return new SegmentEntry(id, "shard_" + id + "/seg_5_" + id + ".csx", id, measurement, -10, 10 + id, 100, 3, 4096, 77 + id,
                List.of(new ColumnStats("host", Column.Kind.TAG, null, 1, "a", "z", false, 0, 0),
                        new ColumnStats("v", Column.Kind.FIELD, FieldType.FLOAT, 0, null, null, true, ColumnStats.orderedFloat(-1.5),
                                ColumnStats.orderedFloat(2.5))));
    }

    static TombstoneEntry tombstone(long id) {
        return new TombstoneEntry(id, "cpu", java.util.Map.of("host", "a", "dc", "eu-" + id), -5 - id, 7 + id, new long[] {3, 1});
    }

    static RollupEntry rollup(String name) {
        return new RollupEntry(name, "cpu", name + "_t", "15m", "Europe/Berlin", name.equals("r1") ? null : "2024-01-15T00:00", 0b1000011,
                Long.MIN_VALUE, new long[0]);
    }

    private Path write() {
        try (Catalog c = Catalog.open(NioFileIO.INSTANCE, dir)) {
            c.writeSettings(new CatalogFormat.Settings(3_600_000_000_000L));
            c.addSegments(List.of(entry(1, "cpu"), entry(2, "mem")));
            c.addDeclarations(List.of(new CatalogDeclaration("cpu", "host", null), new CatalogDeclaration("cpu", "v", FieldType.FLOAT)));
            c.addSegments(List.of(entry(3, "cpu")));
            c.addTombstones(List.of(tombstone(c.reserveTombstoneIds(2)), tombstone(2)));
            c.dropTombstones(List.of(1L));
            c.removeSegments(List.of(entry(2, "mem").file()));
            c.addSegments(List.of(entry(5, "cpu")));
            c.defineRollup(rollup("r1"));
            c.defineRollup(rollup("r2"));
            c.rollupState("r1", 900, new long[] {-100, 0, 100, 200});
            c.removeRollup("r2");
            c.rollupState("r1", 1200, new long[] {100, 200});
            // a compaction of segment 3 whose output id (4) was reserved before segment 5 was flushed
            c.replaceSegments(List.of(entry(3, "cpu").file()), List.of(entry(4, "cpu")));
        }
        return dir.resolve("catalog/manifest.cxct");
    }

    @Test
    void roundTripReplaysEveryRecordInOrder() {
        write();
        try (Catalog c = Catalog.open(NioFileIO.INSTANCE, dir)) {
            assertThat(c.settings().shardDurationNanos()).isEqualTo(3_600_000_000_000L);
            assertThat(c.segments()).as("by id, the replace's output before the later flush").containsExactly(entry(1, "cpu"),
                    entry(4, "cpu"), entry(5, "cpu"));
            assertThat(c.declarations()).containsExactly(new CatalogDeclaration("cpu", "host", null),
                    new CatalogDeclaration("cpu", "v", FieldType.FLOAT));
            assertThat(c.reserveIds(1)).isEqualTo(6);
            assertThat(c.tombstones()).containsExactly(tombstone(2));
            assertThat(c.tombstones().getFirst().segmentIds()).containsExactly(1, 3);
            assertThat(c.tombstones().getFirst().tags()).containsExactly(java.util.Map.entry("dc", "eu-2"), java.util.Map.entry("host", "a"));
            assertThat(c.reserveTombstoneIds(1)).isEqualTo(3);
            assertThat(c.rollups()).containsExactly(rollup("r1").withState(1200, new long[] {100, 200}));
        }
    }

    @Test
    void rollupStatesAReaderWouldRefuseAreNotWritten() {
        try (Catalog c = Catalog.open(NioFileIO.INSTANCE, dir)) {
            c.defineRollup(rollup("r1"));
            assertThatThrownBy(() -> c.rollupState("r1", 0, new long[] {0, 10, 5, 20})).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> c.rollupState("r1", 0, new long[] {10, 10})).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> c.rollupState("nope", 0, new long[0])).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void aRollupStateWithOverlappingRangesIsATypedError() throws Exception {
        Path f = write();
        byte[] good = Files.readAllBytes(f);
        ByteBuffer b = ByteBuffer.wrap(good).order(ByteOrder.LITTLE_ENDIAN);
        int pos = CatalogFormat.HEADER_SIZE;
        while (good[pos + CatalogFormat.TYPE_OFFSET] != CatalogFormat.TYPE_ROLLUP_STATE) {
            pos += CatalogFormat.FRAME_OVERHEAD + b.getInt(pos + CatalogFormat.LENGTH_OFFSET);
        }
        int length = b.getInt(pos + CatalogFormat.LENGTH_OFFSET);
        byte[] forged = RollupRecords.encodeState("r1", 900, new long[] {-100, 150, 100, 200});
        assertThat(forged.length).isEqualTo(length);
        byte[] bad = good.clone();
        System.arraycopy(forged, 0, bad, pos + CatalogFormat.FRAME_OVERHEAD, forged.length);
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(bad, pos + CatalogFormat.LENGTH_OFFSET, CatalogFormat.FRAME_OVERHEAD - CatalogFormat.LENGTH_OFFSET + length);
        ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN).putInt(pos + CatalogFormat.CRC_OFFSET, (int) crc.getValue());
        Files.write(f, bad);
        int at = pos;
        assertThatThrownBy(() -> Catalog.open(NioFileIO.INSTANCE, dir)).isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("not ascending and disjoint").hasMessageContaining("offset=" + at);
    }

    @Test
    void aTombstoneBodyWithUnorderedSegmentIdsIsATypedError() throws Exception {
        Path f = write();
        byte[] good = Files.readAllBytes(f);
        // find the TOMBSTONES record and swap the order of its first tombstone's two segment ids
        ByteBuffer b = ByteBuffer.wrap(good).order(ByteOrder.LITTLE_ENDIAN);
        int pos = CatalogFormat.HEADER_SIZE;
        while (good[pos + CatalogFormat.TYPE_OFFSET] != CatalogFormat.TYPE_TOMBSTONES) {
            pos += CatalogFormat.FRAME_OVERHEAD + b.getInt(pos + CatalogFormat.LENGTH_OFFSET);
        }
        int length = b.getInt(pos + CatalogFormat.LENGTH_OFFSET);
        byte[] bad = good.clone();
        // the same record with the first tombstone's two segment ids (which end its encoding) swapped, CRC made valid
        byte[] forged = CatalogFormat.encodeTombstones(List.of(tombstone(1), tombstone(2)));
        ByteBuffer fb = ByteBuffer.wrap(forged).order(ByteOrder.LITTLE_ENDIAN);
        int firstEnd = CatalogFormat.encodeTombstones(List.of(tombstone(1))).length;
        fb.putLong(firstEnd - 16, 3).putLong(firstEnd - 8, 1);
        assertThat(forged.length).isEqualTo(length);
        System.arraycopy(forged, 0, bad, pos + CatalogFormat.FRAME_OVERHEAD, forged.length);
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(bad, pos + CatalogFormat.LENGTH_OFFSET, CatalogFormat.FRAME_OVERHEAD - CatalogFormat.LENGTH_OFFSET + length);
        ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN).putInt(pos + CatalogFormat.CRC_OFFSET, (int) crc.getValue());
        Files.write(f, bad);
        int at = pos;
        assertThatThrownBy(() -> Catalog.open(NioFileIO.INSTANCE, dir)).isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("segment ids not strictly ascending").hasMessageContaining("offset=" + at);
    }

    @Test
    void doubleCloseIsHarmless() {
        Catalog c = Catalog.open(NioFileIO.INSTANCE, dir);
        c.close();
        c.close();
    }

    @Test
    void foreignVersionIsRefused() throws Exception {
        Path f = write();
        byte[] b = Files.readAllBytes(f);
        b[CatalogFormat.VERSION_OFFSET] = 2;
        Files.write(f, b);
        assertThatThrownBy(() -> Catalog.open(NioFileIO.INSTANCE, dir)).isInstanceOf(UnsupportedFormatVersionException.class)
                .hasMessageContaining("found=2").hasMessageContaining("expected=1");
    }

    @Test
    void aBitFlippedAnywhereBeforeTheLastRecordIsATypedError() throws Exception {
        Path f = write();
        byte[] good = Files.readAllBytes(f);
        int lastRecord = lastRecordOffset(good);
        int checked = 0;
        for (int i = 0; i < lastRecord; i++) {
            byte[] bad = good.clone();
            bad[i] ^= 0x10;
            Files.write(f, bad);
            try (Catalog c = Catalog.open(NioFileIO.INSTANCE, dir)) {
                fail("flip at " + i + " not detected");
            } catch (CorruptFileException | UnsupportedFormatVersionException expected) {
                checked++;
            }
        }
        assertThat(checked).isEqualTo(lastRecord);
    }

    @Test
    void damageInTheLastRecordIsATornTailThatIsCut() throws Exception {
        Path f = write();
        byte[] good = Files.readAllBytes(f);
        int lastRecord = lastRecordOffset(good);
        byte[] bad = good.clone();
        bad[good.length - 1] ^= 1;
        Files.write(f, bad);
        try (Catalog c = Catalog.open(NioFileIO.INSTANCE, dir)) {
            // the replace was the torn record: segment 3 stays, its output never joined
            assertThat(c.segments()).extracting(SegmentEntry::id).containsExactly(1L, 3L, 5L);
        }
        assertThat(Files.size(f)).isEqualTo(lastRecord);
    }

    @Test
    void aLastRecordWhoseHeaderAPowerLossGarbledIsATornTailThatIsCut() throws Exception {
        Path f = write();
        byte[] good = Files.readAllBytes(f);
        int lastRecord = lastRecordOffset(good);
        for (int i = lastRecord; i < lastRecord + CatalogFormat.FRAME_OVERHEAD; i++) {
            byte[] bad = good.clone();
            for (int j = i; j < bad.length; j++) {
                bad[j] = (byte) (31 * j + 7); // the unsynced bytes from here on are garbage
            }
            Files.write(f, bad);
            try (Catalog c = Catalog.open(NioFileIO.INSTANCE, dir)) {
                assertThat(c.segments()).as("garbled from byte %d of the last record", i - lastRecord).extracting(SegmentEntry::id)
                        .containsExactly(1L, 3L, 5L);
            }
            assertThat(Files.size(f)).isEqualTo(lastRecord);
        }
    }

    @Test
    void truncationAtEveryOffsetOpensAPrefixOrFailsTyped() throws Exception {
        Path f = write();
        byte[] good = Files.readAllBytes(f);
        for (int len = 0; len < good.length; len++) {
            Files.write(f, java.util.Arrays.copyOf(good, len));
            try (Catalog c = Catalog.open(NioFileIO.INSTANCE, dir)) {
                assertThat(c.segments().size()).isLessThanOrEqualTo(3);
                // and it accepts appends after the cut
                c.addSegments(List.of(entry(9, "x")));
            }
            try (Catalog c = Catalog.open(NioFileIO.INSTANCE, dir)) {
                assertThat(c.segments()).extracting(SegmentEntry::id).contains(9L);
            }
        }
    }

    private static int lastRecordOffset(byte[] file) {
        ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        int pos = CatalogFormat.HEADER_SIZE;
        int last = pos;
        while (pos < file.length) {
            last = pos;
            pos += CatalogFormat.FRAME_OVERHEAD + b.getInt(pos + CatalogFormat.LENGTH_OFFSET);
        }
        return last;
    }
}
