package io.chronix.api.sql;

import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.OptionalLong;

/**
 * The common shape of a timestamp literal — {@code YYYY-MM-DD}, optionally followed by {@code T} or
 * a space and {@code HH:MM:SS} with an optional fraction — turned into epoch nanoseconds in Java,
 * so pruning a query's time range costs no round trip to DuckDB per literal. Only text whose value
 * is beyond doubt is taken: no zone or offset, no surrounding blanks, a four-digit year, a valid
 * calendar date and time, and no more fraction digits than the cast keeps (6 for {@code TIMESTAMP},
 * 9 for {@code TIMESTAMP_NS}), so the value is exactly what DuckDB's cast gives (the test compares
 * the two on random literals). Anything else is left to DuckDB ({@link #epochNanos} is empty).
 */
final class PlainTimestamps {

    private PlainTimestamps() {
    }

    /**
     * @param castType {@code TIMESTAMP}, {@code DATETIME} or {@code TIMESTAMP_NS}; {@code VARCHAR} for
     *                 a bare string compared with {@code time}, read as {@code TIMESTAMP_NS} (the
     *                 plain shape has no zone, so its zoned reading in UTC is the same)
     * @return the instant in nanoseconds since the epoch (UTC), or empty if the text is not of the
     *     plain shape (or out of the nanosecond range)
     */
    static OptionalLong epochNanos(String text, String castType) {
        int maxFraction = switch (castType) {
            case "TIMESTAMP", "DATETIME" -> 6;
            case "TIMESTAMP_NS", "VARCHAR" -> 9;
            default -> -1;
        };
        int n = text.length();
        if (maxFraction < 0 || (n != 10 && n < 19) || !digits(text, 0, 4) || text.charAt(4) != '-' || !digits(text, 5, 2)
                || text.charAt(7) != '-' || !digits(text, 8, 2)) {
            return OptionalLong.empty();
        }
        int hour = 0;
        int minute = 0;
        int second = 0;
        long nanos = 0;
        if (n > 10) {
            char sep = text.charAt(10);
            if ((sep != 'T' && sep != ' ') || !digits(text, 11, 2) || text.charAt(13) != ':' || !digits(text, 14, 2)
                    || text.charAt(16) != ':' || !digits(text, 17, 2)) {
                return OptionalLong.empty();
            }
            hour = number(text, 11, 2);
            minute = number(text, 14, 2);
            second = number(text, 17, 2);
            if (n > 19) {
                int fraction = n - 20;
                if (text.charAt(19) != '.' || fraction < 1 || fraction > maxFraction || !digits(text, 20, fraction)) {
                    return OptionalLong.empty();
                }
                nanos = number(text, 20, fraction);
                for (int k = fraction; k < 9; k++) {
                    nanos *= 10;
                }
            }
        }
        try {
            LocalDateTime t = LocalDateTime.of(number(text, 0, 4), number(text, 5, 2), number(text, 8, 2), hour, minute, second);
            long seconds = t.toEpochSecond(ZoneOffset.UTC);
            return OptionalLong.of(Math.addExact(Math.multiplyExact(seconds, 1_000_000_000L), nanos));
        } catch (DateTimeException | ArithmeticException e) {
            return OptionalLong.empty(); // DuckDB decides: an error, or a value we do not reproduce
        }
    }

    private static boolean digits(String s, int from, int count) {
        if (from + count > s.length()) {
            return false;
        }
        for (int i = from; i < from + count; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    private static int number(String s, int from, int count) {
        int v = 0;
        for (int i = from; i < from + count; i++) {
            v = v * 10 + (s.charAt(i) - '0');
        }
        return v;
    }
}
