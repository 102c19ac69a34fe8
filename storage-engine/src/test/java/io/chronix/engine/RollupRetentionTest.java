package io.chronix.engine;

import io.chronix.engine.catalog.SegmentEntry;
import io.chronix.engine.lifecycle.RetentionResult;
import io.chronix.engine.model.PointBatch;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.rollup.Aggregate;
import io.chronix.engine.rollup.RollupConfig;
import io.chronix.engine.rollup.TimeBucket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;

import static io.chronix.engine.EngineFixture.T0;
import static io.chronix.engine.RollupTest.HOUR;
import static io.chronix.engine.RollupTest.MINUTE;
import static org.assertj.core.api.Assertions.assertThat;

/** Retention drops a shard only once every rollup reading its measurement is materialised past the bucket holding it. */
class RollupRetentionTest {

    @TempDir
    Path dir;
    final EngineFixture fx = new EngineFixture();

    @AfterEach
    void tearDown() {
        fx.close();
    }

    @Test
    void shardsARollupStillNeedsArePreservedAndCounted() {
        try (Chronix c = fx.open(dir, RollupTest.config())) {
            for (int h = 0; h < 48; h++) {
                PointBatch.Builder b = PointBatch.builder();
                for (int m = 0; m < 60; m += 15) {
                    b.beginPoint("cpu", T0 + h * HOUR + m * MINUTE).tag("host", "a").floatField("usage", h).endPoint();
                }
                c.write(b.build());
            }
            RollupConfig daily = new RollupConfig("d", "cpu", "cpu_1d", TimeBucket.builder().every("1d").build(),
                    EnumSet.of(Aggregate.COUNT, Aggregate.SUM));
            c.addRollup(daily);
            c.flush();
            assertThat(c.segments()).hasSize(48);

            c.materialiseRollups();
            c.flush(); // the day-0 bucket leaves the memtable (a shard a memtable holds is kept whole)
            // day 0 is final (hour 46 is the out-of-order horizon), day 1 is not
            assertThat(c.rollup("d").orElseThrow().materialisedUntil()).isEqualTo(T0 + 24 * HOUR);

            RetentionResult r = c.enforceRetention(Duration.ofHours(10)); // cutoff: newest hour 47 − 10 h
            assertThat(r.shardsDropped()).as("hours 0-23").isEqualTo(24);
            assertThat(r.segmentsDeleted()).as("hours 0-23 of cpu, and the target's day-0 bucket: retention covers targets too")
                    .isEqualTo(25);
            assertThat(r.segmentsPreserved()).as("hours 24-36: past the cutoff (hour 47:45 − 10 h), but day 1 is not materialised").isEqualTo(13);
            assertThat(c.segments()).extracting(SegmentEntry::minTime).allMatch(t -> t >= T0 + 24 * HOUR);
            assertThat(fx.rowsUnordered(c, ScanRequest.all("cpu_1d"))).as("day 1, live from the preserved source")
                    .containsExactly("time=" + (T0 + 24 * HOUR) + "|host=\"a\"|usage_count=96i|usage_sum=" + (4.0 * (24 + 47) * 24 / 2));
        }
    }
}
