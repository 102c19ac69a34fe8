package io.chronix.bench.generator;

/**
 * A fixed, fully specified pseudo-random source (SplitMix64, Steele, Lea and Flood, "Fast splittable
 * pseudorandom number generators", OOPSLA 2014).
 *
 * <p>Why not {@code java.util.Random} or {@code SplittableRandom}: the data set is a contract ("same
 * seed, same bytes"), so the stream of numbers must not depend on a JDK's choice of algorithm
 * ({@code SplittableRandom.nextGaussian} changed in JDK 17). Gaussians use the Marsaglia polar method
 * with {@link StrictMath}, which is bit-for-bit reproducible on every platform.
 */
public final class SplitMix64 {
    private static final long GOLDEN_GAMMA = 0x9e3779b97f4a7c15L;
    private static final double DOUBLE_UNIT = 0x1.0p-53;

    private long state;
    private double spareGaussian;
    private boolean hasSpare;

    public SplitMix64(long seed) {
        this.state = seed;
    }

    public long nextLong() {
        long z = (state += GOLDEN_GAMMA);
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    /** Uniform in [0, 1), 53 random bits. */
    public double nextDouble() {
        return (nextLong() >>> 11) * DOUBLE_UNIT;
    }

    /** Uniform in [0, bound); bound must be positive. Unbiased (rejection of the short last range). */
    public int nextInt(int bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("bound must be positive [bound=" + bound + "]");
        }
        long limit = Long.MAX_VALUE - (Long.MAX_VALUE % bound);
        long r;
        do {
            r = nextLong() >>> 1;
        } while (r >= limit);
        return (int) (r % bound);
    }

    /** Uniform in [0, bound); bound must be positive. */
    public long nextLong(long bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("bound must be positive [bound=" + bound + "]");
        }
        long limit = Long.MAX_VALUE - (Long.MAX_VALUE % bound);
        long r;
        do {
            r = nextLong() >>> 1;
        } while (r >= limit);
        return r % bound;
    }

    /** Standard normal N(0, 1). */
    public double nextGaussian() {
        if (hasSpare) {
            hasSpare = false;
            return spareGaussian;
        }
        double u;
        double v;
        double s;
        do {
            u = 2 * nextDouble() - 1;
            v = 2 * nextDouble() - 1;
            s = u * u + v * v;
        } while (s >= 1 || s == 0);
        double multiplier = StrictMath.sqrt(-2 * StrictMath.log(s) / s);
        spareGaussian = v * multiplier;
        hasSpare = true;
        return u * multiplier;
    }
}
