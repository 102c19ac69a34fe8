package io.chronix.engine.rollup;

import io.chronix.engine.model.FieldType;

import java.util.Arrays;

/**
 * Running statistics of one bucket of one series, per numeric field: count, sum, min, max, first
 * and last (and so avg). Values arrive as raw 64-bit patterns of their {@link FieldType} (float
 * bits, int64, uint64); NaN is skipped. {@code first}/{@code last} go by timestamp, the earlier
 * arrival winning a tie for first and the later one for last, so time-ordered and unordered input
 * give the same answer.
 *
 * <p>Not thread-safe.
 */
public final class BucketAccumulator {

    private final FieldType[] types;
    private final long[] count;
    private final double[] sum;
    private final long[] min;
    private final long[] max;
    private final long[] first;
    private final long[] last;
    private final long[] firstTs;
    private final long[] lastTs;

    public BucketAccumulator(FieldType[] types) {
        this.types = types;
        int n = types.length;
        count = new long[n];
        sum = new double[n];
        min = new long[n];
        max = new long[n];
        first = new long[n];
        last = new long[n];
        firstTs = new long[n];
        lastTs = new long[n];
        Arrays.fill(firstTs, Long.MAX_VALUE);
        Arrays.fill(lastTs, Long.MIN_VALUE);
    }

    /** Folds one value of field {@code f} at {@code ts}. */
    public void add(int f, long ts, long bits) {
        FieldType t = types[f];
        double d;
        switch (t) {
            case FLOAT -> {
                d = Double.longBitsToDouble(bits);
                if (Double.isNaN(d)) {
                    return;
                }
            }
            case INTEGER -> d = bits;
            case UNSIGNED -> d = FieldType.unsignedToDouble(bits);
            default -> throw new IllegalArgumentException("not a numeric field type: " + t);
        }
        if (count[f] == 0) {
            min[f] = bits;
            max[f] = bits;
        } else {
            if (compare(t, bits, min[f]) < 0) {
                min[f] = bits;
            }
            if (compare(t, bits, max[f]) > 0) {
                max[f] = bits;
            }
        }
        count[f]++;
        sum[f] += d;
        if (ts < firstTs[f]) {
            firstTs[f] = ts;
            first[f] = bits;
        }
        if (ts >= lastTs[f]) {
            lastTs[f] = ts;
            last[f] = bits;
        }
    }

    private static int compare(FieldType t, long a, long b) {
        return switch (t) {
            case FLOAT -> Double.compare(Double.longBitsToDouble(a) + 0.0, Double.longBitsToDouble(b) + 0.0);
            case INTEGER -> Long.compare(a, b);
            default -> Long.compareUnsigned(a, b);
        };
    }

    public int fieldCount() {
        return types.length;
    }

    /** Non-NaN values of field {@code f} folded. */
    public long count(int f) {
        return count[f];
    }

    /**
     * The aggregate of field {@code f} as raw bits of {@link RollupSchema#typeOf} its type; only
     * meaningful when {@link #count} is positive.
     */
    public long bits(int f, Aggregate a) {
        return switch (a) {
            case AVG -> Double.doubleToRawLongBits(sum[f] / count[f]);
            case SUM -> Double.doubleToRawLongBits(sum[f]);
            case COUNT -> count[f];
            case MIN -> min[f];
            case MAX -> max[f];
            case FIRST -> first[f];
            case LAST -> last[f];
        };
    }
}
