package io.chronix.engine.segment;

import java.math.BigInteger;

/**
 * Statistics of one column over a whole segment, as stored ({@value SegmentFormat#COLUMN_STATS_SIZE}
 * bytes each) and used for pruning without decoding.
 *
 * <ul>
 *   <li>{@code min}/{@code max}: for time and integer columns the values; for unsigned columns the
 *       bits (compare with {@link Long#compareUnsigned}); for floats the {@link #orderedFloat ordered
 *       mapping} with NaN excluded; for booleans 0/1. Absent ({@code hasMinMax} false) for strings and
 *       tags, and when every value is NULL (or NaN).
 *   <li>{@code sum}: a float64 sum for numeric columns; for integer and unsigned columns also the exact
 *       128-bit sum ({@link #exactSum()}), which stays exact far beyond 2^53. For booleans: the count
 *       of true values.
 *   <li>{@code distinct}: exact when {@code distinctExact}; otherwise a lower bound (the writer stops
 *       counting at {@value StatsAccumulator#DISTINCT_CAP} distinct values per column).
 * </ul>
 */
public record ColumnStats(Kind kind, boolean hasMinMax, long min, long max, long nullCount, long valueCount,
                          double sum, long sumHigh, long sumLow, long distinct, boolean distinctExact, long nanCount) {

    /** How {@code min}/{@code max} are to be read. Codes are stored: never renumber. */
    public enum Kind {
        NONE(0), SIGNED(1), UNSIGNED(2), FLOAT(3), BOOLEAN(4);

        final int code;

        Kind(int code) {
            this.code = code;
        }

        static Kind ofCode(int code) {
            for (Kind k : values()) {
                if (k.code == code) {
                    return k;
                }
            }
            return null;
        }
    }

    static final int FLAG_HAS_MIN_MAX = 1;
    static final int FLAG_DISTINCT_EXACT = 1 << 1;

    /**
     * Maps a double to a long whose signed order is the double's total order (NaN aside):
     * {@code -Inf < -max < -0.0 < +0.0 < +max < +Inf}. Non-negative doubles keep their bits; negative
     * ones flip every bit but the sign.
     */
    public static long orderedFloat(double v) {
        long bits = Double.doubleToRawLongBits(v);
        return bits < 0 ? bits ^ Long.MAX_VALUE : bits;
    }

    /** Inverse of {@link #orderedFloat}. */
    public static double fromOrderedFloat(long ordered) {
        return Double.longBitsToDouble(ordered < 0 ? ordered ^ Long.MAX_VALUE : ordered);
    }

    public double minDouble() {
        return fromOrderedFloat(min);
    }

    public double maxDouble() {
        return fromOrderedFloat(max);
    }

    /** The exact sum of an integer or unsigned column, from the 128-bit accumulator. */
    public BigInteger exactSum() {
        return BigInteger.valueOf(sumHigh).shiftLeft(64).add(new BigInteger(Long.toUnsignedString(sumLow)));
    }
}
