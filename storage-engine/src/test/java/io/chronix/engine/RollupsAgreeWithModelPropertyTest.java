package io.chronix.engine;

import io.chronix.engine.model.PointBatch;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.rollup.Aggregate;
import io.chronix.engine.rollup.RollupConfig;
import io.chronix.engine.rollup.RollupInfo;
import io.chronix.engine.rollup.TimeBucket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;

import static io.chronix.engine.EngineFixture.T0;
import static io.chronix.engine.RollupTest.HOUR;
import static io.chronix.engine.RollupTest.MINUTE;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random writes (in order and late), deletes, and random interleavings of materialisation,
 * compaction, restart and retention: after every step each rollup's view equals the aggregates
 * recomputed from the surviving source rows, and after every materialisation so do its stored
 * buckets below the watermark. Seeded: {@code -Dchronix.test.seed=N} replays a run.
 */
class RollupsAgreeWithModelPropertyTest {

    @TempDir
    Path dir;
    final EngineFixture fx = new EngineFixture();

    @AfterEach
    void tearDown() {
        fx.close();
    }

    private static final List<RollupConfig> ROLLUPS = List.of(
            new RollupConfig("q", "cpu", "cpu_15m", TimeBucket.builder().every("15m").build(), EnumSet.allOf(Aggregate.class)),
            new RollupConfig("d", "cpu", "cpu_1d", TimeBucket.builder().every("1d").timezone("America/New_York").build(),
                    EnumSet.of(Aggregate.MIN, Aggregate.LAST, Aggregate.COUNT, Aggregate.AVG)));

    @Test
    void rollupsEqualTheAggregatesOfTheSurvivingSource() {
        long seed = Long.getLong("chronix.test.seed", System.nanoTime());
        Random rnd = new Random(seed);
        String ctx = "seed=" + seed;
        long newest = T0;
        long[] compareFrom = new long[ROLLUPS.size()];
        java.util.Arrays.fill(compareFrom, Long.MIN_VALUE);
        long lostBefore = Long.MIN_VALUE; // retention dropped every source row before this
        List<String> log = new ArrayList<>();
        Chronix c = fx.open(dir, RollupTest.config());
        try {
            ROLLUPS.forEach(c::addRollup);
            for (int step = 0; step < 70; step++) {
                int action = rnd.nextInt(100);
                if (action < 40) {
                    PointBatch.Builder b = PointBatch.builder();
                    for (int i = 0; i < 12; i++) {
                        newest += rnd.nextInt(7) * MINUTE + rnd.nextInt(1000);
                        b.beginPoint("cpu", newest).tag("host", "h" + rnd.nextInt(3));
                        point(b, rnd).endPoint();
                    }
                    c.write(b.build());
                    log.add("write to " + newest);
                } else if (action < 55) {
                    long floor = Math.max(T0, lostBefore);
                    long ts = floor + (long) (rnd.nextDouble() * (newest - floor));
                    PointBatch.Builder b = PointBatch.builder().beginPoint("cpu", ts).tag("host", "h" + rnd.nextInt(4));
                    c.write(point(b, rnd).endPoint().build(), WriteOptions.defaults().withBackfill(true));
                    log.add("late " + ts);
                } else if (action < 63) {
                    long a = T0 + (long) (rnd.nextDouble() * (newest - T0));
                    long e = a + rnd.nextInt(90) * MINUTE;
                    c.delete().measurement("cpu").tag("host", "h" + rnd.nextInt(3)).range(a, e).execute();
                    log.add("delete " + a + ".." + e);
                } else if (action < 78) {
                    var report = c.materialiseRollups();
                    assertThat(report.anyFailed()).as("%s %s", ctx, report).isFalse();
                    log.add("materialise");
                    for (int r = 0; r < ROLLUPS.size(); r++) {
                        assertStored(c, ROLLUPS.get(r), compareFrom[r], ctx + " " + log);
                    }
                } else if (action < 85) {
                    c.compact();
                    log.add("compact");
                } else if (action < 93) {
                    c.close();
                    c = fx.open(dir, RollupTest.config());
                    log.add("restart");
                } else {
                    List<String> before = rawTimes(c);
                    Duration retention = Duration.ofHours(10 + rnd.nextInt(20));
                    long cutoff = c.retentionCutoff(retention);
                    var result = c.enforceRetention(retention);
                    List<String> after = rawTimes(c);
                    if (result.deletedAnything()) {
                        // the source lost rows before lostBefore; targets (measurements too) lost rows before the cutoff
                        lostBefore = after.containsAll(before) ? lostBefore : after.isEmpty() ? newest : Long.parseLong(after.getFirst());
                        for (int r = 0; r < ROLLUPS.size(); r++) {
                            TimeBucket b = ROLLUPS.get(r).bucket();
                            compareFrom[r] = Math.max(compareFrom[r], Math.max(ceil(b, lostBefore), ceil(b, cutoff)));
                        }
                    }
                    log.add("retention " + result);
                }
                for (int r = 0; r < ROLLUPS.size(); r++) {
                    RollupConfig cfg = ROLLUPS.get(r);
                    List<String> view = RollupModel.sorted(fx.rowsUnordered(c,
                            ScanRequest.all(cfg.target()).withTimeRange(compareFrom[r], Long.MAX_VALUE)));
                    assertThat(view).as("%s view of %s after %s", ctx, cfg.name(), log)
                            .isEqualTo(RollupModel.expected(c, cfg, compareFrom[r], Long.MAX_VALUE, fx.allocator));
                }
            }
            c.materialiseRollups();
            for (int r = 0; r < ROLLUPS.size(); r++) {
                assertStored(c, ROLLUPS.get(r), compareFrom[r], ctx + " " + log);
            }
        } finally {
            c.close();
        }
    }

    /** A float (sometimes NaN, sometimes absent) and an int64 field; values in quarters, so sums are exact. */
    private static PointBatch.Builder point(PointBatch.Builder b, Random rnd) {
        if (rnd.nextInt(10) > 0) {
            b.floatField("usage", rnd.nextInt(9) == 0 ? Double.NaN : rnd.nextInt(400) * 0.25);
        }
        return b.integerField("n", rnd.nextInt(2000) - 1000);
    }

    /** The first bucket boundary at or after {@code t}. */
    private static long ceil(TimeBucket b, long t) {
        return b.startOf(t) == t ? t : b.next(b.startOf(t));
    }

    /** Timestamps of the surviving raw rows, ascending as numbers. */
    private List<String> rawTimes(Chronix c) {
        List<Long> ts = new ArrayList<>();
        for (String row : fx.rowsUnordered(c, ScanRequest.all("cpu").withColumns("time"))) {
            ts.add(Long.parseLong(row.substring("time=".length())));
        }
        ts.sort(null);
        return ts.stream().map(String::valueOf).toList();
    }

    private void assertStored(Chronix c, RollupConfig cfg, long from, String ctx) {
        RollupInfo info = c.rollup(cfg.name()).orElseThrow();
        assertThat(info.pendingInvalid()).as(ctx).isEmpty();
        long until = info.materialisedUntil();
        if (until == Long.MIN_VALUE || until <= from) {
            return;
        }
        try (var r = c.scanStored(ScanRequest.all(cfg.target()).withTimeRange(from, until - 1), fx.allocator, true)) {
            assertThat(RollupModel.sorted(EngineFixture.render(r))).as("%s stored %s below %d", ctx, cfg.name(), until)
                    .isEqualTo(RollupModel.expected(c, cfg, from, until, fx.allocator));
        }
    }

}
