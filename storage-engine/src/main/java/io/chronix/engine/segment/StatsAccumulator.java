package io.chronix.engine.segment;

import io.chronix.engine.model.FieldType;

import java.util.HashSet;
import java.util.Set;

/**
 * Builds one column's {@link ColumnStats} while the writer encodes it. No boxing: numbers go into a
 * primitive open-addressing set for the distinct count; strings (tags, string fields) into a
 * {@code HashSet} of the (already existing) String references.
 *
 * <p>Not thread-safe.
 */
final class StatsAccumulator {

    static final int DISTINCT_CAP = 1 << 16;

    private final ColumnStats.Kind kind;
    private boolean hasMinMax;
    private long min = Long.MAX_VALUE;
    private long max = Long.MIN_VALUE;
    private long nulls;
    private long values;
    private double sum;
    private long sumHigh;
    private long sumLow;
    private long nans;
    private boolean distinctExact = true;
    // primitive set: 0 is stored as a flag because 0 marks a free slot
    private long[] slots = new long[1024];
    private int slotCount;
    private boolean hasZero;
    private final Set<String> strings;

    StatsAccumulator(ColumnStats.Kind kind, boolean stringValued) {
        this.kind = kind;
        this.strings = stringValued ? new HashSet<>() : null;
    }

    void addNull() {
        nulls++;
    }

    void addSigned(long v) {
        values++;
        minMaxSigned(v);
        sum += v;
        // 128-bit add of a sign-extended long
        long low = sumLow + v;
        sumHigh += (v >> 63) + (Long.compareUnsigned(low, sumLow) < 0 ? 1 : 0);
        sumLow = low;
        distinctLong(v);
    }

    void addUnsigned(long v) {
        values++;
        if (!hasMinMax) {
            min = v;
            max = v;
            hasMinMax = true;
        } else {
            if (Long.compareUnsigned(v, min) < 0) {
                min = v;
            }
            if (Long.compareUnsigned(v, max) > 0) {
                max = v;
            }
        }
        sum += FieldType.unsignedToDouble(v);
        long low = sumLow + v;
        sumHigh += Long.compareUnsigned(low, sumLow) < 0 ? 1 : 0;
        sumLow = low;
        distinctLong(v);
    }

    void addFloat(double v) {
        values++;
        distinctLong(Double.doubleToRawLongBits(v));
        if (Double.isNaN(v)) {
            nans++;
            return;
        }
        minMaxSigned(ColumnStats.orderedFloat(v));
        sum += v;
    }

    void addBoolean(boolean v) {
        values++;
        minMaxSigned(v ? 1 : 0);
        if (v) {
            sum += 1;
            sumLow++;
        }
        distinctLong(v ? 1 : 0);
    }

    void addString(String s) {
        values++;
        if (distinctExact) {
            strings.add(s);
            if (strings.size() >= DISTINCT_CAP) {
                distinctExact = false;
            }
        }
    }

    /** Time column: min/max only matter; distinct is not tracked (every value in a series differs). */
    void addTime(long v) {
        values++;
        distinctExact = false;
        minMaxSigned(v);
    }

    private void minMaxSigned(long v) {
        if (!hasMinMax) {
            min = v;
            max = v;
            hasMinMax = true;
            return;
        }
        if (v < min) {
            min = v;
        }
        if (v > max) {
            max = v;
        }
    }

    private void distinctLong(long v) {
        if (!distinctExact) {
            return;
        }
        if (v == 0) {
            hasZero = true;
            return;
        }
        int mask = slots.length - 1;
        int i = (int) mix(v) & mask;
        while (true) {
            long s = slots[i];
            if (s == v) {
                return;
            }
            if (s == 0) {
                slots[i] = v;
                slotCount++;
                if (slotCount + (hasZero ? 1 : 0) >= DISTINCT_CAP) {
                    distinctExact = false;
                    slots = new long[1]; // stop counting; free the table
                } else if (slotCount * 2 > slots.length) {
                    grow();
                }
                return;
            }
            i = (i + 1) & mask;
        }
    }

    private void grow() {
        long[] old = slots;
        slots = new long[old.length * 2];
        int mask = slots.length - 1;
        for (long v : old) {
            if (v != 0) {
                int i = (int) mix(v) & mask;
                while (slots[i] != 0) {
                    i = (i + 1) & mask;
                }
                slots[i] = v;
            }
        }
    }

    private static long mix(long v) {
        v ^= v >>> 33;
        v *= 0xff51afd7ed558ccdL;
        v ^= v >>> 33;
        return v;
    }

    ColumnStats build() {
        long distinct;
        if (strings != null) {
            distinct = distinctExact ? strings.size() : DISTINCT_CAP;
        } else if (kind == ColumnStats.Kind.NONE) {
            distinct = 0;
        } else {
            distinct = distinctExact ? slotCount + (hasZero ? 1 : 0) : (values == 0 ? 0 : Math.min(values, DISTINCT_CAP));
        }
        boolean minMax = hasMinMax && kind != ColumnStats.Kind.NONE;
        boolean exact = distinctExact && (kind != ColumnStats.Kind.NONE || strings != null);
        return new ColumnStats(kind, minMax, minMax ? min : 0, minMax ? max : 0, nulls, values, sum, sumHigh, sumLow,
                distinct, exact, nans);
    }
}
