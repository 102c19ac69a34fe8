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
    void anotherVersionIsRefusedNamingBoth() {
        byte[] b = SummaryWriter.encode(sample());
        b[SummaryFormat.VERSION_OFFSET] = 2;
        assertThatThrownBy(() -> SummaryReader.decode(PATH, b)).isInstanceOf(UnsupportedFormatVersionException.class)
                .hasMessageContaining("found=2").hasMessageContaining("expected=1");
    }

    @Test
    void theFixturePinsVersionOne() throws Exception {
        byte[] expected;
        try (InputStream in = getClass().getResourceAsStream("/summary-fixture-v1/sample.summary.hex")) {
            assertThat(in).as("fixture present").isNotNull();
            expected = HexFormat.of().parseHex(new String(in.readAllBytes()).strip());
        }
        assertThat(HexFormat.of().formatHex(SummaryWriter.encode(sample()))).isEqualTo(HexFormat.of().formatHex(expected));
        assertThat(SummaryReader.decode(PATH, expected).sameAs(sample())).isTrue();
    }
}
