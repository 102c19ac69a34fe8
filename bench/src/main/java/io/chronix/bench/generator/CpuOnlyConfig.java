package io.chronix.bench.generator;

import java.time.Duration;
import java.time.Instant;

/**
 * What to generate. Every tick holds one row per host; there are {@code duration / interval} ticks
 * (TSBS's "epochs"), the first at {@code start}.
 *
 * @param hosts         number of hosts ({@code host_0} .. {@code host_{hosts-1}})
 * @param start         timestamp of the first tick
 * @param duration      length of the data set
 * @param interval      time between ticks (TSBS: 10 s)
 * @param seed          the only source of randomness
 * @param integerFields {@code true}: emit values truncated to integers ({@code 58i}), as TSBS does;
 *                      {@code false}: emit the float64 values
 */
public record CpuOnlyConfig(int hosts, Instant start, Duration duration, Duration interval, long seed,
                            boolean integerFields) {

    /** TSBS's default start, 2016-01-01T00:00:00Z. */
    public static final Instant TSBS_START = Instant.parse("2016-01-01T00:00:00Z");
    public static final Duration TSBS_INTERVAL = Duration.ofSeconds(10);

    public CpuOnlyConfig {
        if (hosts < 1) {
            throw new IllegalArgumentException("hosts must be at least 1 [hosts=" + hosts + "]");
        }
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("interval must be positive [interval=" + interval + "]");
        }
        if (duration.compareTo(interval) < 0) {
            throw new IllegalArgumentException(
                    "duration must cover at least one interval [duration=" + duration + ", interval=" + interval + "]");
        }
    }

    public static CpuOnlyConfig of(int hosts, Duration duration, long seed, boolean integerFields) {
        return new CpuOnlyConfig(hosts, TSBS_START, duration, TSBS_INTERVAL, seed, integerFields);
    }

    public long ticks() {
        return duration.toNanos() / interval.toNanos();
    }

    public long rows() {
        return ticks() * hosts;
    }

    public long values() {
        return rows() * TsbsValueSets.FIELDS.size();
    }

    public long startNanos() {
        return start.getEpochSecond() * 1_000_000_000L + start.getNano();
    }

    public long intervalNanos() {
        return interval.toNanos();
    }

    /** Timestamp of the last tick. */
    public long lastTickNanos() {
        return startNanos() + (ticks() - 1) * intervalNanos();
    }

    /** First instant after the data set: {@code start + duration}. */
    public long endNanos() {
        return startNanos() + duration.toNanos();
    }
}
