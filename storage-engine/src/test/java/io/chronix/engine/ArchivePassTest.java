package io.chronix.engine;

import io.chronix.engine.archive.ArchiveReport;
import io.chronix.engine.catalog.ArchivedSegment;
import io.chronix.engine.model.PointBatch;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.read.TagPredicate;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static io.chronix.engine.EngineFixture.SECOND;
import static io.chronix.engine.EngineFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The archiving pass against an in-memory cold tier: what moves, that reads see the same rows
 * before, after and across a restart, and that a crash at each step of the pass or a store that is
 * down leaves every row readable in exactly one tier or both.
 */
class ArchivePassTest {

    @TempDir
    Path dir;
    final EngineFixture fx = new EngineFixture();
    final MutableClock clock = new MutableClock(Instant.ofEpochSecond(T0 / SECOND + 3600));

    @AfterEach
    void tearDown() {
        fx.close();
    }

    static final class MutableClock extends Clock {
        volatile Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        @Override
        public ZoneId getZone() {
            return java.time.ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    static final class Crash extends RuntimeException {
        Crash(String point) {
            super("simulated crash at " + point, null, false, false);
        }
    }

    private EngineConfig config() {
        return EngineFixture.config().withClock(clock).withShardDuration(Duration.ofMinutes(10)).withOooToleranceShards(100);
    }

    /** Two shards of 10 minutes, NULL tags and fields, an overwrite. */
    private static PointBatch batch() {
        PointBatch.Builder b = PointBatch.builder();
        for (int i = 0; i < 40; i++) {
            long ts = T0 + i * 30 * SECOND;
            b.beginPoint("cpu", ts).tag("host", "h" + (i % 3));
            if (i % 4 == 0) {
                b.tag("rack", "r" + (i % 2));
            }
            b.floatField("usage", i * 1.5);
            if (i % 5 == 0) {
                b.integerField("errors", i);
            }
            b.endPoint();
        }
        b.beginPoint("cpu", T0).tag("host", "h0").stringField("note", "overwritten").endPoint();
        b.beginPoint("mem", T0 + 5 * SECOND).tag("host", "h1").unsignedField("free", Long.MIN_VALUE).booleanField("ok", true).endPoint();
        return b.build();
    }

    private List<String> all(Chronix c) {
        List<String> rows = new ArrayList<>(fx.rows(c, ScanRequest.all("cpu")));
        rows.addAll(fx.rows(c, ScanRequest.all("mem")));
        return rows;
    }

    private Chronix open(Path ns, MemoryColdTier tier) {
        return Chronix.open(ns, config(), fx.scheduler, tier);
    }

    private static long hotFiles(Path ns) throws IOException {
        try (Stream<Path> s = Files.walk(ns.resolve("segments"))) {
            return s.filter(p -> p.toString().endsWith(".csx")).count();
        }
    }

    @Test
    void oldSegmentsMoveAndReadsAnswerTheSameBeforeAfterAndAcrossARestart() throws IOException {
        Path ns = dir.resolve("ns");
        MemoryColdTier tier = new MemoryColdTier(7);
        List<String> expected;
        try (Chronix c = open(ns, tier)) {
            c.write(batch());
            c.flush();
            expected = all(c);
            int segments = c.segmentCount();
            assertThat(segments).isGreaterThan(2);

            assertThat(c.archive(Duration.ofDays(1))).as("nothing is a day old yet").isEqualTo(ArchiveReport.nothing());
            clock.now = clock.now.plus(Duration.ofDays(2));
            ArchiveReport r = c.archive(Duration.ofDays(1));
            assertThat(r.segments()).isEqualTo(segments);
            assertThat(r.rows()).isEqualTo(42);
            assertThat(r.failure()).isEmpty();
            assertThat(r.objectBytes()).isPositive();
            assertThat(c.segmentCount()).isZero();
            assertThat(hotFiles(ns)).isZero();
            assertThat(tier.objects.keySet()).allMatch(k -> k.matches("ns_7/shard_-?\\d+/seg_\\d+_\\d+\\.parquet"));
            assertThat(c.coldBytes()).isEqualTo(r.objectBytes());
            assertThat(all(c)).isEqualTo(expected);
            try (io.chronix.engine.read.ScanResult u = c.scanUnordered(ScanRequest.all("cpu"), fx.allocator)) {
                assertThat(EngineFixture.render(u)).containsExactlyInAnyOrderElementsOf(fx.rows(c, ScanRequest.all("cpu")));
            }
            // pruning applies to archived segments: a tag predicate no segment can match reads none
            assertThat(fx.rows(c, ScanRequest.all("cpu").withTags(TagPredicate.eq("host", "nope")))).isEmpty();
            assertThat(fx.rows(c, ScanRequest.all("cpu").withTimeRange(T0, T0 + 60 * SECOND)))
                    .hasSize(4); // the note-only point has no rack: a series of its own
        }
        try (Chronix c = open(ns, tier)) {
            assertThat(c.archivedSegments()).hasSize(tier.objects.size());
            assertThat(all(c)).isEqualTo(expected);
            assertThat(c.archive(Duration.ofDays(1)).segments()).as("a second pass has nothing to move").isZero();
        }
    }

    @Test
    void theNewestRowOfEachSeriesComesFromArchivedSegmentsToo() {
        Path ns = dir.resolve("ns");
        MemoryColdTier tier = new MemoryColdTier(7);
        List<io.chronix.engine.read.SeriesLastPoint> expected;
        try (Chronix c = open(ns, tier)) {
            c.write(batch());
            c.flush();
            expected = c.lastValues("cpu", List.of(), fx.allocator); // from the cache: every point went through it
            assertThat(expected).hasSizeGreaterThan(3);
            clock.now = clock.now.plus(Duration.ofDays(2));
            assertThat(c.archive(Duration.ofDays(1)).segments()).isPositive();
            assertThat(c.lastValues("cpu", List.of(), fx.allocator)).isEqualTo(expected);
        }
        try (Chronix c = open(ns, tier)) { // no hot segment, no sidecar: the series are known only to the archive
            assertThat(c.lastValues("cpu", List.of(), fx.allocator)).isEqualTo(expected);
            assertThat(c.lastValues("cpu", List.of(TagPredicate.eq("host", "h1")), fx.allocator))
                    .isEqualTo(expected.stream().filter(p -> "h1".equals(p.tags().get("host"))).toList());
            try (io.chronix.engine.read.ScanResult r = c.scanLatest(ScanRequest.all("cpu"), fx.allocator)) {
                assertThat(r.rowCount()).isEqualTo(expected.size());
            }
        }
    }

    @Test
    void deletedPointsStayDeletedThroughArchivingAndInTheArchive() {
        Path ns = dir.resolve("ns");
        MemoryColdTier tier = new MemoryColdTier(7);
        try (Chronix c = open(ns, tier)) {
            c.write(batch());
            c.flush();
            assertThat(c.delete().measurement("cpu").tag("host", "h1").execute().seriesDeleted()).isPositive(); // before archiving
            clock.now = clock.now.plus(Duration.ofDays(2));
            assertThat(c.archive(Duration.ofDays(1)).segments()).isPositive();
            assertThat(fx.rows(c, ScanRequest.all("cpu").withTags(TagPredicate.eq("host", "h1")))).isEmpty();
            assertThat(c.delete().measurement("cpu").tag("host", "h2").execute().seriesDeleted()).isPositive(); // of archived rows
            assertThat(fx.rows(c, ScanRequest.all("cpu").withTags(TagPredicate.eq("host", "h2")))).isEmpty();
            c.compact();
            assertThat(c.tombstones()).as("tombstones of archived segments are still needed").isNotEmpty();
        }
        try (Chronix c = open(ns, tier)) {
            assertThat(fx.rows(c, ScanRequest.all("cpu").withTags(TagPredicate.eq("host", "h1")))).isEmpty();
            assertThat(fx.rows(c, ScanRequest.all("cpu").withTags(TagPredicate.eq("host", "h2")))).isEmpty();
            assertThat(fx.rowsUnordered(c, ScanRequest.all("cpu").withTags(TagPredicate.eq("host", "h2")))).isEmpty();
            assertThat(fx.rows(c, ScanRequest.all("cpu").withTags(TagPredicate.eq("host", "h0")))).isNotEmpty();
            assertThat(c.lastValues("cpu", List.of(TagPredicate.eq("host", "h1")), fx.allocator)).isEmpty();
        }
    }

    @Test
    void aNewerHotWriteStillWinsOverAnArchivedOne() {
        Path ns = dir.resolve("ns");
        MemoryColdTier tier = new MemoryColdTier(7);
        try (Chronix c = open(ns, tier)) {
            c.write(PointBatch.builder().beginPoint("cpu", T0).tag("host", "h").floatField("v", 1).integerField("n", 1).endPoint().build());
            c.flush();
            clock.now = clock.now.plus(Duration.ofDays(2));
            assertThat(c.archive(Duration.ofDays(1)).segments()).isOne();
            // a backfilled overwrite of the archived point, field by field
            c.write(PointBatch.builder().beginPoint("cpu", T0).tag("host", "h").floatField("v", 2).endPoint().build());
            assertThat(fx.rows(c, ScanRequest.all("cpu"))).containsExactly("time=" + T0 + "|host=\"h\"|n=1i|v=2.0");
            c.flush();
            assertThat(fx.rows(c, ScanRequest.all("cpu"))).containsExactly("time=" + T0 + "|host=\"h\"|n=1i|v=2.0");
            // the unordered scan (SQL's) must not pass the hot segment through past the archived one
            try (io.chronix.engine.read.ScanResult r = c.scanUnordered(ScanRequest.all("cpu"), fx.allocator)) {
                assertThat(EngineFixture.render(r)).containsExactly("time=" + T0 + "|host=\"h\"|n=1i|v=2.0");
            }
        }
    }

    @ParameterizedTest(name = "crash at {0}")
    @ValueSource(strings = {"archive-uploaded", "archive-recorded", "archive-hot-dropped", "archive-hot-deleted"})
    void aCrashAtEachStepLeavesEveryRowReadable(String point) throws IOException {
        Path ns = dir.resolve("ns");
        MemoryColdTier tier = new MemoryColdTier(7);
        Chronix c = open(ns, tier);
        c.write(batch());
        c.flush();
        List<String> expected = all(c);
        clock.now = clock.now.plus(Duration.ofDays(2));
        AtomicInteger fired = new AtomicInteger();
        c.testHook(p -> {
            if (p.equals(point) && fired.getAndIncrement() == 1) { // the second segment: one moved, one mid-way
                throw new Crash(p);
            }
        });
        ArchiveReport r = c.archive(Duration.ofDays(1));
        assertThat(fired.get()).as("the crash point was reached").isGreaterThan(1);
        assertThat(r.failure()).hasValueSatisfying(m -> assertThat(m).contains("simulated crash"));
        c.crashForTest();

        try (Chronix reopened = open(ns, tier)) {
            assertThat(all(reopened)).isEqualTo(expected);
            ArchiveReport rest = reopened.archive(Duration.ofDays(1));
            assertThat(rest.failure()).isEmpty();
            assertThat(reopened.segmentCount()).isZero();
            assertThat(all(reopened)).isEqualTo(expected);
            assertThat(tier.objects.keySet()).containsExactlyInAnyOrderElementsOf(
                    reopened.archivedSegments().stream().map(ArchivedSegment::key).toList());
        }
        assertThat(hotFiles(ns)).isZero();
    }

    @Test
    void aStoreThatIsDownKeepsSegmentsHotAndTheNextPassMovesThem() {
        Path ns = dir.resolve("ns");
        MemoryColdTier tier = new MemoryColdTier(7);
        try (Chronix c = open(ns, tier)) {
            c.write(batch());
            c.flush();
            List<String> expected = all(c);
            int segments = c.segmentCount();
            clock.now = clock.now.plus(Duration.ofDays(2));
            tier.down = true;
            ArchiveReport failed = c.archive(Duration.ofDays(1));
            assertThat(failed.segments()).isZero();
            assertThat(failed.pending()).isEqualTo(segments);
            assertThat(failed.failure()).hasValueSatisfying(m -> assertThat(m).contains("store down"));
            assertThat(c.segmentCount()).isEqualTo(segments);
            assertThat(all(c)).isEqualTo(expected);
            tier.down = false;
            assertThat(c.archive(Duration.ofDays(1)).segments()).isEqualTo(segments);
            assertThat(all(c)).isEqualTo(expected);
        }
    }

    @Test
    void strayObjectsOfTheNamespaceAreSweptAfterACleanPass() {
        Path ns = dir.resolve("ns");
        MemoryColdTier tier = new MemoryColdTier(7);
        tier.objects.put("ns_7/shard_1/seg_1_1.parquet", new byte[] {1});
        try (Chronix c = open(ns, tier)) {
            c.write(batch());
            c.flush();
            clock.now = clock.now.plus(Duration.ofDays(2));
            ArchiveReport r = c.archive(Duration.ofDays(1));
            assertThat(r.strayObjectsRemoved()).isOne();
            assertThat(tier.objects).doesNotContainKey("ns_7/shard_1/seg_1_1.parquet");
        }
    }

    @Test
    void retentionRemovesArchivedSegmentsPastTheCutoffCatalogFirst() {
        Path ns = dir.resolve("ns");
        MemoryColdTier tier = new MemoryColdTier(7);
        try (Chronix c = open(ns, tier)) {
            c.write(batch());
            c.flush();
            clock.now = clock.now.plus(Duration.ofDays(2));
            c.archive(Duration.ofDays(1));
            long before = c.coldBytes();
            long cutoff = T0 + 10 * 60 * SECOND; // the first 10-minute shard
            List<ArchivedSegment> removed = c.removeArchivedBefore(cutoff);
            assertThat(removed).isNotEmpty().allMatch(a -> a.segment().maxTime() < cutoff);
            assertThat(c.coldBytes()).isEqualTo(before - removed.stream().mapToLong(a -> a.object().sizeBytes()).sum());
            assertThat(tier.objects.keySet()).doesNotContainAnyElementsOf(removed.stream().map(ArchivedSegment::key).toList());
            assertThat(fx.rows(c, ScanRequest.all("cpu").withTimeRange(Long.MIN_VALUE, cutoff - 1))).isEmpty();
            assertThat(fx.rows(c, ScanRequest.all("cpu").withTimeRange(cutoff, Long.MAX_VALUE))).isNotEmpty();
        }
        try (Chronix c = open(ns, tier)) {
            assertThat(c.archivedSegments()).allMatch(a -> a.segment().maxTime() >= T0 + 10 * 60 * SECOND);
        }
    }

    @Test
    void ageRetentionReachesTheColdTierByTheSameReference() {
        Path ns = dir.resolve("ns");
        MemoryColdTier tier = new MemoryColdTier(7);
        try (Chronix c = open(ns, tier)) {
            c.write(batch()); // 20 minutes of points from T0, newest at T0 + 19.5 min
            c.flush();
            clock.now = clock.now.plus(Duration.ofDays(2));
            c.archive(Duration.ofDays(1));
            assertThat(c.segmentCount()).isZero();
            // reference = min(wall clock, newest point held) = T0 + 19.5 min, not the clock two days on
            io.chronix.engine.lifecycle.RetentionResult r = c.enforceRetention(Duration.ofMinutes(9));
            assertThat(r.segmentsDeleted()).isPositive();
            assertThat(c.archivedSegments()).isNotEmpty().allMatch(a -> a.segment().maxTime() >= T0 + 630 * SECOND);
            assertThat(fx.rows(c, ScanRequest.all("cpu").withTimeRange(Long.MIN_VALUE, T0 + 599 * SECOND))).isEmpty();
            assertThat(fx.rows(c, ScanRequest.all("cpu").withTimeRange(T0 + 600 * SECOND, Long.MAX_VALUE))).hasSize(20);
        }
    }
}
