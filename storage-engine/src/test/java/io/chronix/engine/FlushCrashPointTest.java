package io.chronix.engine;

import io.chronix.engine.model.PointBatch;
import io.chronix.engine.read.ScanRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static io.chronix.engine.EngineFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A process dying at each point of a flush — after a segment file is published, before and after
 * the catalog records the flush, before and after the WAL is truncated — loses no point and
 * stores none twice: the reopened engine answers exactly what was acknowledged.
 */
class FlushCrashPointTest {

    @TempDir
    Path dir;
    final EngineFixture fx = new EngineFixture();

    @AfterEach
    void tearDown() {
        fx.close();
    }

    private static EngineConfig config() {
        // small segments, so one flush writes several files per measurement; 1 min shards, so several shards
        return EngineFixture.config().withTargetSegmentSizeBytes(200).withShardDuration(Duration.ofMinutes(1))
                .withOooToleranceShards(100);
    }

    private static List<PointBatch> batches() {
        List<PointBatch> out = new ArrayList<>();
        for (int b = 0; b < 6; b++) {
            PointBatch.Builder builder = PointBatch.builder();
            for (int i = 0; i < 20; i++) {
                long ts = T0 + (b * 20L + i) * 7_000_000_000L; // spans several 1-minute shards
                builder.beginPoint(b % 2 == 0 ? "cpu" : "mem", ts).tag("host", "h" + (i % 3)).floatField("v", b * 100 + i).endPoint();
            }
            // an overwrite of an earlier point, field by field
            builder.beginPoint("cpu", T0).tag("host", "h0").integerField("n", b).endPoint();
            out.add(builder.build());
        }
        return out;
    }

    @ParameterizedTest(name = "crash at {0}")
    @ValueSource(strings = {"segment-written", "before-catalog-commit", "after-catalog-commit", "before-wal-truncate", "after-wal-truncate"})
    void crashDuringFlushLosesNothingAndDuplicatesNothing(String point) {
        List<String> expected;
        try (Chronix reference = fx.open(dir.resolve("reference"), config())) {
            batches().forEach(reference::write);
            expected = fx.rows(reference, ScanRequest.all("cpu"));
            expected.addAll(fx.rows(reference, ScanRequest.all("mem")));
        }
        Path ns = dir.resolve("ns");
        Chronix c = fx.open(ns, config());
        List<PointBatch> all = batches();
        all.subList(0, 3).forEach(c::write);
        c.flush(); // a first flush, so segments and a truncated WAL exist before the crash
        all.subList(3, 6).forEach(c::write);
        AtomicInteger fired = new AtomicInteger();
        c.testHook(p -> {
            if (p.equals(point)) { // every time: a background retry must not finish the flush for us
                fired.incrementAndGet();
                throw new SimulatedCrash(p);
            }
        });
        assertThatThrownBy(c::flush).satisfies(e -> assertThat(SimulatedCrash.rootOf(e)).isInstanceOf(SimulatedCrash.class));
        assertThat(fired.get()).as("the crash point was reached").isPositive();
        c.crashForTest();

        try (Chronix reopened = fx.open(ns, config())) {
            List<String> actual = fx.rows(reopened, ScanRequest.all("cpu"));
            actual.addAll(fx.rows(reopened, ScanRequest.all("mem")));
            assertThat(actual).isEqualTo(expected);
            reopened.flush();
        }
        try (Chronix again = fx.open(ns, config())) {
            List<String> actual = fx.rows(again, ScanRequest.all("cpu"));
            actual.addAll(fx.rows(again, ScanRequest.all("mem")));
            assertThat(actual).isEqualTo(expected);
            assertThat(again.memtablePoints()).isZero();
        }
    }

    @Test
    void replaySkipsExactlyWhatSegmentsHold() {
        Path ns = dir.resolve("ns");
        Chronix c = fx.open(ns, config());
        batches().forEach(c::write);
        c.testHook(p -> {
            if (p.equals("after-catalog-commit")) {
                throw new SimulatedCrash(p); // every shard's segments are recorded; the WAL floor is not raised
            }
        });
        assertThatThrownBy(c::flush).satisfies(e -> assertThat(SimulatedCrash.rootOf(e)).isInstanceOf(SimulatedCrash.class));
        c.crashForTest();
        try (Chronix reopened = fx.open(ns, config())) {
            long[] counts = reopened.replayCounts();
            assertThat(counts[0]).as("replayed").isZero();
            assertThat(counts[1]).as("skipped as already in segments").isEqualTo(6 * 21);
            reopened.flush(); // raises the catalog's WAL floor
        }
        try (Chronix reopened = fx.open(ns, config())) {
            long[] counts = reopened.replayCounts();
            assertThat(counts[0] + counts[1]).as("records below the WAL floor are not even decoded").isZero();
        }
    }
}
