package io.chronix.engine.segment.encoding;

/**
 * Floats that are decimals in disguise (a sensor's {@code 23.5}, a price, a whole number stored as
 * float), by ALP (Afroozeh, Kuffó, Boncz, "ALP: Adaptive Lossless floating-Point Compression",
 * SIGMOD 2024): find exponents {@code e, f} (one of them 0) such that {@code n = round(v · 10^e / 10^f)}
 * gives back {@code v} bit for bit as {@code n · 10^f / 10^e}; store the integers (here by {@link
 * DeltaZigzag}) and the values that do not round-trip (NaN, ±Inf, -0.0, full-precision noise) as
 * exceptions.
 *
 * <p>Deviation from the paper: decoding <em>divides</em> by the exact power of ten instead of
 * multiplying by its inexact inverse. IEEE division is correctly rounded, so {@code 523 / 10.0} is
 * exactly the double nearest 52.3 — which {@code 523 * 0.1} is not — and a decimal series
 * round-trips with no exceptions at all instead of roughly a third of them.
 *
 * <pre>
 * block := e u8 | f u8 (at most one non-zero) | exceptions u32 LE | DeltaZigzag(n integers) | DeltaZigzag(exception positions) | exception value i64 LE*
 * </pre>
 * An exception's integer slot repeats the previous integer so it costs no delta bits. The choice of
 * {@code (e, f)} is made on a sample of the block, as the paper's first level; each value is then
 * verified exactly, so the choice can only cost size, never correctness.
 */
public final class Alp {

    static final int MAX_EXPONENT = 18;
    private static final double[] F10 = new double[MAX_EXPONENT + 1];
    private static final int SAMPLE = 64;

    static {
        for (int i = 0; i <= MAX_EXPONENT; i++) {
            F10[i] = Double.parseDouble("1e" + i);
        }
    }

    private Alp() {
    }

    /**
     * Encodes the block if at most a quarter of it are exceptions.
     *
     * @param ints scratch of at least {@code count} longs; {@code positions} at least {@code count}
     * @return false (and nothing written) when ALP does not suit this block
     */
    public static boolean encode(double[] values, int from, int count, BlockBuffer out, long[] ints, long[] positions,
                                 long[] scratch, int[] histogram) {
        if (count == 0) {
            return false;
        }
        int bestE = 0;
        int bestF = 0;
        int bestMiss = Integer.MAX_VALUE;
        int step = Math.max(1, count / SAMPLE);
        for (int e = 0; e <= MAX_EXPONENT; e++) {
            for (int f = 0; f <= MAX_EXPONENT; f++) {
                if (e != 0 && f != 0) {
                    continue;
                }
                int miss = 0;
                // evaluate fully while this candidate could still tie the best (a tie is broken below)
                for (int i = 0; i < count && miss <= bestMiss; i += step) {
                    if (!roundTrips(values[from + i], e, f)) {
                        miss++;
                    }
                }
                // fewer misses wins; on a tie the smaller e - f (smaller integers)
                if (miss < bestMiss || (miss == bestMiss && e - f < bestE - bestF)) {
                    bestMiss = miss;
                    bestE = e;
                    bestF = f;
                }
            }
        }
        int exceptions = 0;
        long prev = 0;
        for (int i = 0; i < count; i++) {
            double v = values[from + i];
            long n = Math.round(v * F10[bestE] / F10[bestF]);
            if (Double.doubleToRawLongBits((double) n * F10[bestF] / F10[bestE]) == Double.doubleToRawLongBits(v)) {
                ints[i] = n;
                prev = n;
            } else {
                ints[i] = prev;
                positions[exceptions++] = i;
            }
        }
        if (exceptions > count / 4) {
            return false;
        }
        out.putByte(bestE);
        out.putByte(bestF);
        out.putInt(exceptions);
        DeltaZigzag.encode(ints, 0, count, out, scratch, histogram);
        DeltaZigzag.encode(positions, 0, exceptions, out, scratch, histogram);
        for (int k = 0; k < exceptions; k++) {
            out.putLong(Double.doubleToRawLongBits(values[from + (int) positions[k]]));
        }
        return true;
    }

    private static void convert(long[] ints, double[] out, int from, int to, double a, double b, int e, int f) {
        if (e != 0) {
            for (int i = from; i < to; i++) {
                out[i] = (double) ints[i] / b;
            }
        } else if (f != 0) {
            for (int i = from; i < to; i++) {
                out[i] = (double) ints[i] * a;
            }
        } else {
            for (int i = from; i < to; i++) {
                out[i] = (double) ints[i];
            }
        }
    }

    private static boolean roundTrips(double v, int e, int f) {
        long n = Math.round(v * F10[e] / F10[f]);
        return Double.doubleToRawLongBits((double) n * F10[f] / F10[e]) == Double.doubleToRawLongBits(v);
    }

    /**
     * Decodes {@code count} values; {@code ints} is scratch of at least {@code count} longs.
     *
     * @return the position after the data
     */
    public static int decode(byte[] src, int pos, int end, double[] out, int count, long[] ints) {
        if (count == 0) {
            return pos;
        }
        Encodings.need(pos, 6, end, "alp header");
        int e = src[pos] & 0xFF;
        int f = src[pos + 1] & 0xFF;
        int exceptions = Encodings.getInt(src, pos + 2);
        pos += 6;
        if (e > MAX_EXPONENT || f > MAX_EXPONENT || (e != 0 && f != 0) || exceptions < 0 || exceptions > count) {
            throw new EncodingException("bad alp header [e=" + e + ", f=" + f + ", exceptions=" + exceptions + "]");
        }
        // frame by frame, so each frame's integers are converted while they are still in L1; the
        // conversion loops have no loop-carried state and vectorise. With e = 0 or f = 0 one of
        // the two factors is 1.0, and multiplying or dividing by 1.0 is exact, so skipping it
        // gives the same bits.
        pos = DeltaZigzag.first(src, pos, end, ints, 0);
        double a = F10[f];
        double b = F10[e];
        convert(ints, out, 0, 1, a, b, e, f);
        for (int from = 1; from < count; from += PatchedPacking.FRAME) {
            int n = Math.min(PatchedPacking.FRAME, count - from);
            int w = src[pos] & 0xFF;
            if (e == 0 && f == 0 && n == PatchedPacking.FRAME && w < 64 && pos <= end - 2 - 16 * w && src[pos + 1] == 0) {
                // integer-valued floats, a whole frame without exceptions: unpack, integrate and
                // convert in one pass, no integer array in between
                long v = ints[from - 1];
                if (w == 0) {
                    java.util.Arrays.fill(out, from, from + n, (double) v);
                } else {
                    v = BitUnpack.unpackDeltaToDouble64(w, src, pos + 2, out, from, v);
                    v = BitUnpack.unpackDeltaToDouble64(w, src, pos + 2 + 8 * w, out, from + 64, v);
                }
                ints[from + n - 1] = v;
                pos += 2 + 16 * w;
                continue;
            }
            pos = DeltaZigzag.frame(src, pos, end, ints, from, n);
            convert(ints, out, from, from + n, a, b, e, f);
        }
        if (exceptions > 0) {
            pos = DeltaZigzag.decode(src, pos, end, ints, 0, exceptions);
            Encodings.need(pos, exceptions * 8, end, "alp exceptions");
            for (int k = 0; k < exceptions; k++) {
                long p = ints[k];
                if (p < 0 || p >= count) {
                    throw new EncodingException("alp exception position out of range [position=" + p + "]");
                }
                out[(int) p] = Double.longBitsToDouble(Encodings.getLong(src, pos));
                pos += 8;
            }
        }
        return pos;
    }
}
