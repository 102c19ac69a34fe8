package io.chronix.engine.summary;

import io.chronix.engine.error.CorruptFileException;
import io.chronix.engine.error.UnsupportedFormatVersionException;
import io.chronix.engine.segment.SegmentColumns;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/** The {@code .summary} format: round trip, every byte checked, truncation, foreign version, a pinned fixture. */
class SummaryFormatContractTest {

    private static final Path PATH = Path.of("shard_1/seg_1_1.summary");

    /** Two parts (a series continues across them), NULLs, an absent tag, every summarised type, a boolean left out. */
    static SegmentSummary sample() {
        SegmentColumns p1 = SegmentColumns.builder("cpu", 3).time(new long[] {10, 20, 5})
                .tag("dc", new String[] {null, null, "eu"}).tag("host", new String[] {"a", "a", "a"})
                .floatField("f", new double[] {1.5, -2.25, 3}, new long[] {0b101})
                .integerField("i", new long[] {Long.MAX_VALUE, 1, -7}, null)
                .unsignedField("u", new long[] {-1L, 2, 3}, new long[] {0b011})
                .booleanField("b", new boolean[] {true, false, true}, null).build();
        SegmentColumns p2 = SegmentColumns.builder("cpu", 2).time(new long[] {6, 7})
                .tag("dc", new String[] {"eu", "eu"}).tag("host", new String[] {"a", "a"})
                .floatField("f", new double[] {4, 5}, null)
                .integerField("i", new long[] {Long.MAX_VALUE, Long.MAX_VALUE}, null)
                .unsignedField("u", new long[] {4, 5}, new long[] {0})
                .booleanField("b", new boolean[] {true, true}, null).build();
        return new SummaryBuilder().add(p1).add(p2).build(0x12345678);
    }

    @Test
    void aSummaryRoundTripsAndHoldsWhatItsRowsSay() {
        SegmentSummary s = sample();
        assertThat(s.fields()).extracting(SegmentSummary.Field::name).containsExactly("f", "i", "u");
        assertThat(s.series()).hasSize(2);
        SegmentSummary.Series noDc = s.series().get(0);
        assertThat(noDc.tagValues()).containsExactly(null, "a");
        assertThat(noDc.rows()).isEqualTo(2);
        FieldAggregate f = noDc.aggregates().get(0);
        assertThat(f.count()).isEqualTo(1); // validity 0b101: rows 0 and 2 of the part; row 2 is the next series
        assertThat(f.sum()).isEqualTo(1.5);
        SegmentSummary.Series eu = s.series().get(1);
        assertThat(eu.rows()).isEqualTo(3);
        assertThat(eu.minTime()).isEqualTo(5);
        assertThat(eu.maxTime()).isEqualTo(7);
        assertThat(eu.aggregates().get(1).exactSum()).isEqualTo(java.math.BigInteger.valueOf(Long.MAX_VALUE).multiply(
                java.math.BigInteger.TWO).subtract(java.math.BigInteger.valueOf(7)));
        assertThat(eu.aggregates().get(2).count()).isZero();
        assertThat(eu.aggregates().get(0).first()).isEqualTo(3.0);
        assertThat(eu.aggregates().get(0).last()).isEqualTo(5.0);
        SegmentSummary back = SummaryReader.decode(PATH, SummaryWriter.encode(s));
        assertThat(back.sameAs(s)).isTrue();
        assertThat(noDc.aggregates().get(2).max()).as("unsigned compares unsigned").isEqualTo(-1L);
    }

    @Test
    void aFlippedBitAnywhereIsATypedError() {
        byte[] good = SummaryWriter.encode(sample());
        for (int i = 0; i < good.length; i++) {
            for (int bit = 0; bit < 8; bit += 3) {
                byte[] bad = good.clone();
                bad[i] ^= (byte) (1 << bit);
                Throwable t = catchThrowable(() -> SummaryReader.decode(PATH, bad));
                assertThat(t).as("flip at byte " + i + " bit " + bit)
                        .isInstanceOfAny(CorruptFileException.class, UnsupportedFormatVersionException.class);
                if (t instanceof CorruptFileException c) {
                    assertThat(c.getMessage()).contains("path=" + PATH);
                }
            }
        }
    }

    @Test
    void truncationAtEveryOffsetIsATypedError() {
        byte[] good = SummaryWriter.encode(sample());
        for (int len = 0; len < good.length; len++) {
            byte[] cut = Arrays.copyOf(good, len);
            assertThatThrownBy(() -> SummaryReader.decode(PATH, cut)).as("cut at " + len).isInstanceOf(CorruptFileException.class);
        }
    }

    @Test
    void anotherVersionIsRefusedNamingBoth() throws Exception {
        byte[] b = SummaryWriter.encode(sample());
        b[SummaryFormat.VERSION_OFFSET] = 3;
        assertThatThrownBy(() -> SummaryReader.decode(PATH, b)).isInstanceOf(UnsupportedFormatVersionException.class)
                .hasMessageContaining("found=3").hasMessageContaining("expected=2");
        byte[] v1 = fixture("/summary-fixture-v1/sample.summary.hex");
        assertThatThrownBy(() -> SummaryReader.decode(PATH, v1)).as("the plain-bodied version 1")
                .isInstanceOf(UnsupportedFormatVersionException.class)
                .hasMessageContaining("found=1").hasMessageContaining("expected=2");
    }

    @Test
    void theBodyIsCompressedAndAFrameThatLiesAboutItsLengthIsRefused() {
        byte[] good = SummaryWriter.encode(sample());
        byte[] plain = plainBody(good);
        assertThat(good.length - SummaryFormat.HEADER_SIZE - SummaryFormat.FOOTER_SIZE - SummaryFormat.PLAIN_LENGTH_SIZE)
                .as("the sample is small, but repetitive enough to shrink").isLessThan(plain.length);
        for (int delta : new int[] {-1, 1, 1 << 20}) {
            byte[] bad = good.clone();
            java.nio.ByteBuffer.wrap(bad).order(java.nio.ByteOrder.LITTLE_ENDIAN)
                    .putInt(SummaryFormat.HEADER_SIZE, plain.length + delta);
            resealCrc(bad);
            assertThatThrownBy(() -> SummaryReader.decode(PATH, bad)).as("plain length off by " + delta)
                    .isInstanceOf(CorruptFileException.class).hasMessageContaining("path=" + PATH);
        }
        byte[] garbled = good.clone();
        garbled[SummaryFormat.HEADER_SIZE + SummaryFormat.PLAIN_LENGTH_SIZE + 1] ^= 0x5A;
        resealCrc(garbled);
        assertThatThrownBy(() -> SummaryReader.decode(PATH, garbled)).as("a damaged frame behind a valid CRC")
                .isInstanceOf(CorruptFileException.class);
    }

    @Test
    void theFixturePinsVersionTwo() throws Exception {
        byte[] expected = fixture("/summary-fixture-v2/sample.summary.hex");
        assertThat(SummaryReader.decode(PATH, expected).sameAs(sample())).isTrue();
        byte[] written = SummaryWriter.encode(sample());
        // the framing byte for byte, and the plain body byte for byte (the compressed bytes are the
        // compressor's business: another Zstandard build may choose another equally valid frame)
        assertThat(HexFormat.of().formatHex(Arrays.copyOf(written, SummaryFormat.HEADER_SIZE - 4)))
                .isEqualTo(HexFormat.of().formatHex(Arrays.copyOf(expected, SummaryFormat.HEADER_SIZE - 4)));
        assertThat(HexFormat.of().formatHex(plainBody(written))).isEqualTo(HexFormat.of().formatHex(plainBody(expected)));
    }

    private static byte[] fixture(String resource) throws Exception {
        try (InputStream in = SummaryFormatContractTest.class.getResourceAsStream(resource)) {
            assertThat(in).as("fixture " + resource + " present").isNotNull();
            return HexFormat.of().parseHex(new String(in.readAllBytes()).strip());
        }
    }

    private static byte[] plainBody(byte[] file) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(file).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        int plainLength = b.getInt(SummaryFormat.HEADER_SIZE);
        int packedAt = SummaryFormat.HEADER_SIZE + SummaryFormat.PLAIN_LENGTH_SIZE;
        return com.github.luben.zstd.Zstd.decompress(Arrays.copyOfRange(file, packedAt, file.length - SummaryFormat.FOOTER_SIZE), plainLength);
    }

    private static void resealCrc(byte[] file) {
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(file, 0, file.length - SummaryFormat.FOOTER_SIZE);
        java.nio.ByteBuffer.wrap(file).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(file.length - SummaryFormat.FOOTER_SIZE, (int) crc.getValue());
    }
}
