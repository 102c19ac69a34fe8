package io.chronix.engine.rollup;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TimeBucketTest {

    private static final long S = 1_000_000_000L;

    private static long ns(String instant) {
        Instant i = Instant.parse(instant);
        return i.getEpochSecond() * S + i.getNano();
    }

    private static TimeBucket bucket(String every, String zone) {
        return TimeBucket.builder().every(every).timezone(zone).build();
    }

    /** name, every, zone, origin, instant inside, expected start, expected next start. */
    static Stream<Arguments> boundaries() {
        return Stream.of(
                Arguments.of("15 minutes", "15m", "UTC", null, "2024-05-05T10:31:00Z", "2024-05-05T10:30:00Z", "2024-05-05T10:45:00Z"),
                Arguments.of("fixed ignores the zone's DST", "1h", "Europe/Berlin", null, "2024-03-31T01:30:00Z",
                        "2024-03-31T01:00:00Z", "2024-03-31T02:00:00Z"),
                Arguments.of("Berlin spring day is 23 h", "1d", "Europe/Berlin", null, "2024-03-31T12:00:00Z",
                        "2024-03-30T23:00:00Z", "2024-03-31T22:00:00Z"),
                Arguments.of("Berlin autumn day is 25 h", "1d", "Europe/Berlin", null, "2024-10-27T12:00:00Z",
                        "2024-10-26T22:00:00Z", "2024-10-27T23:00:00Z"),
                Arguments.of("New York spring day is 23 h", "1d", "America/New_York", null, "2024-03-10T12:00:00Z",
                        "2024-03-10T05:00:00Z", "2024-03-11T04:00:00Z"),
                Arguments.of("New York autumn day is 25 h", "1d", "America/New_York", null, "2024-11-03T12:00:00Z",
                        "2024-11-03T04:00:00Z", "2024-11-04T05:00:00Z"),
                Arguments.of("Sydney April day is 25 h", "1d", "Australia/Sydney", null, "2024-04-07T05:00:00Z",
                        "2024-04-06T13:00:00Z", "2024-04-07T14:00:00Z"),
                Arguments.of("Sydney October day is 23 h", "1d", "Australia/Sydney", null, "2024-10-06T05:00:00Z",
                        "2024-10-05T14:00:00Z", "2024-10-06T13:00:00Z"),
                Arguments.of("Sao Paulo midnight in the DST gap starts at 01:00", "1d", "America/Sao_Paulo", null,
                        "2018-11-04T12:00:00Z", "2018-11-04T03:00:00Z", "2018-11-05T02:00:00Z"),
                Arguments.of("Kolkata half-hour offset", "1d", "Asia/Kolkata", null, "2024-01-01T20:00:00Z",
                        "2024-01-01T18:30:00Z", "2024-01-02T18:30:00Z"),
                Arguments.of("leap February", "1mo", "UTC", null, "2024-02-29T23:59:59.999999999Z", "2024-02-01T00:00:00Z",
                        "2024-03-01T00:00:00Z"),
                Arguments.of("common February", "1mo", "UTC", null, "2023-02-15T00:00:00Z", "2023-02-01T00:00:00Z",
                        "2023-03-01T00:00:00Z"),
                Arguments.of("month end, last nanosecond", "1mo", "UTC", null, "2024-01-31T23:59:59.999999999Z", "2024-01-01T00:00:00Z",
                        "2024-02-01T00:00:00Z"),
                Arguments.of("month in Berlin", "1mo", "Europe/Berlin", null, "2024-03-31T21:30:00Z", "2024-02-29T23:00:00Z",
                        "2024-03-31T22:00:00Z"),
                Arguments.of("quarter", "3mo", "UTC", null, "2024-05-20T00:00:00Z", "2024-04-01T00:00:00Z", "2024-07-01T00:00:00Z"),
                Arguments.of("leap year", "1y", "UTC", null, "2024-12-31T23:00:00Z", "2024-01-01T00:00:00Z", "2025-01-01T00:00:00Z"),
                Arguments.of("week starts Monday", "1w", "UTC", null, "2024-05-05T10:00:00Z", "2024-04-29T00:00:00Z",
                        "2024-05-06T00:00:00Z"),
                Arguments.of("month origin on the 31st clamps", "1mo", "UTC", "2024-01-31", "2024-03-01T00:00:00Z",
                        "2024-02-29T00:00:00Z", "2024-03-31T00:00:00Z"),
                Arguments.of("fixed origin shifts buckets", "15m", "UTC", "2024-01-15T00:05", "2024-01-15T00:04:00Z",
                        "2024-01-14T23:50:00Z", "2024-01-15T00:05:00Z"),
                Arguments.of("origin as an instant", "1d", "Europe/Berlin", "2024-01-15T05:00:00Z", "2024-01-15T05:30:00Z",
                        "2024-01-15T05:00:00Z", "2024-01-16T05:00:00Z"),
                Arguments.of("before the epoch", "1d", "Europe/Berlin", null, "1960-06-01T12:00:00Z", "1960-05-31T23:00:00Z",
                        "1960-06-01T23:00:00Z"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("boundaries")
    void boundariesFollowTheTable(String name, String every, String zone, String origin, String inside, String start, String next) {
        TimeBucket b = TimeBucket.builder().every(every).timezone(zone).origin(origin).build();
        assertThat(b.startOf(ns(inside))).as("startOf").isEqualTo(ns(start));
        assertThat(b.next(ns(start))).as("next").isEqualTo(ns(next));
        assertThat(b.startOf(ns(next))).as("a boundary is its own start").isEqualTo(ns(next));
        assertThat(b.startOf(ns(next) - 1)).as("the instant before the next boundary").isEqualTo(ns(start));
    }

    @Test
    void transitionDaysAreTwentyThreeAndTwentyFiveHours() {
        TimeBucket b = bucket("1d", "Europe/Berlin");
        long spring = b.startOf(ns("2024-03-31T12:00:00Z"));
        long autumn = b.startOf(ns("2024-10-27T12:00:00Z"));
        assertThat(Duration.ofNanos(b.next(spring) - spring)).isEqualTo(Duration.ofHours(23));
        assertThat(Duration.ofNanos(b.next(autumn) - autumn)).isEqualTo(Duration.ofHours(25));
    }

    @Test
    void negativeTimestampsSnapDown() {
        TimeBucket b = bucket("1h", "UTC");
        assertThat(b.startOf(-1)).isEqualTo(-3600 * S);
        assertThat(b.startOf(-3600 * S)).isEqualTo(-3600 * S);
        assertThat(b.next(-3600 * S)).isZero();
        assertThat(b.startOf(-3600 * S - 1)).isEqualTo(-7200 * S);
        assertThat(bucket("7ns", "UTC").startOf(-1)).isEqualTo(-7);
    }

    @Test
    void fixedWidthsSaturateAtTheEndsOfTheLongRange() {
        TimeBucket b = bucket("1h", "UTC");
        long hour = 3600 * S;
        assertThat(b.startOf(Long.MIN_VALUE)).isEqualTo(Long.MIN_VALUE);
        long firstWhole = Long.MIN_VALUE - Math.floorMod(Long.MIN_VALUE, hour) + hour;
        assertThat(b.next(Long.MIN_VALUE)).isEqualTo(firstWhole);
        long lastStart = Long.MAX_VALUE - Math.floorMod(Long.MAX_VALUE, hour);
        assertThat(b.startOf(Long.MAX_VALUE)).isEqualTo(lastStart);
        assertThat(b.next(lastStart)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void calendarWidthsSaturateAtTheEndsOfTheLongRange() {
        for (String every : List.of("1d", "1w", "1mo", "1y")) {
            TimeBucket b = bucket(every, "Europe/Berlin");
            assertThat(b.startOf(Long.MIN_VALUE)).as(every).isEqualTo(Long.MIN_VALUE);
            assertThat(b.next(Long.MIN_VALUE)).as(every).isGreaterThan(Long.MIN_VALUE);
            long last = b.startOf(Long.MAX_VALUE);
            assertThat(last).as(every).isLessThanOrEqualTo(Long.MAX_VALUE).isGreaterThan(0);
            assertThat(b.next(last)).as(every).isEqualTo(Long.MAX_VALUE);
        }
    }

    @Test
    void randomInstantsLieInTheirBucket() {
        long seed = Long.getLong("chronix.test.seed", System.nanoTime());
        Random rnd = new Random(seed);
        List<TimeBucket> buckets = List.of(bucket("1m", "UTC"), bucket("15m", "Asia/Kolkata"), bucket("1h", "UTC"),
                bucket("1d", "Europe/Berlin"), bucket("1d", "America/Sao_Paulo"), bucket("2d", "Australia/Lord_Howe"),
                bucket("1w", "America/New_York"), bucket("1mo", "Pacific/Chatham"), bucket("1y", "Europe/London"),
                TimeBucket.builder().every("1mo").origin("2024-01-31T06:00").timezone("Europe/Berlin").build());
        for (int i = 0; i < 20_000; i++) {
            TimeBucket b = buckets.get(rnd.nextInt(buckets.size()));
            long ts = rnd.nextBoolean() ? rnd.nextLong() : ns("2024-01-01T00:00:00Z") + rnd.nextLong(400L * 86_400 * S);
            long start = b.startOf(ts);
            long next = b.next(start);
            assertThat(start).as("seed=%d %s ts=%d", seed, b, ts).isLessThanOrEqualTo(ts);
            assertThat(next).as("seed=%d %s ts=%d", seed, b, ts).isGreaterThan(start);
            assertThat(ts < next || next == Long.MAX_VALUE).as("seed=%d %s ts=%d", seed, b, ts).isTrue();
            assertThat(b.startOf(start)).as("seed=%d %s ts=%d", seed, b, ts).isEqualTo(start);
        }
    }

    @Test
    void builderRefusesWhatItCannotParseNamingIt() {
        assertThatThrownBy(() -> bucket("15x", "UTC")).isInstanceOf(InvalidRollupException.class).hasMessageContaining("every=15x")
                .extracting(e -> ((InvalidRollupException) e).subject()).isEqualTo("every");
        assertThatThrownBy(() -> bucket("0m", "UTC")).isInstanceOf(InvalidRollupException.class).hasMessageContaining("every=0m");
        assertThatThrownBy(() -> bucket("", "UTC")).isInstanceOf(InvalidRollupException.class);
        assertThatThrownBy(() -> TimeBucket.builder().build()).isInstanceOf(InvalidRollupException.class).hasMessageContaining("every");
        assertThatThrownBy(() -> bucket("99999999999999999h", "UTC")).isInstanceOf(InvalidRollupException.class)
                .hasMessageContaining("every=");
        assertThatThrownBy(() -> bucket("1d", "Mars/Olympus")).isInstanceOf(InvalidRollupException.class)
                .hasMessageContaining("timezone=Mars/Olympus");
        assertThatThrownBy(() -> TimeBucket.builder().every("1d").origin("yesterday").build()).isInstanceOf(InvalidRollupException.class)
                .hasMessageContaining("origin=yesterday");
    }

    @Test
    void equalDefinitionsAreEqualAndKeepTheirParts() {
        TimeBucket a = TimeBucket.builder().every("15M").timezone("Europe/Berlin").origin("2024-01-15").build();
        TimeBucket b = TimeBucket.builder().every("15m").timezone("Europe/Berlin").origin("2024-01-15T00:00").build();
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(a.every()).isEqualTo("15m");
        assertThat(a.zone().getId()).isEqualTo("Europe/Berlin");
        assertThat(a.origin()).hasValueSatisfying(o -> assertThat(o.toString()).isEqualTo("2024-01-15T00:00"));
        assertThat(a.calendar()).isFalse();
        assertThat(bucket("1mo", "UTC").calendar()).isTrue();
    }
}
