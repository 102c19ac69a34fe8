package io.chronix.engine;

import io.chronix.engine.catalog.ColumnStats;
import io.chronix.engine.catalog.SegmentEntry;
import io.chronix.engine.compaction.Backpressure;
import io.chronix.engine.compaction.CompactionResult;
import io.chronix.engine.compaction.SegmentReclaimer;
import io.chronix.engine.model.PointBatch;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.read.TagPredicate;
import io.chronix.engine.segment.SegmentFile;
import io.chronix.engine.segment.SegmentWriterConfig;
import io.chronix.engine.store.CsxSegmentStore;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static io.chronix.engine.EngineFixture.SECOND;
import static io.chronix.engine.EngineFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

/** Compaction's behaviours one by one, backpressure, the maintenance pass and close during a pass. */
class CompactionTest {

    @TempDir
    Path dir;
    final EngineFixture fx = new EngineFixture();

    @AfterEach
    void tearDown() {
        fx.close();
    }

    private static EngineConfig manual() {
        return EngineFixture.config().withMaintenanceInterval(Duration.ZERO);
    }

    private static PointBatch point(String m, long ts, String host, String field, double v) {
        return PointBatch.builder().beginPoint(m, ts).tag("host", host).floatField(field, v).endPoint().build();
    }

    @Test
    void newestSegmentWinsFieldByFieldAndNullsSurvive() {
        try (Chronix c = fx.open(dir, manual())) {
            c.write(PointBatch.builder().beginPoint("cpu", T0).tag("host", "a").floatField("x", 1).floatField("y", 1).endPoint()
                    .beginPoint("cpu", T0 + SECOND).tag("host", "a").floatField("x", 5).endPoint().build());
            c.flush();
            c.write(PointBatch.builder().beginPoint("cpu", T0).tag("host", "a").floatField("y", 2).endPoint().build());
            c.flush();
            List<String> before = fx.rows(c, ScanRequest.all("cpu"));
            CompactionResult r = c.compact();
            assertThat(r.groups()).isEqualTo(1);
            assertThat(r.segmentsIn()).isEqualTo(2);
            assertThat(r.segmentsOut()).isEqualTo(1);
            assertThat(r.rowsIn()).isEqualTo(3);
            assertThat(r.rowsOut()).as("the overwritten row folds into one").isEqualTo(2);
            assertThat(r.bytesOut()).isPositive();
            assertThat(fx.rows(c, ScanRequest.all("cpu"))).isEqualTo(before).containsExactly(
                    "time=" + T0 + "|host=\"a\"|x=1.0|y=2.0",
                    "time=" + (T0 + SECOND) + "|host=\"a\"|x=5.0|y=<null>");
            assertThat(c.segmentCount()).isEqualTo(1);
        }
    }

    @Test
    void segmentsOfDifferentSchemasMergeIntoTheSuperset() {
        try (Chronix c = fx.open(dir, manual())) {
            c.write(point("cpu", T0, "a", "x", 1));
            c.flush();
            c.write(PointBatch.builder().beginPoint("cpu", T0 + SECOND).tag("host", "b").tag("dc", "eu").stringField("s", "hi")
                    .unsignedField("u", -1L).endPoint().build());
            c.flush();
            c.write(PointBatch.builder().beginPoint("cpu", T0 + 2 * SECOND).booleanField("ok", true).endPoint().build()); // no tags at all
            c.flush();
            List<String> before = fx.rows(c, ScanRequest.all("cpu"));
            c.compact();
            assertThat(fx.rows(c, ScanRequest.all("cpu"))).isEqualTo(before).hasSize(3);
            SegmentEntry out = c.liveSegments().getFirst();
            assertThat(c.liveSegments()).hasSize(1);
            assertThat(out.columns()).extracting(ColumnStats::name).containsExactly("dc", "host", "ok", "s", "u", "x");
            assertThat(out.column("dc").nullCount()).isEqualTo(2);
            assertThat(out.column("host").minTag()).isEqualTo("a");
            assertThat(out.column("host").maxTag()).isEqualTo("b");
            assertThat(out.seriesCount()).isEqualTo(3);
            // pruning by the recorded stats still finds each series, and IS NULL sees the padded NULLs
            assertThat(fx.rows(c, ScanRequest.all("cpu").withTags(new TagPredicate.IsNull("dc")))).hasSize(2);
            assertThat(fx.rows(c, ScanRequest.all("cpu").withTags(new TagPredicate.Eq("dc", "eu")))).hasSize(1);
        }
        try (Chronix c = fx.open(dir, manual())) {
            assertThat(fx.rows(c, ScanRequest.all("cpu"))).hasSize(3);
        }
    }

    @Test
    void compactionNeverMergesAcrossShards() {
        EngineConfig config = manual().withShardDuration(Duration.ofMinutes(1)).withOooToleranceShards(10);
        try (Chronix c = fx.open(dir, config)) {
            for (int round = 0; round < 2; round++) {
                for (int shard = 0; shard < 3; shard++) {
                    c.write(point("cpu", T0 + shard * 60 * SECOND + round, "a", "x", round));
                }
                c.flush();
            }
            assertThat(c.segmentCount()).isEqualTo(6);
            CompactionResult r = c.compact();
            assertThat(r.groups()).isEqualTo(3);
            assertThat(c.liveSegments()).extracting(SegmentEntry::shard).containsExactlyInAnyOrder(
                    (T0 / (60 * SECOND)), (T0 / (60 * SECOND)) + 1, (T0 / (60 * SECOND)) + 2);
            for (SegmentEntry e : c.liveSegments()) {
                assertThat(SegmentFile.parse(e.file()).shardId()).isEqualTo(e.shard());
                assertThat(e.maxTime() / (60 * SECOND)).isEqualTo(e.shard());
            }
        }
    }

    @Test
    void compactFlushesFirstAndANewerFlushStillWinsOverTheOutput() {
        try (Chronix c = fx.open(dir, manual())) {
            c.write(point("cpu", T0, "a", "x", 1));
            c.flush();
            c.write(point("cpu", T0, "a", "x", 2)); // only in the memtable: compact() flushes it first
            c.compact();
            assertThat(c.memtablePoints()).isZero();
            c.write(point("cpu", T0, "a", "x", 3));
            c.flush();
            assertThat(fx.rows(c, ScanRequest.all("cpu"))).containsExactly("time=" + T0 + "|host=\"a\"|x=3.0");
            c.compact();
            assertThat(fx.rows(c, ScanRequest.all("cpu"))).containsExactly("time=" + T0 + "|host=\"a\"|x=3.0");
        }
    }

    @Test
    void aSegmentFlushedWhileAMergeRunsStaysNewerThanTheMergesOutput() throws Exception {
        EngineConfig config = manual().withSegments((files, seg, tmp) -> new CsxSegmentStore(files, seg, tmp,
                SegmentWriterConfig.defaults().withRowGroupRows(2)));
        Path ns = dir.resolve("ns");
        try (Chronix c = fx.open(ns, config)) {
            for (int round = 0; round < 2; round++) {
                c.write(PointBatch.builder().beginPoint("cpu", T0).tag("host", "a").floatField("x", round).endPoint()
                        .beginPoint("cpu", T0 + SECOND).tag("host", "a").floatField("x", round).endPoint()
                        .beginPoint("cpu", T0 + 2 * SECOND).tag("host", "a").floatField("x", round).endPoint().build());
                c.flush();
            }
            AtomicInteger parts = new AtomicInteger();
            List<Throwable> failures = new CopyOnWriteArrayList<>();
            c.testHook(p -> {
                if (p.equals("compaction-part-written") && parts.incrementAndGet() == 1) {
                    // mid-merge, another thread overwrites a row the inputs hold and flushes it
                    Thread t = Thread.ofPlatform().start(() -> {
                        try {
                            c.write(point("cpu", T0, "a", "x", 42));
                            c.flush();
                        } catch (Throwable e) {
                            failures.add(e);
                        }
                    });
                    try {
                        t.join();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
            CompactionResult r = c.compact();
            assertThat(failures).isEmpty();
            assertThat(parts.get()).as("the merge was interrupted by the flush").isPositive();
            assertThat(r.segmentsIn()).isEqualTo(2);
            assertThat(c.segmentCount()).as("the output and the segment flushed meanwhile").isEqualTo(2);
            List<Long> ids = c.liveSegments().stream().map(SegmentEntry::id).sorted().toList();
            SegmentEntry output = c.liveSegments().stream().filter(e -> e.rowCount() == 3).findFirst().orElseThrow();
            assertThat(output.id()).as("the output sorts before the later flush").isEqualTo(ids.getFirst());
            assertThat(fx.rows(c, ScanRequest.all("cpu")).getFirst()).isEqualTo("time=" + T0 + "|host=\"a\"|x=42.0");
        }
        try (Chronix c = fx.open(ns, config)) {
            assertThat(fx.rows(c, ScanRequest.all("cpu"))).containsExactly("time=" + T0 + "|host=\"a\"|x=42.0",
                    "time=" + (T0 + SECOND) + "|host=\"a\"|x=1.0", "time=" + (T0 + 2 * SECOND) + "|host=\"a\"|x=1.0");
            c.compact();
            assertThat(fx.rows(c, ScanRequest.all("cpu")).getFirst()).isEqualTo("time=" + T0 + "|host=\"a\"|x=42.0");
        }
    }

    @Test
    void scansRunningDuringCompactionsNeverFail() throws Exception {
        try (Chronix c = fx.open(dir, manual())) {
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                c.write(point("cpu", T0 + i * SECOND, "h" + (i % 4), "x", i));
            }
            expected.addAll(fx.rows(c, ScanRequest.all("cpu")));
            AtomicBoolean done = new AtomicBoolean();
            List<Throwable> failures = new CopyOnWriteArrayList<>();
            AtomicInteger scans = new AtomicInteger();
            Thread reader = Thread.ofPlatform().start(() -> {
                while (!done.get()) {
                    try {
                        assertThat(fx.rows(c, ScanRequest.all("cpu"))).isEqualTo(expected);
                        scans.incrementAndGet();
                    } catch (Throwable t) {
                        failures.add(t);
                        return;
                    }
                }
            });
            for (int round = 0; round < 15; round++) {
                for (int i = 0; i < 40; i += 7) {
                    c.write(point("cpu", T0 + i * SECOND, "h" + (i % 4), "x", i)); // same values: the answer stays
                }
                c.flush();
                c.compact();
            }
            done.set(true);
            reader.join();
            assertThat(failures).isEmpty();
            assertThat(scans.get()).isPositive();
            assertThat(c.pendingReclaims()).isZero();
        }
    }

    @Test
    void replacedFilesWaitForEarlierScansOnly() {
        List<SegmentFile> deleted = new ArrayList<>();
        SegmentReclaimer r = new SegmentReclaimer(deleted::add);
        SegmentFile a = SegmentFile.of(1, 1, 1);
        SegmentFile b = SegmentFile.of(1, 1, 2);
        long early = r.enter();
        r.retire(List.of(a));
        long late = r.enter(); // started after the swap: it cannot name a
        assertThat(deleted).isEmpty();
        r.exit(late);
        assertThat(deleted).isEmpty();
        r.retire(List.of(b));
        r.exit(early);
        assertThat(deleted).containsExactly(a, b);
        r.retire(List.of(SegmentFile.of(1, 1, 3)));
        assertThat(deleted).as("no scan running: at once").hasSize(3);
        assertThat(r.pendingFiles()).isZero();
    }

    // ----------------------------------------------------------------------------- backpressure

    @Test
    void backpressureDelayIsLinearFromFourToEightTimesTheTriggerAndCapped() {
        assertThat(Backpressure.delay(0, 4)).isZero();
        assertThat(Backpressure.delay(16, 4)).as("at 4 x trigger: not yet").isZero();
        assertThat(Backpressure.delay(17, 4)).isEqualTo(Duration.ofNanos(31_250_000));
        assertThat(Backpressure.delay(20, 4)).isEqualTo(Duration.ofMillis(125));
        assertThat(Backpressure.delay(24, 4)).isEqualTo(Duration.ofMillis(250));
        assertThat(Backpressure.delay(32, 4)).isEqualTo(Duration.ofMillis(500));
        assertThat(Backpressure.delay(1_000, 4)).as("capped").isEqualTo(Backpressure.MAX_DELAY);
        assertThat(Backpressure.delay(9, 2)).isEqualTo(Duration.ofNanos(62_500_000));
    }

    @Test
    void writesAreDelayedNotDroppedPastFourTimesTheTrigger() {
        try (Chronix c = fx.open(dir, manual().withCompactionTrigger(2))) {
            for (int i = 0; i < 9; i++) {
                c.write(point("cpu", T0 + i, "a", "x", i));
                c.flush();
            }
            assertThat(c.l0Count()).isEqualTo(9);
            Duration delay = Duration.ofNanos(62_500_000); // (9 - 8) / 8 of the 500 ms cap
            assertThat(c.backpressureDelay()).isEqualTo(delay);
            long start = System.nanoTime();
            c.write(point("cpu", T0 + 100, "a", "x", 100));
            assertThat(System.nanoTime() - start).as("the write slept").isGreaterThanOrEqualTo(delay.toNanos());
            assertThat(c.backpressureDelayedWrites()).isEqualTo(1);
            assertThat(c.backpressureTotalDelay()).isGreaterThanOrEqualTo(delay);
            assertThat(fx.rows(c, ScanRequest.all("cpu"))).as("nothing dropped").hasSize(10);
            c.compact();
            assertThat(c.l0Count()).isEqualTo(1);
            assertThat(c.backpressureDelay()).isZero();
        }
    }

    // ----------------------------------------------------------------------------- maintenance

    @Test
    void theMaintenancePassCompactsGroupsThatReachTheTrigger() throws Exception {
        EngineConfig config = EngineFixture.config().withCompactionTrigger(3).withMaintenanceInterval(Duration.ofMillis(50));
        try (Chronix c = fx.open(dir, config)) {
            for (int i = 0; i < 2; i++) {
                c.write(point("cpu", T0 + i, "a", "x", i));
                c.flush();
            }
            Thread.sleep(300);
            assertThat(c.segmentCount()).as("below the trigger: left alone").isEqualTo(2);
            c.write(point("cpu", T0 + 2, "a", "x", 2));
            c.flush();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (c.segmentCount() > 1 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(c.segmentCount()).as("the pass merged the group").isEqualTo(1);
            assertThat(fx.rows(c, ScanRequest.all("cpu"))).hasSize(3);
        }
    }

    @Test
    void closeWaitsForARunningPassWhichAbandonsItsOutputAndCancelsTheNext() throws Exception {
        EngineConfig config = EngineFixture.config().withCompactionTrigger(2).withMaintenanceInterval(Duration.ofMillis(20))
                .withSegments((files, seg, tmp) -> new CsxSegmentStore(files, seg, tmp, SegmentWriterConfig.defaults().withRowGroupRows(2)));
        Path ns = dir.resolve("ns");
        Chronix c = fx.open(ns, config);
        CountDownLatch inPass = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger passParts = new AtomicInteger();
        c.testHook(p -> {
            if (p.equals("compaction-part-written") && passParts.incrementAndGet() == 1) {
                inPass.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        for (int i = 0; i < 2; i++) {
            c.write(PointBatch.builder().beginPoint("cpu", T0 + i).tag("host", "a").floatField("x", i).endPoint()
                    .beginPoint("cpu", T0 + 10 + i).tag("host", "b").floatField("x", i).endPoint().build());
            c.flush(); // the second flush reaches the trigger: a pass starts
        }
        List<String> expected = fx.rows(c, ScanRequest.all("cpu"));
        assertThat(inPass.await(20, TimeUnit.SECONDS)).as("a pass is merging").isTrue();
        AtomicBoolean closed = new AtomicBoolean();
        Thread closer = Thread.ofPlatform().start(() -> {
            c.close();
            closed.set(true);
        });
        Thread.sleep(200);
        assertThat(closed.get()).as("close waits for the running pass").isFalse();
        release.countDown();
        closer.join(20_000);
        assertThat(closed.get()).isTrue();
        long runs = fx.scheduler.runs();
        Thread.sleep(100);
        assertThat(fx.scheduler.runs()).as("no pass after close").isEqualTo(runs);
        try (Stream<Path> tmp = Files.list(ns.resolve("tmp"))) {
            assertThat(tmp.toList()).as("the abandoned output left no temporary file").isEmpty();
        }
        try (Chronix reopened = fx.open(ns, manual())) {
            assertThat(fx.rows(reopened, ScanRequest.all("cpu"))).isEqualTo(expected);
            assertThat(reopened.segmentCount()).as("the abandoned pass replaced nothing").isEqualTo(2);
        }
    }
}
