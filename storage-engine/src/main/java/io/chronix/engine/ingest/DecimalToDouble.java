package io.chronix.engine.ingest;

import java.math.BigInteger;

/**
 * Decimal significand × 10<sup>exponent</sup> to the nearest double, without a String: Clinger's
 * exact fast path, then the Eisel–Lemire algorithm (D. Lemire, "Number Parsing at a Gigabyte per
 * Second", 2021; the conservative form Go's {@code strconv} uses), which answers almost every input
 * with two 64×64-bit multiplications and gives up — never guesses — on the rare inputs too close to
 * a halfway point to decide from a 128-bit approximation. The caller then asks {@link
 * Double#parseDouble}, which is always right and about ten times slower.
 *
 * <p>Why: TSBS and most metrics agents print doubles with 16–17 significant digits, which is past
 * Clinger's 2<sup>53</sup> limit, so without this nearly every float of a request took the String
 * path.
 *
 * <p>Threading: stateless; the table is built once at class initialisation.
 */
final class DecimalToDouble {

    /** Smallest and largest decimal exponent the table covers. */
    static final int MIN_EXP10 = -348;
    static final int MAX_EXP10 = 347;

    private static final double[] POW10 = new double[23];

    /**
     * For each e in [MIN_EXP10, MAX_EXP10], the 128-bit significand of 10<sup>e</sup>, normalised so
     * that bit 127 is set and rounded down: {@code [2i]} the high 64 bits, {@code [2i + 1]} the low.
     */
    private static final long[] POW10_128 = new long[2 * (MAX_EXP10 - MIN_EXP10 + 1)];

    static {
        double p = 1;
        for (int i = 0; i < POW10.length; i++) {
            POW10[i] = p;
            p *= 10;
        }
        BigInteger mask64 = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
        for (int e = MIN_EXP10; e <= MAX_EXP10; e++) {
            BigInteger m;
            if (e >= 0) {
                BigInteger v = BigInteger.TEN.pow(e);
                int shift = 128 - v.bitLength();
                m = shift >= 0 ? v.shiftLeft(shift) : v.shiftRight(-shift);
            } else {
                BigInteger d = BigInteger.TEN.pow(-e);
                // 2^(127 + bits(d)) / d lies in (2^127, 2^128): d is not a power of two
                m = BigInteger.ONE.shiftLeft(127 + d.bitLength()).divide(d);
            }
            int i = 2 * (e - MIN_EXP10);
            POW10_128[i] = m.shiftRight(64).longValue();
            POW10_128[i + 1] = m.and(mask64).longValue();
        }
    }

    private DecimalToDouble() {
    }

    /**
     * The double nearest to {@code mantissa × 10^exp10} (mantissa read as unsigned), or {@code
     * NaN} when this fast code cannot decide it and the caller must use {@link Double#parseDouble}.
     * Results past the double range are {@code Infinity}, below it {@code 0.0}; never negative.
     */
    static double of(long mantissa, int exp10) {
        if (mantissa == 0) {
            return 0;
        }
        if (mantissa > 0 && mantissa < (1L << 53) && exp10 >= -22 && exp10 <= 22) {
            // Clinger: both operands exact, one correctly rounded operation
            return exp10 >= 0 ? mantissa * POW10[exp10] : mantissa / POW10[-exp10];
        }
        if (exp10 < MIN_EXP10) {
            return 0; // below 10^-348 × 2^64: far under the smallest subnormal
        }
        if (exp10 > MAX_EXP10) {
            return Double.POSITIVE_INFINITY;
        }
        return eiselLemire(mantissa, exp10);
    }

    private static double eiselLemire(long man, int exp10) {
        int clz = Long.numberOfLeadingZeros(man);
        man <<= clz;
        long retExp2 = ((217706L * exp10) >> 16) + 64 + 1023 - clz;
        int i = 2 * (exp10 - MIN_EXP10);
        long pHi = POW10_128[i];
        long pLo = POW10_128[i + 1];
        long xHi = Math.unsignedMultiplyHigh(man, pHi);
        long xLo = man * pHi;
        // the 64-bit product may be too coarse near a rounding boundary: widen with the low half
        if ((xHi & 0x1FF) == 0x1FF && Long.compareUnsigned(xLo + man, man) < 0) {
            long yHi = Math.unsignedMultiplyHigh(man, pLo);
            long yLo = man * pLo;
            long mergedHi = xHi;
            long mergedLo = xLo + yHi;
            if (Long.compareUnsigned(mergedLo, xLo) < 0) {
                mergedHi++;
            }
            if ((mergedHi & 0x1FF) == 0x1FF && mergedLo + 1 == 0 && Long.compareUnsigned(yLo + man, man) < 0) {
                return Double.NaN;
            }
            xHi = mergedHi;
            xLo = mergedLo;
        }
        long msb = xHi >>> 63;
        long retMantissa = xHi >>> (msb + 9);
        retExp2 -= 1 ^ msb;
        if (xLo == 0 && (xHi & 0x1FF) == 0 && (retMantissa & 3) == 1) {
            return Double.NaN; // exactly halfway as far as 128 bits can tell
        }
        retMantissa += retMantissa & 1;
        retMantissa >>>= 1;
        if ((retMantissa >>> 53) > 0) {
            retMantissa >>>= 1;
            retExp2 += 1;
        }
        if (retExp2 - 1 < 0 || retExp2 - 1 >= 0x7FF - 1) {
            return Double.NaN; // subnormal or past the range: let the exact parser decide
        }
        return Double.longBitsToDouble(retExp2 << 52 | (retMantissa & ((1L << 52) - 1)));
    }
}
