package io.chronix.engine;

import io.chronix.engine.lifecycle.DeleteResult;
import io.chronix.engine.model.PointBatch;
import io.chronix.engine.read.LastPoint;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.read.TagPredicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import static io.chronix.engine.EngineFixture.SECOND;
import static io.chronix.engine.EngineFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Deletes (seed 001 "Delete Operations"): tombstones that never let a deleted point back, and nothing more. */
class DeleteTest {

    @TempDir
    Path dir;
    final EngineFixture fx = new EngineFixture();

    @AfterEach
    void tearDown() {
        fx.close();
    }

    /** {@code hosts} series of cpu, {@code points} points each, one second apart from T0, value = index. */
    private static PointBatch cpu(int hosts, int points, long offsetSeconds) {
        PointBatch.Builder b = PointBatch.builder();
        for (int h = 0; h < hosts; h++) {
            for (int i = 0; i < points; i++) {
                b.beginPoint("cpu", T0 + (offsetSeconds + i) * SECOND).tag("host", "h" + h).floatField("v", i).endPoint();
            }
        }
        return b.build();
    }

    private List<String> host(Chronix c, String host) {
        return fx.rows(c, new ScanRequest("cpu", List.of("time", "v"), Long.MIN_VALUE, Long.MAX_VALUE,
                List.of(new TagPredicate.Eq("host", host))));
    }

    private static String row(long second, double v) {
        return "time=" + (T0 + second * SECOND) + "|v=" + v;
    }

    @Test
    void deletedPointsNeverComeBackAfterFlushRestartAndFurtherWrites() {
        Path ns = dir.resolve("ns");
        List<String> h1Before;
        try (Chronix c = fx.open(ns)) {
            c.write(cpu(2, 10, 0));
            c.flush();
            c.write(cpu(2, 10, 10)); // a second segment, and points still in the memtable at delete time
            h1Before = host(c, "h1");
            DeleteResult r = c.delete().measurement("cpu").tag("host", "h0").range(T0 + 5 * SECOND, T0 + 14 * SECOND).execute();
            assertThat(r.seriesDeleted()).isEqualTo(1);
            assertThat(r.pointsDeleted()).isEqualTo(10);
            assertThat(r.tombstones()).isEqualTo(1);
            assertThat(host(c, "h0")).hasSize(10).doesNotContain(row(5, 5.0), row(14, 4.0)).contains(row(4, 4.0), row(15, 5.0));
            assertThat(host(c, "h1")).isEqualTo(h1Before);
            c.write(cpu(1, 3, 20)); // further writes of the series, after the deleted range
            c.flush();
            assertThat(host(c, "h0")).hasSize(13).doesNotContain(row(5, 5.0));
        }
        try (Chronix c = fx.open(ns)) {
            assertThat(host(c, "h0")).as("after restart").hasSize(13).doesNotContain(row(5, 5.0), row(14, 4.0));
            assertThat(host(c, "h1")).isEqualTo(h1Before);
            assertThat(c.tombstones()).hasSize(1);
            c.write(cpu(1, 2, 30));
        }
        try (Chronix c = fx.open(ns)) { // the last writes only in the WAL: replayed, not masked
            assertThat(host(c, "h0")).hasSize(15).contains(row(30, 0.0), row(31, 1.0)).doesNotContain(row(5, 5.0));
        }
    }

    @Test
    void compactionAppliesTombstonesAndTheyAreCollectedOnceTheirSegmentsAreGone() {
        Path ns = dir.resolve("ns");
        List<String> expected;
        try (Chronix c = fx.open(ns)) {
            for (int round = 0; round < 3; round++) {
                c.write(cpu(2, 10, round * 10L));
                c.flush();
            }
            assertThat(c.segmentCount()).isEqualTo(3);
            c.delete().measurement("cpu").tag("host", "h0").range(T0 + 5 * SECOND, T0 + 24 * SECOND).execute();
            expected = fx.rows(c, ScanRequest.all("cpu"));
            assertThat(expected).hasSize(60 - 20);
            assertThat(c.tombstones()).hasSize(1);
            var r = c.compact();
            assertThat(r.segmentsIn()).isEqualTo(3);
            assertThat(r.rowsOut()).as("deleted rows are dropped in the merge").isEqualTo(40);
            assertThat(c.segmentCount()).isEqualTo(1);
            assertThat(fx.rows(c, ScanRequest.all("cpu"))).isEqualTo(expected);
            assertThat(c.tombstones()).as("every segment it was issued against is gone").isEmpty();
            c.write(cpu(1, 3, 5)); // later writes at deleted timestamps, then compacted with the rest
            c.flush();
            c.compact();
            assertThat(host(c, "h0")).hasSize(10 + 3).contains(row(5, 0.0), row(7, 2.0));
            expected = fx.rows(c, ScanRequest.all("cpu"));
        }
        try (Chronix c = fx.open(ns)) {
            assertThat(fx.rows(c, ScanRequest.all("cpu"))).as("after restart").isEqualTo(expected);
            assertThat(c.tombstones()).isEmpty();
        }
    }

    @Test
    void aggregatesNeverCountDeletedPointsFromSummaries() {
        try (Chronix c = fx.open(dir.resolve("ns"))) {
            c.write(cpu(2, 10, 0));
            c.flush();
            c.write(cpu(2, 10, 10));
            c.flush();
            var request = new io.chronix.engine.read.AggregateRequest("cpu", "v", T0 - SECOND, T0 + 100 * SECOND,
                    List.of(new TagPredicate.Eq("host", "h0")));
            assertThat(c.aggregate(request, fx.allocator).series().getFirst().aggregate().count()).isEqualTo(20);
            c.delete().measurement("cpu").tag("host", "h0").range(T0 + 5 * SECOND, T0 + 14 * SECOND).execute();
            var r = c.aggregate(request, fx.allocator);
            assertThat(r.series().getFirst().aggregate().count()).isEqualTo(10);
            assertThat(r.series().getFirst().aggregate().count())
                    .isEqualTo(c.aggregate(request.withoutSummaries(), fx.allocator).series().getFirst().aggregate().count());
        }
    }

    @Test
    void theUnorderedScanMasksDeletedRowsToo() {
        try (Chronix c = fx.open(dir.resolve("ns"))) {
            c.write(cpu(2, 10, 0));
            c.flush();
            c.write(cpu(2, 10, 10));
            c.flush();
            c.write(cpu(2, 10, 20));
            c.flush(); // three segments, disjoint in time: all settled, passed through unmerged
            c.delete().measurement("cpu").tag("host", "h0").range(T0 + 5 * SECOND, T0 + 14 * SECOND).execute();
            List<String> ordered = new java.util.ArrayList<>(fx.rows(c, ScanRequest.all("cpu")));
            List<String> unordered;
            try (var r = c.scanUnordered(ScanRequest.all("cpu"), fx.allocator)) {
                unordered = new java.util.ArrayList<>(EngineFixture.render(r));
                assertThat(r.settledSegments()).as("the untouched segment still goes the fast way").isEqualTo(1);
            }
            assertThat(ordered).hasSize(60 - 10);
            java.util.Collections.sort(ordered);
            java.util.Collections.sort(unordered);
            assertThat(unordered).isEqualTo(ordered);
        }
    }

    @Test
    void theTombstoneEndsAtTheNewestStoredPointSoALaterWriteOfTheSeriesSurvives() {
        try (Chronix c = fx.open(dir.resolve("ns"))) {
            c.write(cpu(1, 10, 0));
            DeleteResult r = c.deleteSeries("cpu", Map.of("host", "h0"));
            assertThat(r.pointsDeleted()).isEqualTo(10);
            assertThat(c.tombstones()).singleElement().satisfies(t -> {
                assertThat(t.end()).as("not forever").isEqualTo(T0 + 9 * SECOND);
                assertThat(t.start()).isEqualTo(Long.MIN_VALUE);
            });
            assertThat(host(c, "h0")).isEmpty();
            // a later write, both after the old newest point and at a deleted timestamp: both stay
            PointBatch.Builder b = PointBatch.builder();
            b.beginPoint("cpu", T0 + 100 * SECOND).tag("host", "h0").floatField("v", 42).endPoint();
            b.beginPoint("cpu", T0 + 3 * SECOND).tag("host", "h0").floatField("v", 7).endPoint();
            c.write(b.build());
            assertThat(host(c, "h0")).containsExactly(row(3, 7.0), row(100, 42.0));
            c.flush();
            assertThat(host(c, "h0")).containsExactly(row(3, 7.0), row(100, 42.0));
        }
        try (Chronix c = fx.open(dir.resolve("ns"))) {
            assertThat(host(c, "h0")).containsExactly(row(3, 7.0), row(100, 42.0));
        }
    }

    @Test
    void aDryRunCountsExactlyWhatTheDeleteThenRemovesAndChangesNothing() {
        long seed = Long.getLong("chronix.test.seed", new Random().nextLong());
        System.out.println("DeleteTest dry-run seed: " + seed + " (rerun with -Dchronix.test.seed=" + seed + ")");
        Random rnd = new Random(seed);
        try (Chronix c = fx.open(dir.resolve("ns"), EngineFixture.config().withTargetSegmentSizeBytes(300))) {
            for (int round = 0; round < 5; round++) {
                PointBatch.Builder b = PointBatch.builder();
                for (int i = 0; i < 60; i++) {
                    b.beginPoint("cpu", T0 + rnd.nextInt(120) * SECOND).tag("host", "h" + rnd.nextInt(4))
                            .tag("dc", rnd.nextBoolean() ? "eu" : "us").floatField("v", rnd.nextInt(100)).endPoint();
                }
                c.write(b.build());
                if (rnd.nextBoolean()) {
                    c.flush();
                }
            }
            for (int d = 0; d < 4; d++) {
                long from = T0 + rnd.nextInt(60) * SECOND;
                long to = from + rnd.nextInt(60) * SECOND;
                String dc = rnd.nextBoolean() ? "eu" : "us";
                long before = fx.rows(c, ScanRequest.all("cpu")).size();
                List<String> snapshot = fx.rows(c, ScanRequest.all("cpu"));
                DeleteResult dry = c.delete().measurement("cpu").tag("dc", dc).range(from, to).dryRun().execute();
                assertThat(dry.dryRun()).isTrue();
                assertThat(dry.tombstones()).isZero();
                assertThat(fx.rows(c, ScanRequest.all("cpu"))).as("a dry run changes nothing").isEqualTo(snapshot);
                DeleteResult real = c.delete().measurement("cpu").tag("dc", dc).range(from, to).execute();
                long after = fx.rows(c, ScanRequest.all("cpu")).size();
                assertThat(real.pointsDeleted()).isEqualTo(dry.pointsDeleted()).isEqualTo(before - after);
                assertThat(real.seriesDeleted()).isEqualTo(dry.seriesDeleted());
                assertThat(real.seriesReleased()).isEqualTo(dry.seriesReleased());
                DeleteResult again = c.delete().measurement("cpu").tag("dc", dc).range(from, to).dryRun().execute();
                assertThat(again.pointsDeleted()).as("nothing left to delete").isZero();
            }
        }
    }

    @Test
    void deleteEvictsTheLastValueAndLastValueFallsBackToWhatRemains() {
        try (Chronix c = fx.open(dir.resolve("ns"))) {
            c.write(cpu(1, 10, 0));
            assertThat(c.lastValue("cpu", Map.of("host", "h0"), fx.allocator)).map(LastPoint::timestamp).contains(T0 + 9 * SECOND);
            c.delete().measurement("cpu").tag("host", "h0").range(T0 + 8 * SECOND, T0 + 20 * SECOND).execute();
            Optional<LastPoint> last = c.lastValue("cpu", Map.of("host", "h0"), fx.allocator);
            assertThat(last).map(LastPoint::timestamp).contains(T0 + 7 * SECOND);
            assertThat(last.orElseThrow().fields()).containsEntry("v", 7.0);
            c.deleteSeries("cpu", Map.of("host", "h0"));
            assertThat(c.lastValue("cpu", Map.of("host", "h0"), fx.allocator)).isEmpty();
            PointBatch.Builder b = PointBatch.builder();
            b.beginPoint("cpu", T0 + 2 * SECOND).tag("host", "h0").floatField("v", 99).endPoint();
            c.write(b.build());
            assertThat(c.lastValue("cpu", Map.of("host", "h0"), fx.allocator)).map(LastPoint::timestamp).contains(T0 + 2 * SECOND);
        }
    }

    @Test
    void cardinalityIsReleasedOnlyWhenASeriesGoesWholeAndCountsAgainWhenWritten() {
        try (Chronix c = fx.open(dir.resolve("ns"))) {
            c.write(cpu(3, 10, 0));
            assertThat(c.seriesCount()).isEqualTo(3);
            DeleteResult partial = c.delete().measurement("cpu").tag("host", "h0").range(T0, T0 + 4 * SECOND).execute();
            assertThat(partial.seriesReleased()).isZero();
            assertThat(c.seriesCount()).isEqualTo(3);
            DeleteResult whole = c.delete().measurement("cpu").tag("host", "h1").execute();
            assertThat(whole.seriesReleased()).isEqualTo(1);
            assertThat(c.seriesCount()).isEqualTo(2);
            assertThat(c.newSeriesCount(cpu(2, 1, 50))).as("a released series is new to a quota check").isEqualTo(1);
            c.write(cpu(2, 1, 50));
            assertThat(c.seriesCount()).isEqualTo(3);
            assertThat(c.repairLiveSeries()).isEqualTo(3);
            c.deleteSeries("cpu", Map.of("host", "h2"));
            assertThat(c.seriesCount()).isEqualTo(2);
        }
        try (Chronix c = fx.open(dir.resolve("ns"))) {
            assertThat(c.seriesCount()).as("after restart, a wholly deleted series is not counted").isEqualTo(2);
        }
    }

    @Test
    void deleteSeriesTakesExactlyThatSeriesNotTheOnesThatCarryMoreTags() {
        try (Chronix c = fx.open(dir.resolve("ns"))) {
            PointBatch.Builder b = PointBatch.builder();
            b.beginPoint("cpu", T0).tag("host", "a").floatField("v", 1).endPoint();
            b.beginPoint("cpu", T0).tag("host", "a").tag("rack", "r1").floatField("v", 2).endPoint();
            b.beginPoint("cpu", T0).tag("host", "b").floatField("v", 3).endPoint();
            c.write(b.build());
            assertThat(c.deleteSeries("cpu", Map.of("host", "a")).seriesDeleted()).isEqualTo(1);
            assertThat(fx.rows(c, ScanRequest.all("cpu"))).containsExactly(
                    "time=" + T0 + "|host=\"a\"|rack=\"r1\"|v=2.0", "time=" + T0 + "|host=\"b\"|rack=<null>|v=3.0");
            assertThat(c.delete().measurement("cpu").tag("host", "a").execute().seriesDeleted()).as("the builder matches supersets")
                    .isEqualTo(1);
            assertThat(fx.rows(c, ScanRequest.all("cpu"))).containsExactly("time=" + T0 + "|host=\"b\"|rack=<null>|v=3.0");
            assertThat(c.delete().measurement("nope").execute().seriesDeleted()).isZero();
            assertThat(c.delete().measurement("cpu").tag("zone", "x").execute().seriesDeleted()).isZero();
        }
    }

    @Test
    void aBadRequestIsRefusedAtTheEdge() {
        try (Chronix c = fx.open(dir.resolve("ns"))) {
            assertThatThrownBy(() -> c.delete().tag("host", "a").execute()).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("measurement");
            assertThatThrownBy(() -> c.delete().measurement("cpu").range(5, 4).execute()).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("start=5").hasMessageContaining("end=4");
        }
    }

    @Test
    void aWalTombstoneRecordIsRefusedAtReplayBecauseDeletesNeverGoThroughTheWal() {
        Path ns = dir.resolve("ns");
        try (Chronix c = fx.open(ns)) {
            c.write(cpu(1, 1, 0));
        }
        try (var wal = io.chronix.engine.wal.WalWriter.open(io.chronix.engine.wal.WalConfig.defaults(ns.resolve("wal")),
                new io.chronix.engine.wal.WalMetrics())) {
            var entry = new io.chronix.engine.codec.WalEntry.Tombstone("cpu", new java.util.TreeMap<>(Map.of("host", "h0")), 0, 1);
            wal.appendDurable(io.chronix.engine.wal.WalRecordType.TOMBSTONE,
                    io.chronix.engine.codec.WalCodec.encode(entry, new io.chronix.engine.codec.EncodeBuffer(256)).view());
        }
        assertThatThrownBy(() -> fx.open(ns)).isInstanceOf(io.chronix.engine.error.UnsupportedWalRecordException.class)
                .hasMessageContaining("kind=Tombstone").hasMessageContaining("sequence=");
    }

    @ParameterizedTest(name = "crash at {0}")
    @ValueSource(strings = {"before-tombstone-persist", "after-tombstone-persist"})
    void aCrashAroundTheCatalogAppendDeletesAllOrNothing(String point) {
        Path ns = dir.resolve("ns");
        Chronix c = fx.open(ns);
        c.write(cpu(2, 10, 0));
        List<String> h0 = host(c, "h0");
        AtomicInteger fired = new AtomicInteger();
        c.testHook(p -> {
            if (p.equals(point)) {
                fired.incrementAndGet();
                throw new SimulatedCrash(p);
            }
        });
        assertThatThrownBy(() -> c.deleteSeries("cpu", Map.of("host", "h0"))).isInstanceOf(SimulatedCrash.class);
        assertThat(fired.get()).as("the crash point was reached").isEqualTo(1);
        assertThat(host(c, "h0")).as("no in-memory effect before the crash").isEqualTo(h0);
        c.crashForTest();
        try (Chronix reopened = fx.open(ns)) {
            if (point.equals("after-tombstone-persist")) {
                assertThat(host(reopened, "h0")).as("the durable tombstone applies after restart").isEmpty();
            } else {
                assertThat(host(reopened, "h0")).as("nothing was recorded, nothing is deleted").isEqualTo(h0);
            }
            assertThat(host(reopened, "h1")).hasSize(10);
        }
    }
}
