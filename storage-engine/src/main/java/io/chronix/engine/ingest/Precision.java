package io.chronix.engine.ingest;

import java.util.Locale;
import java.util.Optional;

/** The unit of line-protocol timestamps, with the spellings the v2 ({@code ns}) and v1 ({@code n}) APIs use. */
public enum Precision {
    NANOSECONDS(1L),
    MICROSECONDS(1_000L),
    MILLISECONDS(1_000_000L),
    SECONDS(1_000_000_000L);

    private final long nanos;

    Precision(long nanos) {
        this.nanos = nanos;
    }

    /** Nanoseconds per unit. */
    public long nanos() {
        return nanos;
    }

    /** {@code ns|us|ms|s} and the v1 spellings {@code n|u|ms|s} (also {@code µ}, as InfluxDB 1 takes it); case-insensitive. */
    public static Optional<Precision> parse(String s) {
        if (s == null) {
            return Optional.empty();
        }
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "ns", "n" -> Optional.of(NANOSECONDS);
            case "us", "u", "µ", "µs" -> Optional.of(MICROSECONDS);
            case "ms" -> Optional.of(MILLISECONDS);
            case "s" -> Optional.of(SECONDS);
            default -> Optional.empty();
        };
    }
}
