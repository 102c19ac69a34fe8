package io.chronix.api.query;

/**
 * Epoch nanoseconds as {@link java.time.Instant#toString()} prints them ({@code
 * 2026-12-01T00:00:00.000000001Z}: seconds always, a fraction of 3, 6 or 9 digits only as needed,
 * {@code Z}), without building an {@code Instant} or going through {@code DateTimeFormatter} —
 * the result writers print one per timestamp cell. Every {@code long} of nanoseconds is a year
 * between 1677 and 2262, so four digits always suffice and no sign is ever printed.
 */
final class Rfc3339 {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final int LENGTH_MAX = 30; // yyyy-mm-ddThh:mm:ss.nnnnnnnnnZ

    private Rfc3339() {
    }

    static String format(long epochNanos) {
        byte[] b = new byte[LENGTH_MAX];
        int n = write(epochNanos, b, 0);
        return new String(b, 0, n, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    /** Writes the text at {@code at} (room for 30 bytes needed); returns the end offset. */
    static int write(long epochNanos, byte[] b, int at) {
        long seconds = Math.floorDiv(epochNanos, NANOS_PER_SECOND);
        int nanos = (int) Math.floorMod(epochNanos, NANOS_PER_SECOND);
        long days = Math.floorDiv(seconds, 86_400L);
        int secondOfDay = (int) Math.floorMod(seconds, 86_400L);
        // civil date from days since 1970-01-01 (H. Hinnant's algorithm, proleptic Gregorian as java.time)
        long z = days + 719_468;
        long era = Math.floorDiv(z, 146_097);
        long doe = z - era * 146_097;
        long yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
        long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        long mp = (5 * doy + 2) / 153;
        int day = (int) (doy - (153 * mp + 2) / 5 + 1);
        int month = (int) (mp < 10 ? mp + 3 : mp - 9); // mp counts months from March
        int year = (int) (yoe + era * 400 + (month <= 2 ? 1 : 0)); // January and February belong to the next year
        at = digits(year, 4, b, at);
        b[at++] = '-';
        at = digits(month, 2, b, at);
        b[at++] = '-';
        at = digits(day, 2, b, at);
        b[at++] = 'T';
        at = digits(secondOfDay / 3_600, 2, b, at);
        b[at++] = ':';
        at = digits(secondOfDay / 60 % 60, 2, b, at);
        b[at++] = ':';
        at = digits(secondOfDay % 60, 2, b, at);
        if (nanos != 0) {
            b[at++] = '.';
            if (nanos % 1_000_000 == 0) {
                at = digits(nanos / 1_000_000, 3, b, at);
            } else if (nanos % 1_000 == 0) {
                at = digits(nanos / 1_000, 6, b, at);
            } else {
                at = digits(nanos, 9, b, at);
            }
        }
        b[at++] = 'Z';
        return at;
    }

    private static int digits(int value, int width, byte[] b, int at) {
        for (int i = at + width - 1; i >= at; i--) {
            b[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
        return at + width;
    }
}
