package io.chronix.tenancy;

import java.time.Duration;
import java.time.Period;
import java.time.format.DateTimeParseException;

/**
 * ISO-8601 durations as the API writes them. Parsing accepts {@link Duration}'s forms
 * ({@code PT1H}, {@code P30D}, {@code P1DT12H}) and whole weeks ({@code P2W}); years and months are
 * refused because their length varies. Formatting gives whole days as {@code P30D} and anything else
 * in {@link Duration#toString()} form, so what a client sent comes back unchanged in the usual cases.
 * Durations are kept to millisecond precision.
 */
public final class IsoDuration {

    private static final long DAY_MS = 86_400_000L;

    private IsoDuration() {
    }

    /** Parses {@code text}; a bad value throws naming {@code field}. Null stays null. */
    public static Duration parse(String field, String text) {
        if (text == null) {
            return null;
        }
        String t = text.strip().toUpperCase(java.util.Locale.ROOT);
        Duration d;
        try {
            d = Duration.parse(t);
        } catch (DateTimeParseException e) {
            d = weeks(field, text, t);
        }
        if (d.isNegative() || d.isZero()) {
            throw new InvalidInputException(field, "must be a positive duration, got '" + text + "'");
        }
        if (d.toNanos() % 1_000_000 != 0) {
            throw new InvalidInputException(field, "must be a whole number of milliseconds, got '" + text + "'");
        }
        return d;
    }

    private static Duration weeks(String field, String original, String t) {
        try {
            Period p = Period.parse(t);
            if (p.getYears() != 0 || p.getMonths() != 0) {
                throw new InvalidInputException(field, "years and months have no fixed length; use days, e.g. P365D, got '" + original + "'");
            }
            return Duration.ofDays(p.getDays());
        } catch (DateTimeParseException | ArithmeticException e) {
            throw new InvalidInputException(field, "is not an ISO-8601 duration such as P30D or PT1H, got '" + original + "'");
        }
    }

    /** {@code P30D} for whole days, otherwise {@link Duration#toString()}; null stays null. */
    public static String format(Duration d) {
        if (d == null) {
            return null;
        }
        long ms = d.toMillis();
        if (ms % DAY_MS == 0) {
            return "P" + (ms / DAY_MS) + "D";
        }
        return d.toString();
    }
}
