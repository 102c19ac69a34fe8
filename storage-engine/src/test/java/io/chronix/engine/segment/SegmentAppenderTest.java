package io.chronix.engine.segment;

import io.chronix.engine.io.NioFileIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32C;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The streaming appender (compaction's output path) and the CRC combination it relies on. */
class SegmentAppenderTest {

    @TempDir
    Path dir;

    @Test
    void combinedCrcEqualsTheCrcOfTheConcatenation() {
        Random r = new Random(7);
        for (int round = 0; round < 200; round++) {
            byte[] a = new byte[r.nextInt(300)];
            byte[] b = new byte[r.nextInt(round < 100 ? 300 : 200_000)];
            r.nextBytes(a);
            r.nextBytes(b);
            CRC32C ca = new CRC32C();
            ca.update(a);
            CRC32C cb = new CRC32C();
            cb.update(b);
            CRC32C all = new CRC32C();
            all.update(a);
            all.update(b);
            assertThat(Crc32cCombine.combine(ca.getValue(), cb.getValue(), b.length)).as("round %d", round).isEqualTo(all.getValue());
        }
    }

    @Test
    void partsAppendedOneByOneWriteTheSameBytesAsOneWrite() throws Exception {
        SegmentTestData data = new SegmentTestData(11, 40, 57);
        SegmentWriterConfig config = SegmentWriterConfig.defaults().withRowGroupRows(100);
        Path tmp = dir.resolve("tmp");
        Path whole = dir.resolve("whole");
        Path streamed = dir.resolve("streamed");
        SegmentFile file = SegmentFile.of(3, 1, 1);
        SegmentWriter.write(NioFileIO.INSTANCE, tmp, whole, file, List.of(data.part(0, 700), data.part(700, data.rows)), config, 9);
        SegmentWriter.Written w;
        try (SegmentWriter.Appender a = SegmentWriter.open(NioFileIO.INSTANCE, tmp, streamed, file, config, 9)) {
            for (int from = 0; from < data.rows; from += 100) {
                a.append(data.part(from, Math.min(data.rows, from + 100)));
            }
            assertThat(a.rows()).isEqualTo(data.rows);
            w = a.finish();
        }
        assertThat(Files.readAllBytes(file.resolve(streamed))).isEqualTo(Files.readAllBytes(file.resolve(whole)));
        assertThat(w.series().series()).hasSize(40);
        try (SegmentReader r = SegmentReader.open(NioFileIO.INSTANCE, file.resolve(streamed), false)) {
            assertThat(r.header().rowCount()).isEqualTo(data.rows);
            assertThat(r.header().seriesCount()).isEqualTo(40);
        }
    }

    @Test
    void anAbandonedAppenderPublishesNothingAndLeavesNoTemporaryFile() throws Exception {
        SegmentTestData data = new SegmentTestData(12, 5, 10);
        Path tmp = dir.resolve("tmp");
        Path segments = dir.resolve("segments");
        SegmentFile file = SegmentFile.of(0, 1, 2);
        try (SegmentWriter.Appender a = SegmentWriter.open(NioFileIO.INSTANCE, tmp, segments, file, SegmentWriterConfig.defaults(), 0)) {
            a.append(data.part(0, 20));
        }
        assertThat(Files.exists(file.resolve(segments))).isFalse();
        try (var s = Files.list(tmp)) {
            assertThat(s.toList()).isEmpty();
        }
        try (SegmentWriter.Appender a = SegmentWriter.open(NioFileIO.INSTANCE, tmp, segments, file, SegmentWriterConfig.defaults(), 0)) {
            a.append(data.part(20, 30));
            assertThatThrownBy(() -> a.append(data.part(0, 10))).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("out of order");
        }
        assertThat(Files.exists(file.resolve(segments))).isFalse();
    }
}
