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
import java.util.EnumSet;
import java.util.List;

import static io.chronix.engine.EngineFixture.T0;
import static io.chronix.engine.RollupTest.HOUR;
import static io.chronix.engine.RollupTest.MINUTE;
import static org.assertj.core.api.Assertions.assertThat;

/** Tiers 1m → 1h → 1d: each reads the one below; a late write at the bottom is repaired all the way up in one pass. */
class RollupChainTest {

    static final long DAY = 24 * HOUR;

    @TempDir
    Path dir;
    final EngineFixture fx = new EngineFixture();

    @AfterEach
    void tearDown() {
        fx.close();
    }

    private static RollupConfig tier(String name, String source, String every) {
        return new RollupConfig(name, source, name, TimeBucket.builder().every(every).timezone("Europe/Berlin").build(),
                EnumSet.of(Aggregate.SUM, Aggregate.COUNT, Aggregate.MAX));
    }

    private static final List<RollupConfig> TIERS = List.of(tier("cpu_1m", "cpu", "1m"), tier("cpu_1h", "cpu_1m", "1h"),
            tier("cpu_1d", "cpu_1h", "1d"));

    private void assertTiersConsistent(Chronix c) {
        for (RollupConfig t : TIERS) {
            RollupInfo info = c.rollup(t.name()).orElseThrow();
            assertThat(info.pendingInvalid()).as(t.name()).isEmpty();
            assertThat(info.lastError()).as(t.name()).isEmpty();
            long until = info.materialisedUntil();
            try (var r = c.scanStored(ScanRequest.all(t.target()).withTimeRange(Long.MIN_VALUE, until - 1), fx.allocator, true)) {
                assertThat(RollupModel.sorted(EngineFixture.render(r))).as(t.name())
                        .isEqualTo(RollupModel.expected(c, t, Long.MIN_VALUE, until, fx.allocator)).isNotEmpty();
            }
        }
    }

    @Test
    void aLateWriteAtTheBottomIsRepairedInEveryTier() {
        try (Chronix c = fx.open(dir, RollupTest.config())) {
            for (int h = 0; h < 72; h++) {
                PointBatch.Builder b = PointBatch.builder();
                for (int m = 0; m < 60; m += 5) {
                    for (String host : List.of("a", "b")) {
                        b.beginPoint("cpu", T0 + h * HOUR + m * MINUTE).tag("host", host).floatField("usage", h + m * 0.5).endPoint();
                    }
                }
                c.write(b.build());
            }
            TIERS.forEach(c::addRollup);
            c.materialiseRollups();
            long[] watermarks = TIERS.stream().mapToLong(t -> c.rollup(t.name()).orElseThrow().materialisedUntil()).toArray();
            assertThat(watermarks[0]).isEqualTo(T0 + 69 * HOUR); // newest shard 71, two out of order
            assertThat(watermarks[1]).isEqualTo(T0 + 69 * HOUR);
            assertThat(watermarks[2]).as("the last whole Berlin day").isEqualTo(T0 + 2 * DAY - HOUR);
            assertTiersConsistent(c);

            c.write(PointBatch.builder().beginPoint("cpu", T0 + 3 * HOUR + 2 * MINUTE).tag("host", "a").floatField("usage", 1e6)
                    .endPoint().beginPoint("cpu", T0 + 3 * HOUR + 7 * MINUTE).tag("host", "c").floatField("usage", -1).endPoint()
                    .build(), WriteOptions.defaults().withBackfill(true));
            assertThat(c.rollup("cpu_1m").orElseThrow().pendingInvalid()).hasSize(2);
            var report = c.materialiseRollups();
            assertThat(report.rollups()).extracting(o -> o.name()).containsExactly("cpu_1m", "cpu_1h", "cpu_1d");
            assertThat(report.outcome("cpu_1m").orElseThrow().repairsDone()).isEqualTo(2);
            assertThat(report.outcome("cpu_1h").orElseThrow().repairsDone()).isEqualTo(1);
            assertThat(report.outcome("cpu_1d").orElseThrow().repairsDone()).isEqualTo(1);
            assertTiersConsistent(c);

            c.compact();
            c.delete().measurement("cpu").tag("host", "b").range(T0 + 10 * HOUR, T0 + 30 * HOUR).execute();
            c.materialiseRollups();
            assertTiersConsistent(c);
        }
        try (Chronix c = fx.open(dir, RollupTest.config())) {
            assertTiersConsistent(c);
            // the top tier's view is complete up to now: three Berlin days (and the hour before the first) per host, c once
            assertThat(fx.rowsUnordered(c, ScanRequest.all("cpu_1d"))).hasSize(4 * 2 + 1);
        }
    }
}
