package io.chronix.engine.segment;

import com.github.luben.zstd.Zstd;
import io.chronix.engine.error.CorruptFileException;
import io.chronix.engine.error.UnsupportedFormatVersionException;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.CRC32C;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The {@code .series} format ({@code docs/format/series.md}): round trip, every bit flip and every
 * truncation a typed error, a foreign version refused naming both, version 1 still read, and pinned
 * fixtures of both versions.
 */
class SeriesFormatContractTest {

    private static final Path PATH = Path.of("shard_1/seg_1_1.series");

    /** An absent tag, a multi-byte UTF-8 value, negative and extreme times. */
    static SeriesIndex sample() {
        return new SeriesIndex(0x12345678, "cpu", List.of("region", "host"), List.of(
                new SeriesIndex.Key(Arrays.asList(null, "h0"), 0, 3, 10, 30),
                new SeriesIndex.Key(Arrays.asList("eu-west", "h0"), 3, 2, -5, 7),
                new SeriesIndex.Key(Arrays.asList("eu-west", "h\u00e9\u4e2d"), 5, 1, Long.MIN_VALUE, Long.MAX_VALUE)));
    }

    /** Many series that share most tag values, as TSBS hosts do: what the compression is for. */
    static SeriesIndex hosts(int n) {
        List<SeriesIndex.Key> keys = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            keys.add(new SeriesIndex.Key(List.of("x86", "eu-central-1", "team_" + (i % 4), "host_" + i),
                    i * 360L, 360, 1_700_000_000_000_000_000L, 1_700_000_003_590_000_000L));
        }
        return new SeriesIndex(7, "cpu", List.of("arch", "region", "team", "hostname"), keys);
    }

    @Test
    void aSidecarRoundTripsAndIsSmallerThanItsPlainBody() {
        for (SeriesIndex s : List.of(sample(), hosts(100), new SeriesIndex(0, "m", List.of(), List.of()))) {
            byte[] file = SeriesWriter.encode(s);
            assertThat(SeriesReader.decode(PATH, file)).isEqualTo(s);
            assertThat(Short.toUnsignedInt(ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN)
                    .getShort(SeriesFormat.VERSION_OFFSET))).isEqualTo(SeriesFormat.VERSION);
            assertThat(plainBody(file)).isEqualTo(SeriesWriter.plainBody(s));
        }
        byte[] plain = SeriesWriter.plainBody(hosts(100));
        byte[] file = SeriesWriter.encode(hosts(100));
        assertThat(file.length).as("100 host-like series compress at least 4x").isLessThan(plain.length / 4);
    }

    @Test
    void aFlippedBitAnywhereIsATypedError() {
        byte[] good = SeriesWriter.encode(sample());
        for (int at = 0; at < good.length; at++) {
            for (int bit = 0; bit < 8; bit++) {
                byte[] bad = good.clone();
                bad[at] ^= (byte) (1 << bit);
                Throwable t = catchThrowable(() -> SeriesReader.decode(PATH, bad));
                assertThat(t).as("flip at %d bit %d", at, bit)
                        .isInstanceOfAny(CorruptFileException.class, UnsupportedFormatVersionException.class);
                assertThat(t.getMessage()).contains(PATH.toString());
            }
        }
    }

    @Test
    void truncationAtEveryOffsetIsATypedError() {
        for (byte[] good : new byte[][] {SeriesWriter.encode(sample()), SeriesWriter.encode(hosts(20))}) {
            for (int len = 0; len < good.length; len++) {
                byte[] cut = Arrays.copyOf(good, len);
                assertThatThrownBy(() -> SeriesReader.decode(PATH, cut)).as("cut at %d", len)
                        .isInstanceOf(CorruptFileException.class);
            }
        }
    }

    @Test
    void aForeignVersionIsRefusedNamingBoth() {
        for (int version : new int[] {0, 3, 0xFFFF}) {
            byte[] b = SeriesWriter.encode(sample());
            ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putShort(SeriesFormat.VERSION_OFFSET, (short) version);
            resealCrc(b);
            assertThatThrownBy(() -> SeriesReader.decode(PATH, b)).as("version %d", version)
                    .isInstanceOf(UnsupportedFormatVersionException.class)
                    .hasMessageContaining("found=" + version).hasMessageContaining("expected=" + SeriesFormat.VERSION);
        }
    }

    @Test
    void aFrameThatLiesAboutItsLengthOrIsDamagedBehindAValidCrcIsRefused() {
        byte[] good = SeriesWriter.encode(hosts(10));
        int plainLength = SeriesWriter.plainBody(hosts(10)).length;
        for (int lie : new int[] {plainLength - 1, plainLength + 1, -1, SeriesFormat.MAX_BODY_LENGTH + 1}) {
            byte[] bad = good.clone();
            ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN).putInt(SeriesFormat.HEADER_SIZE, lie);
            resealCrc(bad);
            assertThatThrownBy(() -> SeriesReader.decode(PATH, bad)).as("plain length %d", lie)
                    .isInstanceOf(CorruptFileException.class).hasMessageContaining(PATH.toString());
        }
        byte[] garbled = good.clone();
        garbled[SeriesFormat.HEADER_SIZE + SeriesFormat.PLAIN_LENGTH_SIZE + 1] ^= 0x5A;
        resealCrc(garbled);
        assertThatThrownBy(() -> SeriesReader.decode(PATH, garbled)).isInstanceOf(CorruptFileException.class);
        byte[] noFrame = Arrays.copyOf(good, SeriesFormat.HEADER_SIZE + 2 + SeriesFormat.TRAILER_SIZE);
        ByteBuffer.wrap(noFrame).order(ByteOrder.LITTLE_ENDIAN).putInt(SeriesFormat.BODY_LENGTH_OFFSET, 2);
        resealCrc(noFrame);
        assertThatThrownBy(() -> SeriesReader.decode(PATH, noFrame)).as("a body shorter than its plain length field")
                .isInstanceOf(CorruptFileException.class).hasMessageContaining("plain length");
    }

    @Test
    void aPlainBodyThatIsWrongInsideAValidFrameIsRefused() {
        byte[] plain = SeriesWriter.plainBody(sample());
        // a series count far beyond what the body holds, and a byte after the last series
        byte[] bigCount = plain.clone();
        int countAt = 2 + 3 + 2 + 2 + 6 + 2 + 4;
        ByteBuffer.wrap(bigCount).order(ByteOrder.LITTLE_ENDIAN).putInt(countAt, 1_000_000);
        byte[] trailing = Arrays.copyOf(plain, plain.length + 1);
        for (byte[] body : List.of(bigCount, trailing)) {
            byte[] file = withPlainBody(SeriesWriter.encode(sample()), body);
            assertThatThrownBy(() -> SeriesReader.decode(PATH, file)).isInstanceOf(CorruptFileException.class);
        }
    }

    @Test
    void versionOneIsStillReadAndPinnedByItsFixture() throws Exception {
        byte[] v1 = fixture("/series-fixture-v1/sample.series.hex");
        assertThat(v1[SeriesFormat.VERSION_OFFSET]).isEqualTo((byte) SeriesFormat.VERSION_PLAIN);
        assertThat(SeriesReader.decode(PATH, v1)).isEqualTo(sample());
        // version 1's body is the plain body stored as it is: the same bytes version 2 compresses
        assertThat(HexFormat.of().formatHex(Arrays.copyOfRange(v1, SeriesFormat.HEADER_SIZE, v1.length - SeriesFormat.TRAILER_SIZE)))
                .isEqualTo(HexFormat.of().formatHex(SeriesWriter.plainBody(sample())));
        for (int len = 0; len < v1.length; len++) {
            byte[] cut = Arrays.copyOf(v1, len);
            assertThatThrownBy(() -> SeriesReader.decode(PATH, cut)).isInstanceOf(CorruptFileException.class);
        }
        for (int at = 0; at < v1.length; at++) {
            byte[] bad = v1.clone();
            bad[at] ^= 0x10;
            assertThat(catchThrowable(() -> SeriesReader.decode(PATH, bad))).as("v1 flip at %d", at)
                    .isInstanceOfAny(CorruptFileException.class, UnsupportedFormatVersionException.class);
        }
    }

    @Test
    void theFixturePinsVersionTwo() throws Exception {
        byte[] expected = fixture("/series-fixture-v2/sample.series.hex");
        assertThat(SeriesReader.decode(PATH, expected)).isEqualTo(sample());
        byte[] written = SeriesWriter.encode(sample());
        // magic, version, reserved and segment CRC byte for byte, then the plain body byte for byte;
        // the compressed frame is the compressor's business (another Zstandard build may choose
        // another valid frame), so the body length and the CRC may differ with it
        assertThat(HexFormat.of().formatHex(Arrays.copyOf(written, SeriesFormat.BODY_LENGTH_OFFSET)))
                .isEqualTo(HexFormat.of().formatHex(Arrays.copyOf(expected, SeriesFormat.BODY_LENGTH_OFFSET)));
        assertThat(HexFormat.of().formatHex(plainBody(written))).isEqualTo(HexFormat.of().formatHex(plainBody(expected)));
    }

    private static byte[] fixture(String resource) throws Exception {
        try (InputStream in = SeriesFormatContractTest.class.getResourceAsStream(resource)) {
            assertThat(in).as("fixture " + resource + " present").isNotNull();
            return HexFormat.of().parseHex(new String(in.readAllBytes()).strip());
        }
    }

    private static byte[] plainBody(byte[] file) {
        int plainLength = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN).getInt(SeriesFormat.HEADER_SIZE);
        int packedAt = SeriesFormat.HEADER_SIZE + SeriesFormat.PLAIN_LENGTH_SIZE;
        return Zstd.decompress(Arrays.copyOfRange(file, packedAt, file.length - SeriesFormat.TRAILER_SIZE), plainLength);
    }

    /** A version-2 file with {@code plain} compressed as its body, framed and sealed as the writer does. */
    private static byte[] withPlainBody(byte[] header, byte[] plain) {
        byte[] packed = Zstd.compress(plain, SeriesFormat.ZSTD_LEVEL);
        ByteBuffer out = ByteBuffer.allocate(SeriesFormat.HEADER_SIZE + SeriesFormat.PLAIN_LENGTH_SIZE + packed.length
                + SeriesFormat.TRAILER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        out.put(header, 0, SeriesFormat.BODY_LENGTH_OFFSET);
        out.putInt(SeriesFormat.PLAIN_LENGTH_SIZE + packed.length);
        out.putInt(plain.length);
        out.put(packed);
        byte[] file = out.array();
        resealCrc(file);
        return file;
    }

    private static void resealCrc(byte[] file) {
        CRC32C crc = new CRC32C();
        crc.update(file, 0, file.length - SeriesFormat.TRAILER_SIZE);
        ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN).putInt(file.length - SeriesFormat.TRAILER_SIZE, (int) crc.getValue());
    }
}
