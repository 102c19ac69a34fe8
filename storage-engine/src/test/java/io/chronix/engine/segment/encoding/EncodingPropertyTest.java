package io.chronix.engine.segment.encoding;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Seeded random round trips of every encoding, edge values mixed in, plus a bounded fuzz: damaged
 * encoded bytes must decode to something or throw {@link EncodingException} — never another
 * exception. Each test prints its seed; rerun one with {@code -Dchronix.seed=N}.
 */
class EncodingPropertyTest {

    private static final int ROUNDS = 300;
    private static final long[] LONG_EDGES = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE + 1, Long.MAX_VALUE - 1,
            1L << 62, -(1L << 62), Integer.MAX_VALUE, Integer.MIN_VALUE};
    private static final double[] DOUBLE_EDGES = {0.0, -0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
            Double.MIN_VALUE, -Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE, Double.MIN_NORMAL, 1.0, -1.0, 0.1,
            Double.longBitsToDouble(0x7ff8_0000_0000_0001L), Double.longBitsToDouble(0xfff0_0000_0000_0001L), 1e18, 1e-18, 123456789.125};

    private static long seed(String test) {
        long seed = Long.getLong("chronix.seed", System.nanoTime());
        System.out.println(test + " seed=" + seed);
        return seed;
    }

    private static int size(Random r) {
        return switch (r.nextInt(6)) {
            case 0 -> r.nextInt(3);
            case 1 -> 1 + r.nextInt(130);
            case 2 -> PatchedPacking.FRAME * (1 + r.nextInt(4)) + r.nextInt(2) - 1 + 1;
            default -> 1 + r.nextInt(3000);
        };
    }

    private static long[] longs(Random r, int n) {
        long[] v = new long[n];
        int mode = r.nextInt(6);
        long x = r.nextLong();
        long step = r.nextInt(5) == 0 ? r.nextLong() : r.nextInt(100_000);
        for (int i = 0; i < n; i++) {
            x = switch (mode) {
                case 0 -> r.nextLong();
                case 1 -> x + step;                                  // regular
                case 2 -> x + step + (r.nextInt(10) == 0 ? r.nextInt(2000) - 1000 : 0);
                case 3 -> r.nextInt(4) == 0 ? LONG_EDGES[r.nextInt(LONG_EDGES.length)] : x + r.nextInt(7) - 3;
                case 4 -> r.nextInt(100) == 0 ? r.nextLong() : x + 1;  // rare huge jumps (series boundaries)
                default -> r.nextInt(8) - 4;
            };
            v[i] = x;
        }
        return v;
    }

    private static double[] doubles(Random r, int n) {
        double[] v = new double[n];
        int mode = r.nextInt(5);
        double walk = r.nextDouble() * 100;
        for (int i = 0; i < n; i++) {
            walk += r.nextGaussian();
            v[i] = switch (mode) {
                case 0 -> walk;                                          // full precision: Gorilla territory
                case 1 -> Math.round(walk * 100) / 100.0;                // decimals: ALP territory
                case 2 -> Math.floor(walk);                              // integers as floats
                case 3 -> r.nextInt(5) == 0 ? DOUBLE_EDGES[r.nextInt(DOUBLE_EDGES.length)] : Math.round(walk * 10) / 10.0;
                default -> Double.longBitsToDouble(r.nextLong());        // any bit pattern, NaN payloads included
            };
        }
        return v;
    }

    @Test
    void deltaOfDeltaRoundTripsAnyLongs() {
        Random r = new Random(seed("deltaOfDelta"));
        BlockBuffer out = new BlockBuffer(16);
        for (int round = 0; round < ROUNDS; round++) {
            int n = size(r);
            long[] v = longs(r, n);
            out.reset();
            DeltaOfDelta.encode(v, 0, n, out, new long[n], new int[65]);
            long[] back = new long[n];
            int end = DeltaOfDelta.decode(padded(out), 0, out.size(), back, n);
            assertThat(end).isEqualTo(out.size());
            assertThat(back).isEqualTo(v);
        }
    }

    @Test
    void regularTimestampsCostAlmostNothing() {
        int n = 65_536;
        long[] t = new long[n];
        for (int i = 0; i < n; i++) {
            t[i] = 1_451_606_400_000_000_000L + 10_000_000_000L * i;
        }
        BlockBuffer out = new BlockBuffer(16);
        DeltaOfDelta.encode(t, 0, n, out, new long[n], new int[65]);
        assertThat(out.size()).isLessThan(n / 50); // two bytes per 128 values, plus the first value and delta
    }

    @Test
    void deltaZigzagRoundTripsAnyLongs() {
        Random r = new Random(seed("deltaZigzag"));
        BlockBuffer out = new BlockBuffer(16);
        for (int round = 0; round < ROUNDS; round++) {
            int n = size(r);
            long[] v = longs(r, n);
            out.reset();
            DeltaZigzag.encode(v, 0, n, out, new long[n], new int[65]);
            long[] back = new long[n + 3];
            int end = DeltaZigzag.decode(padded(out), 0, out.size(), back, 3, n);
            assertThat(end).isEqualTo(out.size());
            assertThat(Arrays.copyOfRange(back, 3, n + 3)).isEqualTo(v);
        }
    }

    @Test
    void patchedPackingRoundTripsEveryWidth() {
        Random r = new Random(seed("patchedPacking"));
        BlockBuffer out = new BlockBuffer(16);
        for (int w = 0; w <= 64; w++) {
            for (int round = 0; round < 5; round++) {
                int n = size(r);
                long[] v = new long[n];
                for (int i = 0; i < n; i++) {
                    v[i] = w == 0 ? 0 : r.nextLong() >>> (64 - w);
                    if (r.nextInt(50) == 0) {
                        v[i] = r.nextLong(); // exceptions
                    }
                }
                out.reset();
                PatchedPacking.encode(v, 0, n, out, new int[65]);
                long[] back = new long[n];
                assertThat(PatchedPacking.decode(padded(out), 0, out.size(), back, 0, n)).isEqualTo(out.size());
                assertThat(back).isEqualTo(v);
            }
        }
    }

    @Test
    void floatEncodingsRoundTripBitForBit() {
        Random r = new Random(seed("floats"));
        BlockBuffer out = new BlockBuffer(16);
        FloatEncoder[] encoders = {new FloatEncoder(FloatEncoder.Policy.AUTO), new FloatEncoder(FloatEncoder.Policy.GORILLA),
                new FloatEncoder(FloatEncoder.Policy.ALP)};
        for (int round = 0; round < ROUNDS; round++) {
            int n = size(r);
            double[] v = doubles(r, n);
            for (FloatEncoder e : encoders) {
                out.reset();
                int encoding = e.encode(v, 0, n, out);
                double[] back = new double[n];
                byte[] src = padded(out);
                int end = encoding == Encodings.ALP
                        ? Alp.decode(src, 0, out.size(), back, n, new long[n])
                        : Gorilla.decode(src, 0, out.size(), back, n);
                assertThat(end).isEqualTo(out.size());
                for (int i = 0; i < n; i++) {
                    if (Double.doubleToRawLongBits(back[i]) != Double.doubleToRawLongBits(v[i])) {
                        fail("value " + i + " of " + n + ": " + v[i] + " came back as " + back[i] + " via " + Encodings.name(encoding));
                    }
                }
            }
        }
    }

    @Test
    void alpTakesDecimalsAndWholeNumbers() {
        Random r = new Random(7);
        int n = 4096;
        double[] decimals = new double[n];
        double[] noise = new double[n];
        double walk = 50;
        for (int i = 0; i < n; i++) {
            walk += r.nextGaussian();
            decimals[i] = Math.round(walk * 10) / 10.0;
            noise[i] = walk;
        }
        FloatEncoder e = new FloatEncoder(FloatEncoder.Policy.AUTO);
        BlockBuffer out = new BlockBuffer(16);
        assertThat(e.encode(decimals, 0, n, out)).isEqualTo(Encodings.ALP);
        assertThat(out.size()).isLessThan(n * 2);
        double[] wholes = new double[n];
        for (int i = 0; i < n; i++) {
            wholes[i] = Math.floor(noise[i]);
        }
        out.reset();
        assertThat(e.encode(wholes, 0, n, out)).as("integer-valued floats").isEqualTo(Encodings.ALP);
        assertThat(out.size()).isLessThan(n);
    }

    @Test
    void dictionaryRoundTripsStringsWithNullsAndRuns() {
        Random r = new Random(seed("dictionary"));
        BlockBuffer out = new BlockBuffer(16);
        Dictionary.Encoder enc = new Dictionary.Encoder();
        Dictionary.Decoded dec = new Dictionary.Decoded();
        for (int round = 0; round < ROUNDS; round++) {
            int n = size(r);
            String[] v = new String[n];
            int distinct = 1 + r.nextInt(r.nextBoolean() ? 3 : 500);
            boolean runs = r.nextBoolean();
            for (int i = 0; i < n; i++) {
                if (runs && i > 0 && r.nextInt(50) != 0) {
                    v[i] = v[i - 1];
                } else {
                    v[i] = r.nextInt(10) == 0 ? null : (r.nextInt(20) == 0 ? "" : "v\u00e9" + r.nextInt(distinct));
                }
            }
            out.reset();
            enc.encode(v, 0, n, out);
            byte[] src = padded(out);
            assertThat(dec.decode(src, 0, out.size(), n)).isEqualTo(out.size());
            for (int i = 0; i < n; i++) {
                if (v[i] != null) {
                    assertThat(new String(src, dec.entryOffset[dec.codes[i]], dec.entryLength[dec.codes[i]], StandardCharsets.UTF_8))
                            .isEqualTo(v[i]);
                }
            }
        }
    }

    @Test
    void damagedBlocksFailWithEncodingExceptionOnly() {
        long seed = seed("fuzz");
        Random r = new Random(seed);
        BlockBuffer out = new BlockBuffer(16);
        Dictionary.Encoder denc = new Dictionary.Encoder();
        for (int round = 0; round < 2_000; round++) {
            int n = 1 + r.nextInt(600);
            int kind = r.nextInt(5);
            out.reset();
            switch (kind) {
                case 0 -> DeltaOfDelta.encode(longs(r, n), 0, n, out, new long[n], new int[65]);
                case 1 -> DeltaZigzag.encode(longs(r, n), 0, n, out, new long[n], new int[65]);
                case 2 -> Gorilla.encode(doubles(r, n), 0, n, out);
                case 3 -> {
                    double[] d = new double[n];
                    for (int i = 0; i < n; i++) {
                        d[i] = r.nextInt(1000) / 10.0;
                    }
                    new FloatEncoder(FloatEncoder.Policy.ALP).encode(d, 0, n, out);
                }
                default -> {
                    String[] s = new String[n];
                    for (int i = 0; i < n; i++) {
                        s[i] = "s" + r.nextInt(1 + r.nextInt(40));
                    }
                    denc.encode(s, 0, n, out);
                }
            }
            byte[] src = padded(out);
            int len = out.size();
            switch (r.nextInt(3)) {
                case 0 -> src[r.nextInt(len)] ^= (byte) (1 << r.nextInt(8));
                case 1 -> len = r.nextInt(len);
                default -> {
                    for (int k = 0; k < 4; k++) {
                        src[r.nextInt(len)] = (byte) r.nextInt();
                    }
                }
            }
            Arrays.fill(src, len, src.length, (byte) 0);
            try {
                switch (kind) {
                    case 0 -> DeltaOfDelta.decode(src, 0, len, new long[n], n);
                    case 1 -> DeltaZigzag.decode(src, 0, len, new long[n], 0, n);
                    case 2 -> Gorilla.decode(src, 0, len, new double[n], n);
                    case 3 -> Alp.decode(src, 0, len, new double[n], n, new long[n]);
                    default -> new Dictionary.Decoded().decode(src, 0, len, n);
                }
            } catch (EncodingException expected) {
                // the contract: damage is reported as such
            } catch (RuntimeException e) {
                throw new AssertionError("round " + round + " kind " + kind + " (seed " + seed + ") threw " + e, e);
            }
        }
    }

    private static byte[] padded(BlockBuffer out) {
        return Arrays.copyOf(out.array(), out.size() + Encodings.PAD);
    }
}
