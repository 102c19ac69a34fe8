package io.chronix.engine;

import io.chronix.engine.error.ShardOutOfRangeException;
import io.chronix.engine.model.PointBatch;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.rollup.Aggregate;
import io.chronix.engine.rollup.InvalidRollupException;
import io.chronix.engine.rollup.MaterialiseReport;
import io.chronix.engine.rollup.RollupConfig;
import io.chronix.engine.rollup.RollupInfo;
import io.chronix.engine.rollup.TimeBucket;
import io.chronix.engine.rollup.TimeRange;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import static io.chronix.engine.EngineFixture.SECOND;
import static io.chronix.engine.EngineFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Rollups through the engine: definitions in the catalog, materialisation, invalidation, the view, backfill. */
class RollupTest {

    static final long MINUTE = 60 * SECOND;
    static final long HOUR = 60 * MINUTE;

    @TempDir
    Path dir;
    final EngineFixture fx = new EngineFixture();

    @AfterEach
    void tearDown() {
        fx.close();
    }

    /** 1 h shards, 2 shards out of order, the clock 30 days after T0 (so points up to then are accepted). */
    static EngineConfig config() {
        return EngineFixture.config().withMaintenanceInterval(Duration.ZERO)
                .withClock(Clock.fixed(Instant.ofEpochSecond(T0 / SECOND).plus(Duration.ofDays(30)), ZoneOffset.UTC));
    }

    static RollupConfig tenMinutes(String name, String source, String target) {
        return new RollupConfig(name, source, target, TimeBucket.builder().every("10m").build(), EnumSet.allOf(Aggregate.class));
    }

    /** Points of hosts a and b every minute of hours {@code [fromHour, toHour)}: a float (with NaN), an int64 and a uint64 field. */
    static void writeHours(Chronix c, int fromHour, int toHour) {
        for (int h = fromHour; h < toHour; h++) {
            PointBatch.Builder b = PointBatch.builder();
            for (String host : List.of("a", "b")) {
                for (int m = 0; m < 60; m++) {
                    long ts = T0 + h * HOUR + m * MINUTE;
                    double v = m % 17 == 0 ? Double.NaN : (h * 60 + m) * 0.25;
                    b.beginPoint("cpu", ts).tag("host", host).floatField("usage", v).integerField("n", m - 30)
                            .unsignedField("bytes", -1L - m).endPoint();
                }
            }
            c.write(b.build());
        }
    }

    /** The target's materialised rows (no view), sorted. */
    private List<String> storedRows(Chronix c, String target) {
        try (var r = c.scanStored(ScanRequest.all(target), fx.allocator, true)) {
            return RollupModel.sorted(EngineFixture.render(r));
        }
    }

    private List<String> targetRows(Chronix c, String target) {
        return RollupModel.sorted(fx.rowsUnordered(c, ScanRequest.all(target)));
    }

    @Test
    void definitionsAndStateSurviveARestart() {
        RollupConfig cfg = new RollupConfig("cpu_1h", "cpu", "cpu_1h",
                TimeBucket.builder().every("1h").timezone("Europe/Berlin").origin("2024-01-15").build(), Set.of(Aggregate.AVG, Aggregate.MAX));
        try (Chronix c = fx.open(dir, config())) {
            writeHours(c, 0, 6);
            RollupInfo added = c.addRollup(cfg);
            assertThat(added.materialisedUntil()).isEqualTo(Long.MIN_VALUE);
            c.materialiseRollups();
            c.refreshRollup("cpu_1h", T0 + HOUR + 5, T0 + HOUR + 10);
            assertThat(c.rollup("cpu_1h").orElseThrow().pendingInvalid()).containsExactly(new TimeRange(T0 + HOUR, T0 + 2 * HOUR));
        }
        try (Chronix c = fx.open(dir, config())) {
            RollupInfo info = c.rollup("cpu_1h").orElseThrow();
            assertThat(info.config()).isEqualTo(cfg);
            assertThat(info.materialisedUntil()).isEqualTo(T0 + 3 * HOUR); // newest shard 5, two out of order: final before hour 3
            assertThat(info.pendingInvalid()).containsExactly(new TimeRange(T0 + HOUR, T0 + 2 * HOUR));
            assertThat(c.rollupsForSource("cpu")).extracting(RollupInfo::name).containsExactly("cpu_1h");
            assertThat(c.removeRollup("cpu_1h")).isTrue();
            assertThat(c.removeRollup("cpu_1h")).isFalse();
        }
        try (Chronix c = fx.open(dir, config())) {
            assertThat(c.rollups()).isEmpty();
            assertThat(fx.rowsUnordered(c, ScanRequest.all("cpu_1h"))).as("the target keeps its points").hasSize(6);
        }
    }

    @Test
    void duplicatesCyclesAndTargetsOfAnotherShapeAreRefused() {
        try (Chronix c = fx.open(dir, config())) {
            writeHours(c, 0, 1);
            c.write(PointBatch.builder().beginPoint("other", T0).tag("usage_avg", "x").floatField("v", 1).endPoint().build());
            c.addRollup(tenMinutes("r1", "cpu", "cpu_10m"));
            assertThatThrownBy(() -> c.addRollup(tenMinutes("r1", "cpu", "elsewhere"))).isInstanceOf(InvalidRollupException.class)
                    .hasMessageContaining("name=r1");
            assertThatThrownBy(() -> c.addRollup(tenMinutes("r2", "mem", "cpu_10m"))).isInstanceOf(InvalidRollupException.class)
                    .hasMessageContaining("target=cpu_10m");
            c.addRollup(tenMinutes("r3", "cpu_10m", "cpu_1h"));
            assertThatThrownBy(() -> c.addRollup(tenMinutes("r4", "cpu_1h", "cpu"))).isInstanceOf(InvalidRollupException.class)
                    .hasMessageContaining("feed itself");
            assertThatThrownBy(() -> c.addRollup(tenMinutes("r5", "cpu", "other"))).isInstanceOf(InvalidRollupException.class)
                    .hasMessageContaining("another shape");
            assertThatThrownBy(() -> new RollupConfig("bad name", "cpu", "x", TimeBucket.builder().every("1m").build(),
                    Set.of(Aggregate.AVG))).isInstanceOf(InvalidRollupException.class).hasMessageContaining("name=bad name");
            assertThatThrownBy(() -> new RollupConfig("n", "cpu", "cpu", TimeBucket.builder().every("1m").build(), Set.of(Aggregate.AVG)))
                    .isInstanceOf(InvalidRollupException.class).hasMessageContaining("target=cpu");
            assertThatThrownBy(() -> new RollupConfig("n", "cpu", "x", TimeBucket.builder().every("1m").build(), Set.of()))
                    .isInstanceOf(InvalidRollupException.class).hasMessageContaining("aggregates");
            assertThatThrownBy(() -> c.refreshRollup("nope", 0, 1)).isInstanceOf(InvalidRollupException.class);
            assertThat(c.rollups()).extracting(RollupInfo::name).containsExactly("r1", "r3");
        }
    }

    @Test
    void materialisationWritesTheAggregatesOfFinalBuckets() {
        try (Chronix c = fx.open(dir, config())) {
            writeHours(c, 0, 6);
            RollupConfig cfg = tenMinutes("r", "cpu", "cpu_10m");
            c.addRollup(cfg);
            MaterialiseReport report = c.materialiseRollups();
            MaterialiseReport.Outcome o = report.outcome("r").orElseThrow();
            assertThat(o.failure()).isEmpty();
            assertThat(o.materialisedUntil()).isEqualTo(T0 + 3 * HOUR);
            assertThat(o.sourceRowsRead()).isEqualTo(3 * 60 * 2);
            assertThat(o.bucketsWritten()).isEqualTo(3 * 6 * 2);
            List<String> stored = storedRows(c, "cpu_10m");
            assertThat(stored).isEqualTo(RollupModel.expected(c, cfg, Long.MIN_VALUE, T0 + 3 * HOUR, fx.allocator));
            assertThat(stored.getFirst()).contains("usage_count=9i").contains("n_min=-30i").contains("bytes_max=18446744073709551615u");
            // the view adds the live half: every bucket up to now
            assertThat(targetRows(c, "cpu_10m")).isEqualTo(RollupModel.expected(c, cfg, Long.MIN_VALUE, Long.MAX_VALUE, fx.allocator))
                    .hasSize(6 * 6 * 2);
            assertThat(c.materialiseRollups().outcome("r").orElseThrow().bucketsWritten()).as("nothing new is final").isZero();
            // the row count the SQL layer's count(*) shortcut asks for is the view's, live half included
            c.flush();
            assertThat(c.countRows(ScanRequest.all("cpu_10m"), fx.allocator)).isEqualTo(6 * 6 * 2);
            assertThat(c.countRows(ScanRequest.all("cpu"), fx.allocator)).isEqualTo(6 * 60 * 2);
        }
    }

    @Test
    void lateWritesDeletesAndRefreshesAreRepaired() {
        try (Chronix c = fx.open(dir, config())) {
            writeHours(c, 0, 6);
            RollupConfig cfg = tenMinutes("r", "cpu", "cpu_10m");
            c.addRollup(cfg);
            c.materialiseRollups();
            // late, inside the out-of-order window? hour 3 is; hour 1 needs backfill
            c.write(PointBatch.builder().beginPoint("cpu", T0 + HOUR + 5 * MINUTE + 1).tag("host", "a").floatField("usage", 1000)
                    .endPoint().build(), WriteOptions.defaults().withBackfill(true));
            assertThat(c.rollup("r").orElseThrow().pendingInvalid()).containsExactly(new TimeRange(T0 + HOUR, T0 + HOUR + 10 * MINUTE));
            c.delete().measurement("cpu").tag("host", "b").range(T0 + 2 * HOUR, T0 + 2 * HOUR + 15 * MINUTE).execute();
            assertThat(c.rollup("r").orElseThrow().pendingInvalid()).hasSize(2);
            assertThat(targetRows(c, "cpu_10m")).as("the view answers pending ranges from the source")
                    .isEqualTo(RollupModel.expected(c, cfg, Long.MIN_VALUE, Long.MAX_VALUE, fx.allocator));
            MaterialiseReport.Outcome o = c.materialiseRollups().outcome("r").orElseThrow();
            assertThat(o.repairsDone()).isEqualTo(2);
            assertThat(c.rollup("r").orElseThrow().pendingInvalid()).isEmpty();
            assertThat(storedRows(c, "cpu_10m")).isEqualTo(RollupModel.expected(c, cfg, Long.MIN_VALUE, T0 + 3 * HOUR, fx.allocator));
        }
    }

    @Test
    void backfillStaysInsideTheRetention() {
        try (Chronix c = fx.open(dir, config())) {
            writeHours(c, 24, 25);
            PointBatch old = PointBatch.builder().beginPoint("cpu", T0).tag("host", "a").floatField("usage", 1).endPoint().build();
            assertThatThrownBy(() -> c.write(old)).isInstanceOf(ShardOutOfRangeException.class);
            assertThatThrownBy(() -> c.write(old, WriteOptions.defaults().withBackfill(true).withRetention(Duration.ofHours(12))))
                    .isInstanceOf(ShardOutOfRangeException.class);
            c.write(old, WriteOptions.defaults().withBackfill(true).withRetention(Duration.ofDays(2)));
            c.write(old, WriteOptions.defaults().withBackfill(true));
            assertThat(fx.rows(c, ScanRequest.all("cpu").withTimeRange(T0, T0))).hasSize(1);
        }
    }
}
