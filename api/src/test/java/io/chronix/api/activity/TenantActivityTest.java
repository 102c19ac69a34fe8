package io.chronix.api.activity;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

class TenantActivityTest {

    /** A clock the test moves. */
    static final class TestClock extends Clock {
        Instant now = Instant.parse("2026-12-01T12:00:00Z");

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    final TestClock clock = new TestClock();
    final TenantActivity activity = new TenantActivity(clock);
    final UUID tenant = UUID.randomUUID();

    @Test
    void pointsLandInTheirFiveMinuteBucketAndADayLaterAreGone() {
        activity.wrote(tenant, 10);
        clock.now = clock.now.plus(Duration.ofMinutes(7));
        activity.wrote(tenant, 5);
        TenantActivity.Snapshot s = activity.snapshot(tenant);
        assertThat(s.buckets()).hasSize(288);
        assertThat(s.buckets().getLast()).isEqualTo(new TenantActivity.Bucket(Instant.parse("2026-12-01T12:05:00Z"), 5));
        assertThat(s.buckets().get(286)).isEqualTo(new TenantActivity.Bucket(Instant.parse("2026-12-01T12:00:00Z"), 10));
        assertThat(s.buckets().stream().mapToLong(TenantActivity.Bucket::points).sum()).isEqualTo(15);

        clock.now = clock.now.plus(Duration.ofHours(24));
        activity.wrote(tenant, 1); // reuses the slot of a day ago
        assertThat(activity.snapshot(tenant).buckets().stream().mapToLong(TenantActivity.Bucket::points).sum()).isEqualTo(1);
    }

    @Test
    void theRateIsTheLastSixtyWholeSeconds() {
        for (int i = 0; i < 120; i++) {
            activity.wrote(tenant, 60);
            clock.now = clock.now.plusSeconds(1);
        }
        assertThat(activity.snapshot(tenant).pointsPerSecond()).isEqualTo(60.0);
        activity.wrote(tenant, 1_000_000); // the second still filling does not count yet
        assertThat(activity.snapshot(tenant).pointsPerSecond()).isEqualTo(60.0);
        clock.now = clock.now.plusSeconds(1);
        assertThat(activity.snapshot(tenant).pointsPerSecond()).isEqualTo((59 * 60 + 1_000_000) / 60.0);
        clock.now = clock.now.plusSeconds(60);
        assertThat(activity.snapshot(tenant).pointsPerSecond()).isZero();
    }

    @Test
    void limitEventsAreNewestFirstBoundedAndOnlyOfTheLastDay() {
        activity.limited(tenant, "maxSeries", "quota-max-series", 422);
        clock.now = clock.now.plus(Duration.ofHours(23));
        for (int i = 0; i < TenantActivity.MAX_EVENTS - 1; i++) {
            activity.limited(tenant, "maxIngestPointsPerSecond", "quota-max-ingest-rate", 429);
        }
        TenantActivity.Snapshot s = activity.snapshot(tenant);
        assertThat(s.events()).hasSize(TenantActivity.MAX_EVENTS);
        assertThat(s.events().getLast().limit()).isEqualTo("maxSeries");
        assertThat(s.events().getFirst().status()).isEqualTo(429);
        clock.now = clock.now.plus(Duration.ofHours(2));
        assertThat(activity.snapshot(tenant).events()).hasSize(TenantActivity.MAX_EVENTS - 1);
        activity.limited(tenant, "maxRequestBytes", "quota-max-request-bytes", 413);
        assertThat(activity.snapshot(tenant).events()).hasSize(TenantActivity.MAX_EVENTS).first()
                .extracting(TenantActivity.LimitEvent::status).isEqualTo(413);
    }

    @Test
    void aTenantThatNeverWroteHasADayOfEmptyBuckets() {
        TenantActivity.Snapshot s = activity.snapshot(UUID.randomUUID());
        assertThat(s.buckets()).hasSize(288).allMatch(b -> b.points() == 0);
        assertThat(s.events()).isEmpty();
    }
}
