package io.chronix.engine;

import io.chronix.engine.catalog.SegmentEntry;
import io.chronix.engine.lifecycle.DiskBudget;
import io.chronix.engine.lifecycle.Retention;
import io.chronix.engine.lifecycle.RetentionResult;
import io.chronix.engine.model.PointBatch;
import io.chronix.engine.read.ScanRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;

import static io.chronix.engine.EngineFixture.SECOND;
import static io.chronix.engine.EngineFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Retention by age (whole shards, seed 001's reference time) and the process-wide disk budget (seed 003). */
class RetentionTest {

    static final long HOUR = 3600 * SECOND;
    static final long MINUTE = 60 * SECOND;

    @TempDir
    Path dir;
    final EngineFixture fx = new EngineFixture();

    @AfterEach
    void tearDown() {
        fx.close();
    }

    /** 1 h shards, any order accepted, the clock {@code clockAhead} after T0. */
    private static EngineConfig config(Duration clockAhead) {
        return EngineFixture.config().withOooToleranceShards(100_000)
                .withClock(Clock.fixed(Instant.ofEpochSecond(T0 / SECOND).plus(clockAhead), ZoneOffset.UTC));
    }

    /** Hours {@code [from, to)} after T0, one point per host every 10 minutes from minute {@code minute}; one batch per hour. */
    private static void write(Chronix c, int from, int to, int minute, String... hosts) {
        for (int h = from; h < to; h++) {
            PointBatch.Builder b = PointBatch.builder();
            for (String host : hosts) {
                for (int m = minute; m < 60; m += 10) {
                    b.beginPoint("cpu", T0 + h * HOUR + m * MINUTE).tag("host", host).floatField("v", h).endPoint();
                }
            }
            c.write(b.build());
        }
    }

    private long rows(Chronix c) {
        return fx.rows(c, ScanRequest.all("cpu")).size();
    }

    @Test
    void theReferenceIsTheNewestPointHeldSoAQuietNamespaceKeepsItsLastWindow() {
        assertThat(Retention.reference(100, 50)).isEqualTo(50);
        assertThat(Retention.reference(100, 500)).as("data ahead of the clock: the clock").isEqualTo(100);
        assertThat(Retention.cutoff(Long.MIN_VALUE + 5, Duration.ofDays(1))).as("saturates").isEqualTo(Long.MIN_VALUE);
        Path ns = dir.resolve("ns");
        try (Chronix c = fx.open(ns, config(Duration.ofDays(400)))) { // the wall clock is far ahead of the data
            write(c, 0, 72, 0, "a", "b");
            write(c, 0, 3, 0, "old");
            c.flush();
            assertThat(c.seriesCount()).isEqualTo(3);
            List<SegmentEntry> before = c.segments();
            long firstShard = before.stream().mapToLong(SegmentEntry::shard).min().orElseThrow();
            long expectedBytes = before.stream().filter(e -> e.shard() < firstShard + 47).mapToLong(SegmentEntry::sizeBytes).sum();

            RetentionResult r = c.enforceRetention(Duration.ofDays(1));
            // newest point T0+71h50m, cutoff T0+47h50m: shards 0..46 are wholly before it, shard 47 straddles it
            assertThat(r.shardsDropped()).isEqualTo(47);
            assertThat(r.segmentsDeleted()).isEqualTo(47);
            assertThat(r.segmentsPreserved()).isZero();
            assertThat(r.rowsDeleted()).isEqualTo(47 * 12 + 3 * 6);
            assertThat(r.bytesFreed()).isEqualTo(expectedBytes);
            assertThat(rows(c)).isEqualTo(25 * 12);
            assertThat(fx.rows(c, ScanRequest.all("cpu")).getFirst()).as("the straddling shard is kept whole")
                    .startsWith("time=" + (T0 + 47 * HOUR) + "|");
            assertThat(c.seriesCount()).as("series only in dropped shards are released").isEqualTo(2);
            assertThat(Files.exists(dir.resolve("ns/segments/shard_" + firstShard))
                    && !fileNames(dir.resolve("ns/segments/shard_" + firstShard)).isEmpty()).as("files deleted").isFalse();
            assertThat(c.enforceRetention(Duration.ofDays(1))).isEqualTo(RetentionResult.NOTHING);
        }
        try (Chronix c = fx.open(ns, config(Duration.ofDays(400)))) {
            assertThat(c.segmentCount()).isEqualTo(25);
            assertThat(rows(c)).isEqualTo(25 * 12);
            assertThat(c.repairLiveSeries()).as("live series derived from the segments after a restart").isEqualTo(2);
        }
    }

    private static List<String> fileNames(Path d) {
        try (var s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).toList();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void shardsMemtablesStillHoldAreKeptAndRollupsHoldSegmentsBack() {
        try (Chronix c = fx.open(dir.resolve("ns"), config(Duration.ofDays(400)))) {
            write(c, 0, 48, 0, "a");
            assertThat(c.enforceRetention(Duration.ofHours(12)).deletedAnything()).as("everything still in memtables").isFalse();
            c.flush();
            c.rollupRetentionHold(m -> m.equals("cpu") ? OptionalLong.of(T0 + 10 * HOUR) : OptionalLong.empty());
            RetentionResult r = c.enforceRetention(Duration.ofHours(12));
            // cutoff T0+35h50m: shards 0..34 are past it; a rollup still needs cpu from T0+10h
            assertThat(r.shardsDropped()).isEqualTo(10);
            assertThat(r.segmentsDeleted()).isEqualTo(10);
            assertThat(r.segmentsPreserved()).isEqualTo(25);
            c.rollupRetentionHold(io.chronix.engine.lifecycle.RollupRetentionHold.NONE);
            assertThat(c.enforceRetention(Duration.ofHours(12)).shardsDropped()).isEqualTo(25);
            assertThat(rows(c)).isEqualTo(13 * 6);
        }
    }

    @Test
    void aTombstoneIsCollectedOnceEverySegmentItWasIssuedAgainstIsGone() {
        Path ns = dir.resolve("ns");
        try (Chronix c = fx.open(ns, config(Duration.ofDays(400)))) {
            write(c, 0, 10, 0, "a", "b");
            c.delete().measurement("cpu").tag("host", "a").range(T0, T0 + 90 * MINUTE).execute();
            c.delete().measurement("cpu").tag("host", "b").range(T0 + 8 * HOUR, T0 + 8 * HOUR + 50 * MINUTE).execute();
            assertThat(c.tombstones()).hasSize(2);
            assertThat(c.gc()).as("their segments are all live").isZero();
            c.enforceRetention(Duration.ofHours(5)); // cutoff T0+4h50m: drops shards 0..3
            assertThat(c.tombstones()).singleElement().satisfies(t -> assertThat(t.tags()).containsEntry("host", "b"));
            assertThat(rows(c)).isEqualTo(6 * 12 - 6);
        }
        try (Chronix c = fx.open(ns, config(Duration.ofDays(400)))) {
            assertThat(c.tombstones()).hasSize(1);
            assertThat(rows(c)).isEqualTo(6 * 12 - 6);
        }
    }

    @Test
    void aCrashBetweenCatalogAndFileDeletionLeavesOnlyOrphansThatOpenDeletes() {
        Path ns = dir.resolve("ns");
        Chronix c = fx.open(ns, config(Duration.ofDays(400)));
        write(c, 0, 10, 0, "a");
        c.flush();
        long firstShard = c.segments().stream().mapToLong(SegmentEntry::shard).min().orElseThrow();
        c.testHook(p -> {
            if (p.equals("segments-unlisted")) {
                throw new SimulatedCrash(p);
            }
        });
        assertThatThrownBy(() -> c.enforceRetention(Duration.ofHours(5))).isInstanceOf(SimulatedCrash.class);
        assertThat(fileNames(dir.resolve("ns/segments/shard_" + firstShard))).as("the crash came before the files went").isNotEmpty();
        c.crashForTest();
        try (Chronix reopened = fx.open(ns, config(Duration.ofDays(400)))) {
            assertThat(reopened.segmentCount()).as("cutoff T0+4h50m: shards 4..9 stay").isEqualTo(6);
            assertThat(rows(reopened)).isEqualTo(6 * 6);
            assertThat(fileNames(dir.resolve("ns/segments/shard_" + firstShard))).as("orphans deleted at open").isEmpty();
        }
    }

    @Test
    void theDiskBudgetTakesTheOldestSegmentsFirstAcrossEnginesAndWarnsInsideRetention() throws Exception {
        try (Chronix a = fx.open(dir.resolve("a"), config(Duration.ofDays(1)));
             Chronix b = fx.open(dir.resolve("b"), config(Duration.ofDays(1)))) {
            write(a, 0, 10, 0, "x");   // T0 .. T0+9h50m
            write(b, 5, 15, 5, "y");   // T0+5h05m .. T0+14h55m
            a.flush();
            b.flush();
            record Seg(String engine, SegmentEntry e) {
            }
            List<Seg> all = new ArrayList<>();
            a.segments().forEach(e -> all.add(new Seg("a", e)));
            b.segments().forEach(e -> all.add(new Seg("b", e)));
            all.sort(Comparator.comparingLong((Seg s) -> s.e().maxTime()));
            long total = all.stream().mapToLong(s -> s.e().sizeBytes()).sum();
            long oldestEight = all.subList(0, 8).stream().mapToLong(s -> s.e().sizeBytes()).sum();
            DiskBudget budget = new DiskBudget(total - oldestEight + 1); // exactly the eight oldest must go
            // a keeps 3 h (cutoff T0+6h50m), b 1 h (cutoff T0+13h55m)
            try (AutoCloseable ra = budget.register(a.budgetMember("a", () -> Duration.ofHours(3)));
                 AutoCloseable rb = budget.register(b.budgetMember("b", () -> Duration.ofHours(1)))) {
                assertThat(budget.usedBytes()).isEqualTo(total);
                RetentionResult r = budget.enforce();
                assertThat(r.segmentsDeleted()).isEqualTo(8);
                Set<Long> goneA = all.subList(0, 8).stream().filter(s -> s.engine().equals("a")).map(s -> s.e().id()).collect(Collectors.toSet());
                Set<Long> goneB = all.subList(0, 8).stream().filter(s -> s.engine().equals("b")).map(s -> s.e().id()).collect(Collectors.toSet());
                // by newest point: a's T0+0h50m … T0+5h50m, b's T0+5h55m, a's T0+6h50m
                assertThat(goneA).as("a holds the oldest data").hasSize(7);
                assertThat(goneB).as("oldest-first across engines").hasSize(1);
                assertThat(a.segments()).extracting(SegmentEntry::id).doesNotContainAnyElementsOf(goneA).hasSize(3);
                assertThat(b.segments()).extracting(SegmentEntry::id).doesNotContainAnyElementsOf(goneB).hasSize(9);
                assertThat(budget.usedBytes()).isLessThanOrEqualTo(budget.budgetBytes());
                // a's cutoff is T0+6h50m: its segment ending then was still inside its window
                long inside = all.subList(0, 8).stream().filter(s -> s.engine().equals("a") && s.e().maxTime() >= T0 + 6 * HOUR + 50 * MINUTE)
                        .count() + all.subList(0, 8).stream().filter(s -> s.engine().equals("b") && s.e().maxTime() >= T0 + 13 * HOUR + 55 * MINUTE).count();
                assertThat(budget.segmentsDeletedInsideRetention()).isEqualTo(inside).isEqualTo(1);
                assertThat(budget.enforce()).as("within budget now").isEqualTo(RetentionResult.NOTHING);
            }
            assertThat(rows(a)).isEqualTo(3 * 6);
            assertThat(a.seriesCount()).isEqualTo(1);
            assertThat(a.lastValue("cpu", Map.of("host", "x"), fx.allocator)).isPresent();
        }
    }
}
