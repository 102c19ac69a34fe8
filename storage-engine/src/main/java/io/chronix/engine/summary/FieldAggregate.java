package io.chronix.engine.summary;

import io.chronix.engine.model.FieldType;

import java.math.BigInteger;

/**
 * The running aggregate of one numeric field of one series: count of values, first and last
 * (by time), min, max and sum. Floats sum with Kahan–Neumaier compensation (Neumaier, "Rundungsfehleranalyse
 * einiger Verfahren zur Summation endlicher Summen", 1974): a running sum plus the running sum of
 * the rounding errors, so adding many small values to a large one keeps their contribution;
 * integers (and unsigned) sum exactly in 128 bits. The same class builds a segment summary and
 * folds rows of a scan, so both paths of an aggregate follow one rule.
 *
 * <p>Floats: min and max follow {@link Math#min}/{@link Math#max} (a NaN value makes them NaN).
 * Unsigned: values are the 64 bits, compared unsigned.
 *
 * <p>Not thread-safe.
 */
public final class FieldAggregate {

    private final FieldType type;
    long count;
    long firstTime;
    long firstBits;
    long lastTime;
    long lastBits;
    long minBits;
    long maxBits;
    /** Floats: running sum and compensation as double bits; integers: the 128-bit sum, high and low word. */
    long sumA;
    long sumB;

    public FieldAggregate(FieldType type) {
        if (type != FieldType.FLOAT && type != FieldType.INTEGER && type != FieldType.UNSIGNED) {
            throw new IllegalArgumentException("only numeric fields aggregate [type=" + type + "]");
        }
        this.type = type;
    }

    public FieldType type() {
        return type;
    }

    /** Adds one value ({@code bits}: double bits for floats, the long otherwise) at time {@code t}. */
    public void add(long t, long bits) {
        if (count == 0) {
            firstTime = t;
            firstBits = bits;
            lastTime = t;
            lastBits = bits;
            minBits = bits;
            maxBits = bits;
        } else {
            if (t < firstTime) {
                firstTime = t;
                firstBits = bits;
            }
            if (t >= lastTime) {
                lastTime = t;
                lastBits = bits;
            }
            minBits = less(bits, minBits) ? bits : minBits;
            maxBits = less(maxBits, bits) ? bits : maxBits;
        }
        count++;
        if (type == FieldType.FLOAT) {
            addFloat(Double.longBitsToDouble(bits), 0.0);
        } else {
            addInteger(type == FieldType.UNSIGNED ? 0 : bits >> 63, bits);
        }
    }

    /** Folds {@code o} in: the two must cover disjoint rows of the same series. */
    public void merge(FieldAggregate o) {
        if (o.type != type) {
            throw new IllegalArgumentException("aggregates of different types [this=" + type + ", other=" + o.type + "]");
        }
        if (o.count == 0) {
            return;
        }
        if (count == 0) {
            copyFrom(o);
            return;
        }
        if (o.firstTime < firstTime) {
            firstTime = o.firstTime;
            firstBits = o.firstBits;
        }
        if (o.lastTime >= lastTime) {
            lastTime = o.lastTime;
            lastBits = o.lastBits;
        }
        minBits = less(o.minBits, minBits) ? o.minBits : minBits;
        maxBits = less(maxBits, o.maxBits) ? o.maxBits : maxBits;
        count += o.count;
        if (type == FieldType.FLOAT) {
            addFloat(Double.longBitsToDouble(o.sumA), Double.longBitsToDouble(o.sumB));
        } else {
            addInteger(o.sumA, o.sumB);
        }
    }

    private void copyFrom(FieldAggregate o) {
        count = o.count;
        firstTime = o.firstTime;
        firstBits = o.firstBits;
        lastTime = o.lastTime;
        lastBits = o.lastBits;
        minBits = o.minBits;
        maxBits = o.maxBits;
        sumA = o.sumA;
        sumB = o.sumB;
    }

    private void addFloat(double x, double compensation) {
        double s = Double.longBitsToDouble(sumA);
        double c = Double.longBitsToDouble(sumB);
        double t = s + x;
        if (Math.abs(s) >= Math.abs(x)) {
            c += (s - t) + x;
        } else {
            c += (x - t) + s;
        }
        c += compensation;
        sumA = Double.doubleToRawLongBits(t);
        sumB = Double.doubleToRawLongBits(c);
    }

    private void addInteger(long hi, long lo) {
        long newLo = sumB + lo;
        long carry = Long.compareUnsigned(newLo, sumB) < 0 ? 1 : 0;
        sumA = sumA + hi + carry;
        sumB = newLo;
    }

    private boolean less(long a, long b) {
        return switch (type) {
            case FLOAT -> {
                double x = Double.longBitsToDouble(a);
                double y = Double.longBitsToDouble(b);
                yield Double.isNaN(x) && !Double.isNaN(y) || x < y;
            }
            case UNSIGNED -> Long.compareUnsigned(a, b) < 0;
            default -> a < b;
        };
    }

    public long count() {
        return count;
    }

    public long firstTime() {
        return firstTime;
    }

    public long lastTime() {
        return lastTime;
    }

    /** {@code Double} for floats, {@code Long} otherwise (unsigned: the 64 bits); {@code null} without values. */
    public Number first() {
        return count == 0 ? null : box(firstBits);
    }

    public Number last() {
        return count == 0 ? null : box(lastBits);
    }

    public Number min() {
        return count == 0 ? null : box(minBits);
    }

    public Number max() {
        return count == 0 ? null : box(maxBits);
    }

    /** The sum as a double: the compensated sum for floats, the exact sum rounded for integers. */
    public double sum() {
        if (type == FieldType.FLOAT) {
            return Double.longBitsToDouble(sumA) + Double.longBitsToDouble(sumB);
        }
        return exactSum().doubleValue();
    }

    /** The exact sum of an integer or unsigned field; {@code null} for floats. */
    public BigInteger exactSum() {
        if (type == FieldType.FLOAT) {
            return null;
        }
        return BigInteger.valueOf(sumA).shiftLeft(64).add(new BigInteger(Long.toUnsignedString(sumB)));
    }

    private Number box(long bits) {
        if (type == FieldType.FLOAT) {
            return Double.longBitsToDouble(bits); // no conditional expression: it would promote the Long to double
        }
        return Long.valueOf(bits);
    }

    /** Equality of every recorded value, bit for bit (for tests and the summary round trip). */
    public boolean sameAs(FieldAggregate o) {
        return type == o.type && count == o.count && (count == 0 || firstTime == o.firstTime && firstBits == o.firstBits
                && lastTime == o.lastTime && lastBits == o.lastBits && minBits == o.minBits && maxBits == o.maxBits
                && sumA == o.sumA && sumB == o.sumB);
    }

    @Override
    public String toString() {
        return "FieldAggregate[type=" + type + ", count=" + count + ", first=" + first() + "@" + firstTime + ", last=" + last() + "@"
                + lastTime + ", min=" + min() + ", max=" + max() + ", sum=" + (type == FieldType.FLOAT ? sum() : exactSum()) + "]";
    }
}
