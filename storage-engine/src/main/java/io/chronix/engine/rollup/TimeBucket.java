package io.chronix.engine.rollup;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The bucketing of a rollup (seed 001 "Rollup"): a fixed span for sub-day widths ({@code ns},
 * {@code us}, {@code ms}, {@code s}, {@code m}, {@code h}), the local calendar of a time zone for
 * {@code d}, {@code w}, {@code mo} and {@code y} — a daily bucket runs local midnight to local
 * midnight (23 or 25 hours on a DST transition day), a monthly one is a calendar month.
 *
 * <p>{@link #startOf} and {@link #next} are the only source of boundaries: never {@code start +
 * width}, which is not the next bucket for a month or a transition day. The watermark, the
 * invalidation range of a late write, the live half of the rollup view and the boundary retention
 * waits for all go through them.
 *
 * <p><b>Fixed widths</b> floor by Euclidean remainder relative to the origin (default the Unix
 * epoch), so a negative timestamp snaps down, not towards zero; both methods saturate at the ends
 * of the {@code long} range. <b>Calendar widths</b> count {@code n} days, weeks, months or years
 * from the origin in local time (defaults: 1970-01-01 for {@code d}, {@code mo}, {@code y}; Monday
 * 2000-01-03 for {@code w}); a boundary that falls into a DST gap moves to the first instant after
 * it, one in an overlap takes the earlier instant. A monthly origin on the 31st clamps to shorter
 * months' last day ({@code origin.plusMonths(k)}, always counted from the origin).
 *
 * <p>Immutable and thread-safe; equal when width, zone and origin are.
 */
public final class TimeBucket {

    private static final Pattern WIDTH = Pattern.compile("(\\d{1,19})([a-zµ]+)");
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final LocalDateTime EPOCH = LocalDateTime.of(1970, 1, 1, 0, 0);
    private static final LocalDateTime FIRST_MONDAY_2000 = LocalDateTime.of(2000, 1, 3, 0, 0);

    private enum Unit {
        NS("ns", 1L), US("us", 1_000L), MS("ms", 1_000_000L), S("s", NANOS_PER_SECOND), M("m", 60 * NANOS_PER_SECOND),
        H("h", 3_600 * NANOS_PER_SECOND), D("d", 0), W("w", 0), MO("mo", 0), Y("y", 0);

        final String symbol;
        final long nanos; // 0: calendar

        Unit(String symbol, long nanos) {
            this.symbol = symbol;
            this.nanos = nanos;
        }

        static Unit of(String symbol) {
            String s = symbol.equals("µs") ? "us" : symbol;
            for (Unit u : values()) {
                if (u.symbol.equals(s)) {
                    return u;
                }
            }
            return null;
        }
    }

    private final String every;
    private final long amount;
    private final Unit unit;
    private final ZoneId zone;
    private final LocalDateTime origin; // null: the default
    /** Fixed widths only: the width and the origin's offset within it. */
    private final long widthNanos;
    private final long originRemainder;
    private final LocalDateTime calendarOrigin;

    private TimeBucket(long amount, Unit unit, ZoneId zone, LocalDateTime origin) {
        this.amount = amount;
        this.unit = unit;
        this.every = amount + unit.symbol;
        this.zone = zone;
        this.origin = origin;
        if (unit.nanos > 0) {
            try {
                widthNanos = Math.multiplyExact(amount, unit.nanos);
            } catch (ArithmeticException e) {
                throw new InvalidRollupException("bucket width beyond the nanosecond range", "every", every);
            }
            long originNanos = origin == null ? 0 : toNanos(ZonedDateTime.ofLocal(origin, zone, null).toInstant());
            originRemainder = Math.floorMod(originNanos, widthNanos);
            calendarOrigin = null;
        } else {
            widthNanos = 0;
            originRemainder = 0;
            calendarOrigin = origin != null ? origin : unit == Unit.W ? FIRST_MONDAY_2000 : EPOCH;
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The width as given to the builder, normalised ({@code 15m}, {@code 1mo}). */
    public String every() {
        return every;
    }

    public ZoneId zone() {
        return zone;
    }

    /** The origin in the zone's local time, if one was given. */
    public Optional<LocalDateTime> origin() {
        return Optional.ofNullable(origin);
    }

    /** Whether buckets follow the local calendar ({@code d}, {@code w}, {@code mo}, {@code y}) rather than a fixed span. */
    public boolean calendar() {
        return unit.nanos == 0;
    }

    /** The start of the bucket holding {@code tsNanos} (epoch ns); {@link Long#MIN_VALUE} if it starts before the long range. */
    public long startOf(long tsNanos) {
        if (!calendar()) {
            long r = Math.floorMod(Math.floorMod(tsNanos, widthNanos) - originRemainder, widthNanos);
            return tsNanos - r > tsNanos ? Long.MIN_VALUE : tsNanos - r;
        }
        return toNanos(boundary(index(tsNanos)));
    }

    /**
     * The start of the bucket after the one holding {@code startNanos} (normally a bucket start);
     * {@link Long#MAX_VALUE} if it starts after the long range.
     */
    public long next(long startNanos) {
        if (!calendar()) {
            long r = Math.floorMod(Math.floorMod(startNanos, widthNanos) - originRemainder, widthNanos);
            long step = widthNanos - r;
            return startNanos + step < startNanos ? Long.MAX_VALUE : startNanos + step;
        }
        return toNanos(boundary(index(startNanos) + 1));
    }

    /** The index {@code k} of the calendar bucket {@code [boundary(k), boundary(k + 1))} holding {@code ts}. */
    private long index(long ts) {
        Instant at = Instant.ofEpochSecond(Math.floorDiv(ts, NANOS_PER_SECOND), Math.floorMod(ts, NANOS_PER_SECOND));
        LocalDateTime local = LocalDateTime.ofInstant(at, zone);
        long units = switch (unit) {
            case D -> ChronoUnit.DAYS.between(calendarOrigin, local);
            case W -> ChronoUnit.WEEKS.between(calendarOrigin, local);
            case MO -> ChronoUnit.MONTHS.between(calendarOrigin, local);
            case Y -> ChronoUnit.YEARS.between(calendarOrigin, local);
            default -> throw new AssertionError(unit);
        };
        long k = Math.floorDiv(units, amount);
        // the estimate is off by one at most (truncation towards zero, gaps and overlaps): settle it on instants
        while (boundary(k).isAfter(at)) {
            k--;
        }
        while (!boundary(k + 1).isAfter(at)) {
            k++;
        }
        return k;
    }

    private Instant boundary(long k) {
        long n = k * amount; // |k| ≤ a few hundred thousand (days in the long range), amount bounded by the builder
        LocalDateTime local = switch (unit) {
            case D -> calendarOrigin.plusDays(n);
            case W -> calendarOrigin.plusWeeks(n);
            case MO -> calendarOrigin.plusMonths(n);
            case Y -> calendarOrigin.plusYears(n);
            default -> throw new AssertionError(unit);
        };
        return ZonedDateTime.ofLocal(local, zone, null).toInstant();
    }

    private static long toNanos(Instant i) {
        try {
            return Math.addExact(Math.multiplyExact(i.getEpochSecond(), NANOS_PER_SECOND), i.getNano());
        } catch (ArithmeticException e) {
            return i.getEpochSecond() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TimeBucket b && b.every.equals(every) && b.zone.equals(zone) && Objects.equals(b.origin, origin);
    }

    @Override
    public int hashCode() {
        return Objects.hash(every, zone, origin);
    }

    @Override
    public String toString() {
        return "TimeBucket[every=" + every + ", zone=" + zone + (origin == null ? "" : ", origin=" + origin) + "]";
    }

    /**
     * Builds a {@link TimeBucket}; {@link #build()} refuses what it cannot parse, naming it. Zone
     * defaults to UTC, origin to the width's default (see the class comment).
     */
    public static final class Builder {
        private String every;
        private String zone = "UTC";
        private String origin;

        private Builder() {
        }

        /** {@code <n><unit>}: unit one of {@code ns us ms s m h} (fixed) or {@code d w mo y} (calendar), {@code n ≥ 1}. */
        public Builder every(String every) {
            this.every = every;
            return this;
        }

        /** An IANA zone id ({@code Europe/Berlin}) or an offset ({@code +02:00}, {@code UTC}). */
        public Builder timezone(String zone) {
            this.zone = zone;
            return this;
        }

        /**
         * Where bucket counting starts: a local date ({@code 2024-01-15}), a local date-time
         * ({@code 2024-01-15T06:00}) in the bucket's zone, or an instant with an offset
         * ({@code 2024-01-15T06:00:00Z}); {@code null} for the default.
         */
        public Builder origin(String origin) {
            this.origin = origin;
            return this;
        }

        /** @throws InvalidRollupException naming the width, zone or origin it cannot parse */
        public TimeBucket build() {
            if (every == null) {
                throw new InvalidRollupException("bucket width missing", "every", null);
            }
            Matcher m = WIDTH.matcher(every.strip().toLowerCase(Locale.ROOT));
            Unit unit = m.matches() ? Unit.of(m.group(2)) : null;
            long amount;
            try {
                amount = m.matches() ? Long.parseLong(m.group(1)) : 0;
            } catch (NumberFormatException e) {
                amount = 0;
            }
            if (unit == null || amount < 1) {
                throw new InvalidRollupException("bucket width not understood (<n><ns|us|ms|s|m|h|d|w|mo|y>, n >= 1)", "every", every);
            }
            if (unit.nanos == 0 && amount > 10_000) {
                throw new InvalidRollupException("calendar bucket width too large (at most 10000 units)", "every", every);
            }
            ZoneId z;
            try {
                z = ZoneId.of(zone == null ? "UTC" : zone.strip());
            } catch (DateTimeException e) {
                throw new InvalidRollupException("time zone not understood", "timezone", zone);
            }
            return new TimeBucket(amount, unit, z, origin == null || origin.isBlank() ? null : parseOrigin(origin.strip(), z));
        }

        private static LocalDateTime parseOrigin(String s, ZoneId zone) {
            try {
                return LocalDate.parse(s).atStartOfDay();
            } catch (DateTimeException ignored) {
                // not a date
            }
            try {
                return LocalDateTime.parse(s);
            } catch (DateTimeException ignored) {
                // not a local date-time
            }
            try {
                return OffsetDateTime.parse(s).atZoneSameInstant(zone).toLocalDateTime();
            } catch (DateTimeException ignored) {
                // not an instant with an offset
            }
            try {
                return LocalDateTime.ofInstant(Instant.parse(s), zone);
            } catch (DateTimeException e) {
                throw new InvalidRollupException("bucket origin not understood (a date, local date-time or instant)", "origin", s);
            }
        }
    }

    /** The serialised origin: ISO local date-time, or {@code null} for the default (the catalog's form). */
    String originText() {
        return origin == null ? null : origin.toString();
    }

}
