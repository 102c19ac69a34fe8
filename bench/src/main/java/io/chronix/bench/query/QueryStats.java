package io.chronix.bench.query;

import java.util.Arrays;

/**
 * Timings of one query kind against one target.
 *
 * @param kind     the query
 * @param samples  wall-clock nanoseconds of each timed run, request sent to answer fully read
 * @param rows     rows in the last answer
 * @param error    why the query failed (wrong answer, refused), or null
 * @param serverCpuNanos CPU time the target's process used over the timed runs (all its threads:
 *                 background work, JIT and GC included), or -1 where it is not known
 * @param serverJitNanos of that, what its JIT compiler threads used over the same window (a JVM
 *                 still compiling its request path shows here), or -1 where it is not known
 */
public record QueryStats(QueryKind kind, long[] samples, int rows, String error, long serverCpuNanos, long serverJitNanos) {

    public QueryStats(QueryKind kind, long[] samples, int rows, String error) {
        this(kind, samples, rows, error, -1, -1);
    }

    /** Server CPU nanoseconds per timed run, or -1 where it is not known. */
    public long serverCpuPerRun() {
        return serverCpuNanos < 0 || samples.length == 0 ? -1 : serverCpuNanos / samples.length;
    }

    /** Server JIT CPU nanoseconds per timed run, or -1 where it is not known. */
    public long serverJitPerRun() {
        return serverJitNanos < 0 || samples.length == 0 ? -1 : serverJitNanos / samples.length;
    }

    public boolean failed() {
        return error != null;
    }

    public long median() {
        return nearestRank(0.5);
    }

    public long p90() {
        return nearestRank(0.9);
    }

    public long min() {
        return samples.length == 0 ? 0 : Arrays.stream(samples).min().orElse(0);
    }

    public long max() {
        return samples.length == 0 ? 0 : Arrays.stream(samples).max().orElse(0);
    }

    private long nearestRank(double p) {
        if (samples.length == 0) {
            return 0;
        }
        long[] sorted = samples.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }
}
