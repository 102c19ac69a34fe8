package io.chronix.api.activity;

import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per tenant, in memory: points written in five-minute buckets over the last 24 hours, per second
 * over the last minute (the ingest rate), and the last {@value #MAX_EVENTS} write requests refused
 * by a quota within the day. A bucket is a ring slot tagged with the bucket's number since the
 * epoch, so a slot last written a day ago reads as empty without any sweeping.
 *
 * <p>Bounded: 288 + 60 slots and at most {@value #MAX_EVENTS} events per tenant that wrote since
 * the process started. Per process: a restart starts empty, and in a cluster each node knows only
 * the writes it served.
 */
@Component
public class TenantActivity {

    public static final Duration BUCKET = Duration.ofMinutes(5);
    public static final Duration WINDOW = Duration.ofHours(24);
    static final int BUCKETS = (int) (WINDOW.toSeconds() / BUCKET.toSeconds());
    static final int RATE_SECONDS = 60;
    /** One more slot than the rate spans: the second now filling must not overwrite the oldest one read. */
    private static final int SECOND_SLOTS = RATE_SECONDS + 1;
    static final int MAX_EVENTS = 500;

    /** A write request a quota refused. */
    public record LimitEvent(Instant at, String limit, String errorId, int status) {
    }

    /** One five-minute bucket: its start and the points written in it. */
    public record Bucket(Instant start, long points) {
    }

    /** The day's buckets (oldest first, empty ones included), the last minute's rate, the events (newest first). */
    public record Snapshot(List<Bucket> buckets, double pointsPerSecond, List<LimitEvent> events) {
    }

    private static final class Ring {
        final long[] bucketNo = new long[BUCKETS];
        final long[] points = new long[BUCKETS];
        final long[] secondNo = new long[SECOND_SLOTS];
        final long[] perSecond = new long[SECOND_SLOTS];
        final ArrayDeque<LimitEvent> events = new ArrayDeque<>();
    }

    private final Clock clock;
    private final Map<UUID, Ring> tenants = new ConcurrentHashMap<>();

    public TenantActivity() {
        this(Clock.systemUTC());
    }

    TenantActivity(Clock clock) {
        this.clock = clock;
    }

    /** {@code points} were written for the tenant now. */
    public void wrote(UUID tenant, long points) {
        long millis = clock.millis();
        long bucket = millis / BUCKET.toMillis();
        long second = millis / 1000;
        Ring r = tenants.computeIfAbsent(tenant, t -> new Ring());
        synchronized (r) {
            int i = (int) Math.floorMod(bucket, BUCKETS);
            if (r.bucketNo[i] != bucket) {
                r.bucketNo[i] = bucket;
                r.points[i] = 0;
            }
            r.points[i] += points;
            int s = (int) Math.floorMod(second, SECOND_SLOTS);
            if (r.secondNo[s] != second) {
                r.secondNo[s] = second;
                r.perSecond[s] = 0;
            }
            r.perSecond[s] += points;
        }
    }

    /** A quota refused one of the tenant's write requests now. */
    public void limited(UUID tenant, String limit, String errorId, int status) {
        Instant now = clock.instant();
        Ring r = tenants.computeIfAbsent(tenant, t -> new Ring());
        synchronized (r) {
            r.events.addFirst(new LimitEvent(now, limit, errorId, status));
            while (r.events.size() > MAX_EVENTS) {
                r.events.removeLast();
            }
        }
    }

    public Snapshot snapshot(UUID tenant) {
        long millis = clock.millis();
        long lastBucket = millis / BUCKET.toMillis();
        long lastSecond = millis / 1000;
        Instant dayAgo = Instant.ofEpochMilli(millis).minus(WINDOW);
        List<Bucket> buckets = new ArrayList<>(BUCKETS);
        Ring r = tenants.get(tenant);
        if (r == null) {
            for (long b = lastBucket - BUCKETS + 1; b <= lastBucket; b++) {
                buckets.add(new Bucket(Instant.ofEpochMilli(b * BUCKET.toMillis()), 0));
            }
            return new Snapshot(buckets, 0, List.of());
        }
        synchronized (r) {
            for (long b = lastBucket - BUCKETS + 1; b <= lastBucket; b++) {
                int i = (int) Math.floorMod(b, BUCKETS);
                buckets.add(new Bucket(Instant.ofEpochMilli(b * BUCKET.toMillis()), r.bucketNo[i] == b ? r.points[i] : 0));
            }
            long sum = 0;
            // the current second is still filling: the rate is over the 60 whole seconds before it
            for (long s = lastSecond - RATE_SECONDS; s < lastSecond; s++) {
                int i = (int) Math.floorMod(s, SECOND_SLOTS);
                sum += r.secondNo[i] == s ? r.perSecond[i] : 0;
            }
            List<LimitEvent> events = new ArrayList<>();
            for (Iterator<LimitEvent> it = r.events.iterator(); it.hasNext(); ) {
                LimitEvent e = it.next();
                if (e.at().isBefore(dayAgo)) {
                    break;
                }
                events.add(e);
            }
            return new Snapshot(buckets, sum / (double) RATE_SECONDS, events);
        }
    }
}
