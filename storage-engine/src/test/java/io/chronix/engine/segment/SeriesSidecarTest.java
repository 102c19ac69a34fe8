package io.chronix.engine.segment;

import io.chronix.engine.error.CorruptFileException;
import io.chronix.engine.error.UnsupportedFormatVersionException;
import io.chronix.engine.io.NioFileIO;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

class SeriesSidecarTest {

    @TempDir
    Path dir;

    private final SegmentFile file = SegmentFile.of(4, 100, 2);
    private SeriesIndex written;

    private Path segments() {
        return dir.resolve("segments");
    }

    private Path tmp() {
        return dir.resolve("tmp");
    }

    @BeforeEach
    void writeSegment() {
        written = SegmentWriter.write(NioFileIO.INSTANCE, tmp(), segments(), file, new SegmentTestData(5, 9, 40).all(),
                SegmentWriterConfig.defaults().withRowGroupRows(50), 0).series();
    }

    @Test
    void sidecarHoldsTheSeriesKeysTheWriterSaw() {
        SeriesIndex read = SeriesReader.read(NioFileIO.INSTANCE, file.resolveSidecar(segments()));
        assertThat(read).isEqualTo(written);
        assertThat(read.tagNames()).containsExactly("host", "region");
        assertThat(read.series()).hasSize(9);
        assertThat(read.series().getFirst().canonical(read.measurement(), read.tagNames())).startsWith("cpu,host=host_0");
        assertThat(SeriesSidecar.loadOrRebuild(NioFileIO.INSTANCE, segments(), tmp(), file)).isEqualTo(written);
    }

    @Test
    void missingSidecarIsRebuiltFromTheSegment() throws IOException {
        Files.delete(file.resolveSidecar(segments()));
        assertThat(SeriesSidecar.loadOrRebuild(NioFileIO.INSTANCE, segments(), tmp(), file)).isEqualTo(written);
        assertThat(SeriesReader.read(NioFileIO.INSTANCE, file.resolveSidecar(segments()))).isEqualTo(written);
    }

    @Test
    void damagedSidecarIsRebuiltFromTheSegment() throws IOException {
        Path p = file.resolveSidecar(segments());
        byte[] bytes = Files.readAllBytes(p);
        bytes[bytes.length / 2] ^= 4;
        Files.write(p, bytes);
        assertThat(SeriesSidecar.loadOrRebuild(NioFileIO.INSTANCE, segments(), tmp(), file)).isEqualTo(written);
        assertThat(Files.readAllBytes(p)).isEqualTo(SeriesWriter.encode(written));
    }

    @Test
    void sidecarOfAnotherSegmentIsRebuilt() throws IOException {
        SeriesIndex stale = new SeriesIndex(written.segmentCrc() ^ 1, written.measurement(), written.tagNames(), written.series());
        Files.write(file.resolveSidecar(segments()), SeriesWriter.encode(stale));
        assertThat(SeriesSidecar.loadOrRebuild(NioFileIO.INSTANCE, segments(), tmp(), file)).isEqualTo(written);
    }

    @Test
    void everyBitFlipAndEveryTruncationOfASidecarIsATypedError() {
        byte[] good = SeriesWriter.encode(written);
        Path p = Path.of("x.series");
        for (int at = 0; at < good.length; at++) {
            for (int bit = 0; bit < 8; bit++) {
                byte[] bad = good.clone();
                bad[at] ^= (byte) (1 << bit);
                assertThat(catchThrowable(() -> SeriesReader.decode(p, bad))).as("flip at %d bit %d", at, bit)
                        .isInstanceOfAny(CorruptFileException.class, UnsupportedFormatVersionException.class);
            }
        }
        for (int len = 0; len < good.length; len++) {
            byte[] cut = Arrays.copyOf(good, len);
            assertThatThrownBy(() -> SeriesReader.decode(p, cut)).isInstanceOf(CorruptFileException.class);
        }
        assertThat(SeriesReader.decode(p, good)).isEqualTo(written);
    }

    @Test
    void aVersionOneSidecarIsUsedAsItIsAndAForeignVersionIsRebuilt() throws IOException {
        Path p = file.resolveSidecar(segments());
        byte[] plain = SeriesWriter.plainBody(written);
        java.nio.ByteBuffer v1 = java.nio.ByteBuffer.allocate(SeriesFormat.HEADER_SIZE + plain.length + SeriesFormat.TRAILER_SIZE)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN);
        v1.put(SeriesFormat.MAGIC).putShort((short) SeriesFormat.VERSION_PLAIN).putShort((short) 0)
                .putInt(written.segmentCrc()).putInt(plain.length).put(plain);
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(v1.array(), 0, v1.position());
        v1.putInt((int) crc.getValue());
        Files.write(p, v1.array());
        assertThat(SeriesSidecar.loadOrRebuild(NioFileIO.INSTANCE, segments(), tmp(), file)).isEqualTo(written);
        assertThat(Files.readAllBytes(p)).as("an intact version-1 sidecar is not rewritten").isEqualTo(v1.array());

        byte[] foreign = v1.array().clone();
        foreign[SeriesFormat.VERSION_OFFSET] = 9;
        Files.write(p, foreign);
        assertThat(SeriesSidecar.loadOrRebuild(NioFileIO.INSTANCE, segments(), tmp(), file)).isEqualTo(written);
        assertThat(Files.readAllBytes(p)).as("rebuilt in the current version").isEqualTo(SeriesWriter.encode(written));
    }

    @Test
    void damagedSegmentIsNotHiddenByTheSidecar() throws IOException {
        Path seg = file.resolve(segments());
        byte[] bytes = Files.readAllBytes(seg);
        bytes[100] ^= 1;
        Files.write(seg, bytes);
        assertThatThrownBy(() -> SeriesSidecar.loadOrRebuild(NioFileIO.INSTANCE, segments(), tmp(), file))
                .isInstanceOf(CorruptFileException.class);
    }
}
