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
 * exception. Each test prints its seed; rerun one with {@code -Dchronix.test.seed=N}.
 */
class EncodingPropertyTest {

    private static final int ROUNDS = 300;
    private static final long[] LONG_EDGES = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE + 1, Long.MAX_VALUE - 1,
            1L << 62, -(1L << 62), Integer.MAX_VALUE, Integer.MIN_VALUE};
    private static final double[] DOUBLE_EDGES = {0.0, -0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
            Double.MIN_VALUE, -Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE, Double.MIN_NORMAL, 1.0, -1.0, 0.1,
            Double.longBitsToDouble(0x7ff8_0000_0000_0001L), Double.longBitsToDouble(0xfff0_0000_0000_0001L), 1e18, 1e-18, 123456789.125,
            Double.MIN_NORMAL / 3, -Double.MIN_VALUE * 12345, Double.longBitsToDouble(0x7ff4_0000_dead_beefL), Long.MAX_VALUE, Long.MIN_VALUE};

    private static long seed(String test) {
        long seed = Long.getLong("chronix.test.seed", System.nanoTime());
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
        int mode = r.nextInt(8);
        double walk = r.nextDouble() * 100;
        for (int i = 0; i < n; i++) {
            walk += r.nextGaussian();
            v[i] = switch (mode) {
                case 0 -> walk;                                          // full precision: Gorilla territory
                case 1 -> Math.round(walk * 100) / 100.0;                // decimals: ALP territory
                case 2 -> Math.floor(walk);                              // integers as floats
                case 3 -> r.nextInt(5) == 0 ? DOUBLE_EDGES[r.nextInt(DOUBLE_EDGES.length)] : Math.round(walk * 10) / 10.0;
                case 4 -> Double.longBitsToDouble(r.nextLong());         // any bit pattern, NaN payloads included
                case 5 -> r.nextInt(8) == 0 ? DOUBLE_EDGES[r.nextInt(DOUBLE_EDGES.length)] : walk; // full precision with edges
                case 6 -> i > 0 && r.nextInt(30) != 0 ? v[i - 1] : walk; // runs of one value
                default -> Math.scalb(walk, r.nextInt(80) - 40);         // many exponents: ALP-RD exceptions
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
        FloatEncoder[] encoders = new FloatEncoder[FloatEncoder.Policy.values().length];
        for (FloatEncoder.Policy p : FloatEncoder.Policy.values()) {
            encoders[p.ordinal()] = new FloatEncoder(p);
        }
        int[] used = new int[8];
        for (int round = 0; round < ROUNDS; round++) {
            int n = size(r);
            double[] v = doubles(r, n);
            for (FloatEncoder e : encoders) {
                out.reset();
                int encoding = e.encode(v, 0, n, out);
                used[encoding]++;
                double[] back = new double[n];
                assertThat(decodeFloats(encoding, padded(out), out.size(), back, n)).isEqualTo(out.size());
                for (int i = 0; i < n; i++) {
                    if (Double.doubleToRawLongBits(back[i]) != Double.doubleToRawLongBits(v[i])) {
                        fail("value " + i + " of " + n + ": " + v[i] + " came back as " + back[i] + " via " + Encodings.name(encoding));
                    }
                }
            }
        }
        // guard: every float encoding was exercised
        assertThat(used[Encodings.GORILLA]).isPositive();
        assertThat(used[Encodings.ALP]).isPositive();
        assertThat(used[Encodings.ALP_RD]).isPositive();
    }

    private static int decodeFloats(int encoding, byte[] src, int len, double[] out, int n) {
        return switch (encoding) {
            case Encodings.ALP -> Alp.decode(src, 0, len, out, n, new long[n]);
            case Encodings.ALP_RD -> AlpRd.decode(src, 0, len, out, n, new long[n]);
            case Encodings.GORILLA -> Gorilla.decode(src, 0, len, out, n);
            default -> throw new AssertionError("not a float encoding: " + encoding);
        };
    }

    @Test
    void alpRdRoundTripsEdgeValuesRunsAndRandomBits() {
        Random r = new Random(seed("alpRdEdges"));
        AlpRd.Encoder enc = new AlpRd.Encoder();
        BlockBuffer out = new BlockBuffer(16);
        int n = 3 * PatchedPacking.FRAME + 17;
        double[][] cases = new double[5][n];
        for (int i = 0; i < n; i++) {
            cases[0][i] = DOUBLE_EDGES[i % DOUBLE_EDGES.length];       // every edge, all over the exponent range
            cases[1][i] = Double.longBitsToDouble(r.nextLong());      // random bits: mostly exceptions
            cases[2][i] = -0.0;                                       // one run
            cases[3][i] = i % 64 < 32 ? Double.NaN : Double.longBitsToDouble(0xfff8_0000_0000_0000L | i); // NaN payloads
            cases[4][i] = i % 2 == 0 ? Double.MIN_VALUE * i : Double.MAX_VALUE / (i + 1); // subnormals and the top
        }
        for (double[] v : cases) {
            for (int count : new int[] {1, 2, 63, 64, 65, 128, 129, n}) {
                out.reset();
                assertThat(enc.encode(v, 0, count, out)).isTrue();
                double[] back = new double[count];
                assertThat(AlpRd.decode(padded(out), 0, out.size(), back, count, new long[count])).isEqualTo(out.size());
                for (int i = 0; i < count; i++) {
                    assertThat(Double.doubleToRawLongBits(back[i])).as("value %d of %d", i, count)
                            .isEqualTo(Double.doubleToRawLongBits(v[i]));
                }
            }
        }
    }

    @Test
    void fullPrecisionWalkGoesToAlpRdAndBeatsAlpAndGorilla() {
        Random r = new Random(11);
        int n = 8192;
        double[] walk = new double[n];
        double x = 50;
        for (int i = 0; i < n; i++) {
            x = Math.min(100, Math.max(0, x + r.nextGaussian()));
            walk[i] = x;
        }
        int[] sizes = new int[FloatEncoder.Policy.values().length];
        BlockBuffer out = new BlockBuffer(16);
        for (FloatEncoder.Policy p : FloatEncoder.Policy.values()) {
            out.reset();
            new FloatEncoder(p).encode(walk, 0, n, out);
            sizes[p.ordinal()] = out.size();
        }
        out.reset();
        assertThat(new FloatEncoder(FloatEncoder.Policy.AUTO).encode(walk, 0, n, out)).isEqualTo(Encodings.ALP_RD);
        assertThat(sizes[FloatEncoder.Policy.ALP_RD.ordinal()]).isLessThan(sizes[FloatEncoder.Policy.ALP.ordinal()])
                .isLessThan(sizes[FloatEncoder.Policy.GORILLA.ordinal()])
                .isLessThan(sizes[FloatEncoder.Policy.ALP_OR_GORILLA.ordinal()]);
    }

    @Test
    void alpRdTruncatedAtEveryOffsetIsAnEncodingError() {
        Random r = new Random(seed("alpRdTruncation"));
        double[] v = doubles(r, 300);
        v[7] = Math.scalb(1.0, -900); // at least one exception
        BlockBuffer out = new BlockBuffer(16);
        new AlpRd.Encoder().encode(v, 0, v.length, out);
        byte[] full = padded(out);
        for (int len = 0; len < out.size(); len++) {
            byte[] cut = Arrays.copyOf(full, len + Encodings.PAD);
            int l = len;
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> AlpRd.decode(cut, 0, l, new double[v.length], v.length, new long[v.length]))
                    .as("truncated to %d of %d", len, out.size()).isInstanceOf(EncodingException.class);
        }
    }

    @Test
    void alpRdRefusesImpossibleHeadersCodesAndExceptions() {
        int n = 200;
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = 1.0 + i / 1024.0;   // one left part at any cut of up to 12 bits
        }
        v[n - 1] = 1e300;              // one exception, the last value
        BlockBuffer out = new BlockBuffer(16);
        new AlpRd.Encoder().encode(v, 0, n, out);
        byte[] good = padded(out);
        int len = out.size();
        int leftBits = good[0];
        int size = good[1];
        assertThat(AlpRd.decode(good.clone(), 0, len, new double[n], n, new long[n])).isEqualTo(len);
        assertThat(Encodings.getInt(good, 2 + 2 * size)).as("one exception").isEqualTo(1);
        // left_bits 0 and 17, dictionary sizes 0 and 9
        for (int[] header : new int[][] {{0, size}, {AlpRd.MAX_LEFT_BITS + 1, size}, {leftBits, 0}, {leftBits, AlpRd.MAX_DICTIONARY + 1}}) {
            byte[] bad = good.clone();
            bad[0] = (byte) header[0];
            bad[1] = (byte) header[1];
            assertRefused(bad, len, n, "bad alp-rd header");
        }
        // a dictionary entry wider than the left part
        byte[] wide = good.clone();
        wide[2] = (byte) 0xFF;
        wide[3] = (byte) 0xFF;
        assertRefused(wide, len, n, leftBits < 16 ? "dictionary entry wider" : null);
        // more exceptions than values
        byte[] many = good.clone();
        BlockBuffer.INT.set(many, 2 + 2 * size, n + 1);
        assertRefused(many, len, n, "exception count");
        // the exception's left part, the block's last two bytes, wider than the cut allows
        if (leftBits < 16) {
            byte[] exc = good.clone();
            exc[len - 2] = (byte) 0xFF;
            exc[len - 1] = (byte) 0xFF;
            assertRefused(exc, len, n, "exception wider");
        }
        // a code frame (width 0 for one-entry dictionaries) turned into a frame of codes outside the dictionary:
        // the first codes frame header follows the exception count
        int codes = 2 + 2 * size + 4;
        assertThat(size).as("one left part (and the exception)").isEqualTo(1);
        assertThat(good[codes]).as("a one-entry dictionary packs its codes in zero bits").isEqualTo((byte) 0);
        {
            byte[] code = good.clone();
            code[codes + 1] = 1;   // one exception in the codes frame: index 0, high bits 1 -> code 1
            byte[] shifted = new byte[good.length + 2];
            System.arraycopy(code, 0, shifted, 0, codes + 2);
            shifted[codes + 2] = 0;
            shifted[codes + 3] = 1;
            System.arraycopy(code, codes + 2, shifted, codes + 4, good.length - codes - 2);
            assertRefused(shifted, len + 2, n, "code outside the dictionary");
        }
    }

    private static void assertRefused(byte[] bad, int len, int n, String reason) {
        var thrown = org.assertj.core.api.Assertions.assertThatThrownBy(() -> AlpRd.decode(bad, 0, len, new double[n], n, new long[n]))
                .isInstanceOf(EncodingException.class);
        if (reason != null) {
            thrown.hasMessageContaining(reason);
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
            int kind = r.nextInt(6);
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
                case 4 -> new AlpRd.Encoder().encode(doubles(r, n), 0, n, out);
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
                    case 4 -> AlpRd.decode(src, 0, len, new double[n], n, new long[n]);
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
