package io.chronix.engine;

import io.chronix.engine.catalog.SegmentEntry;
import io.chronix.engine.error.ShardOutOfRangeException;
import io.chronix.engine.maintenance.MaintenanceScheduler;
import io.chronix.engine.model.PointBatch;
import io.chronix.engine.read.ScanRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.LongStream;

import static io.chronix.engine.EngineFixture.SECOND;
import static io.chronix.engine.EngineFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Sealing by time and size: a shard's memtable is frozen and flushed in the background once its
 * shard is closed (behind the newest data by more than the out-of-order tolerance) or once it
 * reaches the flush threshold, whichever comes first; the maintenance pass then brings each closed
 * shard to one segment per measurement without being asked. Waits poll with a generous bound:
 * nothing here is a timing figure.
 */
class SealingTest {

    private static final long MINUTE = 60 * SECOND;
    private static final long HOUR = 60 * MINUTE;
    private static final int HOSTS = 10;
    private static final int HOURS = 8;
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** The load's first timestamp: {@link #HOURS} shards of history up to T0. */
    private static final long FIRST = T0 - HOURS * HOUR;

    @TempDir
    Path dir;
    final EngineFixture fx = new EngineFixture();
    /** What the engine must answer: host → time → {u, v}, NULL where never written (last write wins field by field). */
    final Map<String, TreeMap<Long, Double[]>> model = new TreeMap<>();

    @AfterEach
    void tearDown() {
        fx.close();
    }

    /**
     * No trigger-based compaction and no timed maintenance pass within a test: what compacts a
     * closed shard here is the engine's own request after the seal.
     */
    static EngineConfig config() {
        return EngineFixture.config().withCompactionTrigger(1_000).withMaintenanceInterval(Duration.ofHours(1));
    }

    @Test
    void aLoadOfHistoryLeavesOnlyTheOpenShardsInMemtables() throws Exception {
        try (Chronix c = fx.open(dir, config())) {
            long newest = loadHistory(c, false);
            SortedSet<Long> open = shards(newest - 2, newest);
            EngineFixture.await("only the open shards in memtables", WAIT, () -> c.memtableShards().equals(open));
            assertThat(segmentShards(c)).as("every closed shard in segments, no open one").isEqualTo(closedAfterLoad(c, newest));
            assertThat(settled(c, closedAfterLoad(c, newest))).as("a shard sealed once is one segment").isTrue();
            assertAnswers(c);
        }
        assertAnswersAfterReopen();
    }

    @Test
    void theMaintenancePassBringsEachClosedShardToOneSegmentUnasked() throws Exception {
        java.util.concurrent.atomic.AtomicInteger merged = new java.util.concurrent.atomic.AtomicInteger();
        try (Chronix c = fx.open(dir, config())) {
            c.testHook(point -> {
                if (point.equals("compaction-output-published")) {
                    merged.incrementAndGet();
                }
            });
            long newest = loadHistory(c, true); // a flush each half hour: every closed shard gets a second segment at its seal
            SortedSet<Long> closed = closedAfterLoad(c, newest);
            EngineFixture.await("one segment per closed shard", WAIT,
                    () -> settled(c, closed) && shards(newest - 2, newest).containsAll(c.memtableShards()));
            assertThat(merged.get()).as("closed shards were merged").isGreaterThanOrEqualTo(closed.size());
            assertAnswers(c);
        }
        assertAnswersAfterReopen();
    }

    @Test
    void aShardFlushedWhileOpenIsSettledWhenItClosesThoughNothingIsLeftToSeal() throws Exception {
        try (Chronix c = fx.open(dir, config())) {
            for (long t = FIRST; t < FIRST + 2 * HOUR; t += MINUTE) {
                write(c, t, (int) ((t - FIRST) / MINUTE));
                if (Math.floorMod(t, 30 * MINUTE) == 0 && t > FIRST) {
                    c.flush();
                }
            }
            c.flush(); // the first two shards: two segments each, nothing in memtables
            long first = c.shardOf(FIRST);
            assertThat(settled(c, shards(first, first))).isFalse();
            write(c, FIRST + 3 * HOUR, 0); // closes the first shard only
            EngineFixture.await("the first shard settled", WAIT, () -> settled(c, shards(first, first)));
            assertAnswers(c);
        }
    }

    @Test
    void aBackfillIntoAClosedShardIsSealedAgainAndItsOverwritesWin() throws Exception {
        try (Chronix c = fx.open(dir, config())) {
            long newest = loadHistory(c, false);
            EngineFixture.await("the load sealed", WAIT, () -> settled(c, closedAfterLoad(c, newest)));

            PointBatch overwrite = PointBatch.builder().beginPoint("cpu", FIRST).tag("host", "h0").floatField("u", -1.0).endPoint()
                    .beginPoint("cpu", FIRST + 30 * SECOND).tag("host", "h1").floatField("v", -2.0).endPoint().build();
            assertThatThrownBy(() -> c.write(overwrite)).as("the shard is closed").isInstanceOf(ShardOutOfRangeException.class);
            c.write(overwrite, WriteOptions.defaults().withBackfill(true));
            put("h0", FIRST, -1.0, null);
            put("h1", FIRST + 30 * SECOND, null, -2.0);
            assertAnswers(c); // right after the write: in a memtable, being sealed, or in a segment

            // an overwrite in an open shard after it was flushed, which the next hour's write then closes
            c.flush();
            long oldestOpen = (newest - 2) * HOUR;
            c.write(PointBatch.builder().beginPoint("cpu", oldestOpen).tag("host", "h2").floatField("v", 7.5).endPoint().build());
            put("h2", oldestOpen, null, 7.5);
            write(c, T0, 0);
            assertAnswers(c);

            EngineFixture.await("the backfilled and the newly closed shard sealed and settled", WAIT,
                    () -> settled(c, shards(c.shardOf(FIRST), newest - 2)) && shards(newest - 1, newest + 1).containsAll(c.memtableShards()));
            assertAnswers(c);
        }
        assertAnswersAfterReopen();
    }

    @Test
    void aShardOverTheFlushThresholdIsFlushedWhileStillOpen() throws Exception {
        try (Chronix c = fx.open(dir, config().withFlushThresholdBytes(8 * 1024))) {
            long shard = c.shardOf(T0);
            for (int minute = 0; minute < 60 && segmentShards(c).isEmpty(); minute++) {
                write(c, T0 + minute * MINUTE, minute);
            }
            EngineFixture.await("a segment of the open shard", WAIT, () -> segmentShards(c).contains(shard));
            assertThat(c.liveSegments()).allSatisfy(e -> assertThat(e.shard()).isEqualTo(shard));
            assertAnswers(c);
        }
    }

    @Test
    void closedShardsReplayedAtOpenAreSealed() throws Exception {
        MaintenanceScheduler none = MaintenanceScheduler.create(1);
        none.close(); // nothing runs: the load stays in memtables and the WAL
        try (Chronix c = Chronix.open(dir, config().withMaintenanceInterval(Duration.ZERO), none)) {
            loadHistory(c, false);
            assertThat(c.segmentCount()).isZero();
            assertThat(c.memtableShards()).hasSize(HOURS);
        }
        try (Chronix c = fx.open(dir, config())) {
            long newest = c.shardOf(T0 - 1);
            EngineFixture.await("the replayed closed shards sealed", WAIT, () -> c.memtableShards().equals(shards(newest - 2, newest)));
            assertAnswers(c);
        }
    }

    /**
     * Every host once a minute from {@link #FIRST} to T0, in time order, one batch a minute;
     * optionally a flush each half hour. Returns the newest shard.
     */
    private long loadHistory(Chronix c, boolean flushEachHalfHour) {
        for (long t = FIRST; t < T0; t += MINUTE) {
            write(c, t, (int) ((t - FIRST) / MINUTE));
            if (flushEachHalfHour && Math.floorMod(t, HOUR) == 30 * MINUTE) {
                c.flush();
            }
        }
        return c.shardOf(T0 - 1);
    }

    /** The shards {@link #loadHistory} closed: all but the tolerated two behind the newest. */
    private static SortedSet<Long> closedAfterLoad(Chronix c, long newest) {
        return shards(c.shardOf(FIRST), newest - 3);
    }

    private void assertAnswersAfterReopen() {
        try (Chronix c = fx.open(dir, config())) {
            assertAnswers(c);
        }
    }

    private void write(Chronix c, long t, int minute) {
        PointBatch.Builder b = PointBatch.builder();
        for (int h = 0; h < HOSTS; h++) {
            double u = h + minute;
            double v = -minute;
            b.beginPoint("cpu", t).tag("host", "h" + h).floatField("u", u).floatField("v", v).endPoint();
            put("h" + h, t, u, v);
        }
        c.write(b.build());
    }

    private void put(String host, long t, Double u, Double v) {
        Double[] row = model.computeIfAbsent(host, k -> new TreeMap<>()).computeIfAbsent(t, k -> new Double[2]);
        row[0] = u != null ? u : row[0];
        row[1] = v != null ? v : row[1];
    }

    private void assertAnswers(Chronix c) {
        List<String> expected = new ArrayList<>();
        model.forEach((host, rows) -> rows.forEach((t, f) -> expected.add(
                "time=" + t + "|host=\"" + host + "\"|u=" + (f[0] == null ? "<null>" : f[0]) + "|v=" + (f[1] == null ? "<null>" : f[1]))));
        assertThat(fx.rows(c, ScanRequest.all("cpu"))).containsExactlyElementsOf(expected);
        assertThat(fx.rowsUnordered(c, ScanRequest.all("cpu"))).containsExactlyInAnyOrderElementsOf(expected);
    }

    private static SortedSet<Long> shards(long from, long to) {
        return new TreeSet<>(LongStream.rangeClosed(from, to).boxed().toList());
    }

    private static SortedSet<Long> segmentShards(Chronix c) {
        SortedSet<Long> out = new TreeSet<>();
        for (SegmentEntry e : c.liveSegments()) {
            out.add(e.shard());
        }
        return out;
    }

    /** Whether each of {@code shards} holds exactly one segment (one measurement here) and no memtable. */
    private static boolean settled(Chronix c, SortedSet<Long> shards) {
        Map<Long, Integer> perShard = new TreeMap<>();
        for (SegmentEntry e : c.liveSegments()) {
            perShard.merge(e.shard(), 1, Integer::sum);
        }
        SortedSet<Long> inMemory = c.memtableShards();
        return shards.stream().allMatch(s -> perShard.getOrDefault(s, 0) == 1 && !inMemory.contains(s));
    }
}
