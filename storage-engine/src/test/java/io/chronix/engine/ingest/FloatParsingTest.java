package io.chronix.engine.ingest;

import io.chronix.engine.model.PointBatch;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The parser's floats are bit for bit what {@link Double#parseDouble} makes of the same text: the
 * fast paths ({@link DecimalToDouble}) may only give up, never round differently. Seeded; {@code
 * -Dchronix.lp.seed=<n>} replays.
 */
class FloatParsingTest {

    /** Inputs that sit on the edges the fast paths decide: halfway points, range ends, 19–20 digits. */
    private static final List<String> EDGES = List.of(
            "0", "0.0", "-0.0", "1", "1.5", "9007199254740992", "9007199254740993", "9007199254740994",
            "9007199254740995", "18014398509481985", "9223372036854775807", "9223372036854775808",
            "18446744073709551615", "18446744073709551616", "99999999999999999999", "1.7976931348623157e308",
            "1.7976931348623158e308", "1.7976931348623159e308", "2.2250738585072011e-308", "2.2250738585072014e-308",
            "4.9e-324", "5e-324", "2.4703282292062327e-324", "1e-400", "1e23", "8.589973e9", "0.1", "0.3",
            "70.64912217637067", "14.073535798050063", "97.6596648325027", "1e22", "1e-22", "123456789012345678e-30",
            "7.2057594037927933e16", "2.98023223876953125e-8", "1448997445238699", "0.000000000000000000000000000001",
            "3.0517578125e-5", "1.00000000000000011102230246251565404236316680908203125",
            "1.00000000000000011102230246251565404236316680908203124", "4503599627370496.5", "4503599627370497.5",
            "1e308", "1e-308", "1e-323", "1e-324", "123e300", "9.999999999999999e22", ".5", "5.", "1E+10");

    @Test
    void edgeCasesMatchTheJdk() {
        assertAll(EDGES, 0);
    }

    @Test
    void randomDecimalsMatchTheJdk() {
        long seed = LineProtocolPropertyTest.seed();
        System.out.println("FloatParsingTest seed=" + seed);
        Random rnd = new Random(seed);
        List<String> batch = new ArrayList<>();
        for (int i = 0; i < 200_000; i++) {
            batch.add(switch (rnd.nextInt(4)) {
                // what printing a double gives: shortest round trip, 1–17 digits
                case 0 -> Double.toString(Double.longBitsToDouble(rnd.nextLong() & 0x7FEF_FFFF_FFFF_FFFFL)); // finite
                // metric-like values, 15–17 significant digits
                case 1 -> Double.toString(rnd.nextDouble() * Math.pow(10, rnd.nextInt(9) - 3));
                // arbitrary digit strings up to 21 digits with an exponent
                case 2 -> randomDigits(rnd, 1 + rnd.nextInt(21)) + "e" + (rnd.nextInt(700) - 350);
                // exact halfway points between neighbouring doubles, printed in full
                default -> halfway(rnd);
            });
            if (batch.size() == 1000) {
                assertAll(batch, seed);
                batch.clear();
            }
        }
        assertAll(batch, seed);
    }

    private static String randomDigits(Random rnd, int n) {
        StringBuilder sb = new StringBuilder(n + 1);
        for (int i = 0; i < n; i++) {
            sb.append((char) ('0' + rnd.nextInt(10)));
        }
        int dot = rnd.nextInt(n + 1);
        sb.insert(dot, '.');
        return sb.charAt(sb.length() - 1) == '.' && sb.length() == 1 ? "0" : sb.toString();
    }

    private static String halfway(Random rnd) {
        double d = Double.longBitsToDouble((rnd.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL) | 0x3000_0000_0000_0000L);
        BigDecimal mid = new BigDecimal(d).add(new BigDecimal(Math.nextUp(d))).divide(BigDecimal.TWO);
        return mid.toString();
    }

    /** Finite values parse to the JDK's bits; values the JDK makes infinite are refused as out of range. */
    private static void assertAll(List<String> all, long seed) {
        List<String> values = new ArrayList<>();
        LineProtocolParser parser = new LineProtocolParser();
        for (String v : all) {
            if (Double.isInfinite(Double.parseDouble(v))) {
                ParseResult r = parser.parse(("m f=" + v + " 1").getBytes(StandardCharsets.US_ASCII), Precision.NANOSECONDS, 0,
                        PointBatch.builder());
                assertThat(r.errors()).as("seed=%d value=%s", seed, v).singleElement()
                        .satisfies(e -> assertThat(e.message()).contains("float out of range"));
            } else {
                values.add(v);
            }
        }
        StringBuilder body = new StringBuilder();
        for (String v : values) {
            body.append("m f=").append(v.replace('E', 'e')).append(" 1\n");
        }
        PointBatch.Builder into = PointBatch.builder();
        ParseResult r = parser.parse(body.toString().getBytes(StandardCharsets.US_ASCII), Precision.NANOSECONDS, 0, into);
        assertThat(r.errors()).as("seed=%d", seed).isEmpty();
        PointBatch batch = into.build();
        for (int p = 0; p < values.size(); p++) {
            String v = values.get(p).replace('E', 'e');
            long expected = Double.doubleToRawLongBits(Double.parseDouble(v));
            assertThat(batch.fieldBits(p, 0)).as("seed=%d value=%s", seed, v).isEqualTo(expected);
        }
    }
}
