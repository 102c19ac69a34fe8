package io.chronix.engine.wal;

import io.chronix.engine.error.DiskFullException;
import io.chronix.engine.error.WalPoisonedException;
import io.chronix.engine.io.SimulatedFileIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static io.chronix.engine.wal.WalFixtures.DIR;
import static io.chronix.engine.wal.WalFixtures.Replayed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Faults never produce a false acknowledgement: failing fsync, a full disk, short writes, a stuck leader. */
class WalFaultInjectionTest {

    private static final long SEED = Long.getLong("chronix.test.seed", System.nanoTime());

    @ParameterizedTest
    @EnumSource(value = FsyncPolicy.class, names = {"PER_WRITE", "PER_BATCH"})
    void failedFsyncPoisonsTheLogAndNothingIsAcknowledgedAfterIt(FsyncPolicy policy) throws Exception {
        SimulatedFileIO io = WalFixtures.simulated();
        WalConfig config = WalFixtures.config(io, policy);
        WalWriter wal = WalWriter.open(config, new WalMetrics());
        Map<Long, String> acked = new ConcurrentHashMap<>();
        AtomicInteger poisonedCalls = new AtomicInteger();
        CountDownLatch warm = new CountDownLatch(100);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            int id = t;
            threads.add(Thread.ofVirtual().start(() -> {
                for (int i = 0; ; i++) {
                    String p = "t" + id + "-" + i;
                    try {
                        long seq = wal.appendDurable(WalRecordType.DATA, WalFixtures.payload(p));
                        acked.put(seq, p);
                        warm.countDown();
                    } catch (WalPoisonedException e) {
                        poisonedCalls.incrementAndGet();
                        return;
                    }
                }
            }));
        }
        assertThat(warm.await(30, TimeUnit.SECONDS)).isTrue();
        io.failFileSyncs(true);
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(30));
        }
        assertThat(io.failedSyncs.get()).as("the fault fired").isPositive();
        assertThat(poisonedCalls.get()).as("every writer was refused").isEqualTo(8);
        // No false acknowledgement: every acknowledged record is covered by a successful fsync.
        // (Comparing against durableSequence() read when the fault is armed would race with an
        // fsync already in flight, which may legitimately succeed and acknowledge its group.)
        long maxAcked = acked.keySet().stream().mapToLong(Long::longValue).max().orElse(0);
        assertThat(maxAcked).as("no record acknowledged past the last successful fsync").isLessThanOrEqualTo(wal.durableSequence());
        assertThat(wal.isHealthy()).isFalse();
        assertThat(wal.failure()).isPresent();
        assertThat(wal.metrics().failedSyncs()).isEqualTo(1);

        io.failFileSyncs(false);
        assertThatThrownBy(() -> wal.appendDurable(WalRecordType.DATA, WalFixtures.payload("later")))
                .as("a later fsync that would succeed proves nothing: still poisoned")
                .isInstanceOf(WalPoisonedException.class).hasMessageContaining(DIR.toString());
        wal.close();

        // power loss drops every write no fsync covered: all acknowledged records must still be there
        io.powerLoss(SimulatedFileIO.PowerLoss.DROP, new Random(1));
        List<Replayed> back = WalFixtures.recover(config);
        List<Long> seqs = back.stream().map(Replayed::sequence).toList();
        assertThat(seqs).containsAll(acked.keySet());
        try (WalWriter reopened = WalWriter.open(config, new WalMetrics())) {
            assertThat(reopened.isHealthy()).as("a reopen clears the poison").isTrue();
            reopened.appendDurable(WalRecordType.DATA, WalFixtures.payload("after reopen"));
        }
    }

    @ParameterizedTest
    @EnumSource(value = FsyncPolicy.class, names = {"PER_WRITE", "PER_BATCH"})
    void afterAFailedFsyncTheLogIsCutBackToWhatFsyncsCoveredBeforeItIsReopened(FsyncPolicy policy) {
        SimulatedFileIO io = WalFixtures.simulated();
        WalConfig config = WalFixtures.config(io, policy);
        List<Long> acked = new ArrayList<>();
        WalWriter wal = WalWriter.open(config, new WalMetrics());
        for (int i = 0; i < 5; i++) {
            acked.add(wal.appendDurable(WalRecordType.DATA, WalFixtures.payload("acked-" + i)));
        }
        long durableBytes = io.contents(wal.activeFile()).length;
        io.failFileSyncs(true);
        assertThatThrownBy(() -> wal.appendBatch(WalRecordType.DATA, List.of(WalFixtures.payload("refused-1"), WalFixtures.payload("refused-2"))))
                .isInstanceOf(WalPoisonedException.class);
        assertThat(io.failedSyncs.get()).as("the fault fired").isPositive();
        assertThat(wal.discardUnsynced()).as("the cut cannot be made durable while fsyncs fail").isFalse();
        io.failFileSyncs(false);
        assertThat(wal.discardUnsynced()).isTrue();
        assertThat(wal.isHealthy()).as("still poisoned until reopened").isFalse();
        wal.close();
        // the refused records' bytes had reached the file: the cut took them out, so neither a replay
        // nor a power loss after it sees them, and every acknowledged record is still there
        assertThat(io.contents(wal.activeFile()).length).isLessThanOrEqualTo((int) durableBytes);
        assertThat(WalFixtures.recover(config)).extracting(Replayed::sequence).containsExactlyElementsOf(acked);
        io.powerLoss(SimulatedFileIO.PowerLoss.DROP, new Random(1));
        assertThat(WalFixtures.recover(config)).extracting(Replayed::sequence).containsExactlyElementsOf(acked);
        try (WalWriter reopened = WalWriter.open(config, new WalMetrics())) {
            assertThat(reopened.appendDurable(WalRecordType.DATA, WalFixtures.payload("after"))).isEqualTo(acked.getLast() + 1);
        }
    }

    @Test
    void aHealthyLogHasNothingToCut() {
        SimulatedFileIO io = WalFixtures.simulated();
        try (WalWriter wal = WalWriter.open(WalFixtures.config(io, FsyncPolicy.PER_BATCH), new WalMetrics())) {
            wal.appendDurable(WalRecordType.DATA, WalFixtures.payload("x"));
            long before = io.contents(wal.activeFile()).length;
            assertThat(wal.discardUnsynced()).isTrue();
            assertThat(io.contents(wal.activeFile()).length).isEqualTo((int) before);
        }
    }

    @Test
    void failedPeriodicSyncPoisonsTheLog() throws Exception {
        SimulatedFileIO io = WalFixtures.simulated();
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        try (WalWriter wal = WalWriter.open(WalFixtures.config(io, FsyncPolicy.PERIODIC).withFsyncInterval(Duration.ofMillis(5)),
                new WalMetrics())) {
            wal.startPeriodicSync(scheduler);
            io.failFileSyncs(true);
            wal.appendDurable(WalRecordType.DATA, WalFixtures.payload("in the kernel, not yet synced"));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (wal.isHealthy() && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertThat(io.failedSyncs.get()).as("the fault fired").isPositive();
            assertThat(wal.isHealthy()).isFalse();
            assertThatThrownBy(() -> wal.appendDurable(WalRecordType.DATA, WalFixtures.payload("x")))
                    .isInstanceOf(WalPoisonedException.class);
        } finally {
            scheduler.shutdownNow();
        }
    }

    @Test
    void diskFullFailsTheAppendCleanlyAndTheLogWorksAgainOnceSpaceReturns() {
        SimulatedFileIO io = WalFixtures.simulated();
        WalConfig config = WalFixtures.config(io, FsyncPolicy.PER_BATCH)
                // record writes that meet the full disk themselves (preallocated space would absorb them;
                // WalPreallocationTest covers a full disk with preallocation)
                .withPreallocation(0);
        WalMetrics metrics = new WalMetrics();
        List<Long> acked = new ArrayList<>();
        byte[] kb = new byte[1000];
        try (WalWriter wal = WalWriter.open(config, metrics)) {
            acked.add(wal.appendDurable(WalRecordType.DATA, ByteBuffer.wrap(kb)));
            io.capacity(io.usedBytes() + 2500);
            DiskFullException full = null;
            for (int i = 0; i < 10 && full == null; i++) {
                try {
                    acked.add(wal.appendDurable(WalRecordType.DATA, ByteBuffer.wrap(kb)));
                } catch (DiskFullException e) {
                    full = e;
                }
            }
            assertThat(full).as("the disk filled up").isNotNull();
            assertThat(io.noSpaceErrors.get()).as("the fault fired").isPositive();
            assertThat(full.path()).isEqualTo(wal.activeFile());
            assertThat(full).hasMessageContaining("no space left on device");
            assertThat((long) io.contents(wal.activeFile()).length).as("cut back to the last whole record").isEqualTo(full.offset());
            assertThat(wal.isHealthy()).as("a full disk does not poison").isTrue();
            assertThatThrownBy(() -> wal.appendBatch(WalRecordType.BATCH, List.of(ByteBuffer.wrap(kb), ByteBuffer.wrap(kb))))
                    .isInstanceOf(DiskFullException.class);

            io.capacity(Long.MAX_VALUE);
            long next = wal.appendDurable(WalRecordType.DATA, WalFixtures.payload("space is back"));
            assertThat(next).as("the failed appends left no hole").isEqualTo(acked.getLast() + 1);
            acked.add(next);
        }
        WalMetrics reopen = new WalMetrics();
        List<Replayed> back = WalFixtures.recover(config, reopen);
        assertThat(back).extracting(Replayed::sequence).containsExactlyElementsOf(acked);
        assertThat(reopen.truncations()).as("nothing torn was left behind").isZero();
        assertThat(metrics.failedWrites()).isGreaterThanOrEqualTo(2);
    }

    @Test
    void perWriteBatchThatFillsTheDiskMidwayLeavesNoneOfItsRecordsAndNoFalseDurability() {
        SimulatedFileIO io = WalFixtures.simulated();
        WalConfig config = WalFixtures.config(io, FsyncPolicy.PER_WRITE)
                // record writes that meet the full disk themselves (preallocated space would absorb them;
                // WalPreallocationTest covers a full disk with preallocation)
                .withPreallocation(0);
        try (WalWriter wal = WalWriter.open(config, new WalMetrics())) {
            wal.appendDurable(WalRecordType.DATA, WalFixtures.payload("before"));
            io.capacity(io.usedBytes() + 1500);
            List<ByteBuffer> batch = List.of(ByteBuffer.wrap(new byte[600]), ByteBuffer.wrap(new byte[600]), ByteBuffer.wrap(new byte[600]));
            assertThatThrownBy(() -> wal.appendBatch(WalRecordType.BATCH, batch)).isInstanceOf(DiskFullException.class);
            assertThat(io.noSpaceErrors.get()).as("the fault fired").isPositive();
            assertThat(wal.durableSequence()).as("the batch's synced-then-removed records are not durable").isEqualTo(1);
            assertThat(wal.lastSequence()).isEqualTo(1);
            io.capacity(Long.MAX_VALUE);
            assertThat(wal.appendDurable(WalRecordType.DATA, WalFixtures.payload("after"))).isEqualTo(2);
            assertThat(wal.durableSequence()).isEqualTo(2);
        }
        assertThat(WalFixtures.recover(config)).extracting(Replayed::sequence).containsExactly(1L, 2L);
    }

    @Test
    void diskFullWhileCreatingTheNextFileKeepsTheCurrentOne() {
        SimulatedFileIO io = WalFixtures.simulated();
        WalConfig config = WalFixtures.config(io, FsyncPolicy.PER_BATCH).withMaxFileSize(100)
                // record writes that meet the full disk themselves (preallocated space would absorb them;
                // WalPreallocationTest covers a full disk with preallocation)
                .withPreallocation(0);
        try (WalWriter wal = WalWriter.open(config, new WalMetrics())) {
            wal.appendDurable(WalRecordType.DATA, ByteBuffer.wrap(new byte[60]));
            Path first = wal.activeFile();
            io.capacity(io.usedBytes() + 3);
            assertThatThrownBy(() -> wal.appendDurable(WalRecordType.DATA, ByteBuffer.wrap(new byte[60])))
                    .isInstanceOf(DiskFullException.class);
            assertThat(wal.activeFile()).isEqualTo(first);
            assertThat(WalReader.walFiles(io, DIR)).as("the half-made file was removed").containsExactly(first);
            io.capacity(Long.MAX_VALUE);
            assertThat(wal.appendDurable(WalRecordType.DATA, ByteBuffer.wrap(new byte[60]))).isEqualTo(2);
            assertThat(wal.fileCount()).isEqualTo(2);
        }
        assertThat(WalFixtures.recover(config)).hasSize(2);
    }

    @Test
    void shortWritesAreCompletedIntoIntactFrames() {
        SimulatedFileIO io = WalFixtures.simulated();
        WalConfig config = WalFixtures.config(io, FsyncPolicy.PER_BATCH).withMaxFileSize(256 * 1024);
        Random rnd = new Random(SEED);
        io.shortWrites(new Random(SEED + 1));
        List<byte[]> written = new ArrayList<>();
        try (WalWriter wal = WalWriter.open(config, new WalMetrics())) {
            for (int i = 0; i < 300; i++) {
                int size = rnd.nextInt(10) == 0 ? 70_000 + rnd.nextInt(30_000) : rnd.nextInt(500);
                byte[] p = new byte[size];
                rnd.nextBytes(p);
                written.add(p);
                if (i % 3 == 0) {
                    wal.appendBatch(WalRecordType.BATCH, List.of(ByteBuffer.wrap(p)));
                } else {
                    wal.appendDurable(WalRecordType.DATA, ByteBuffer.wrap(p));
                }
            }
        }
        assertThat(io.shortWriteCount.get()).as("the fault fired").isGreaterThan(100);
        List<Replayed> back = WalFixtures.recover(config);
        assertThat(back).hasSize(written.size());
        for (int i = 0; i < written.size(); i++) {
            assertThat(back.get(i).payload()).as("record %d (seed %d)", i, SEED).isEqualTo(written.get(i));
        }
    }

    @Test
    void failedDirectoryFsyncFailsFileCreation() {
        SimulatedFileIO io = WalFixtures.simulated();
        io.failDirectorySyncs(true);
        assertThatThrownBy(() -> WalWriter.open(WalFixtures.config(io, FsyncPolicy.PER_BATCH), new WalMetrics()))
                .as("the first file cannot be created").isInstanceOf(WalPoisonedException.class);
        assertThat(io.failedSyncs.get()).as("the fault fired").isPositive();

        io.failDirectorySyncs(false);
        WalConfig config = WalFixtures.config(io, FsyncPolicy.PER_BATCH).withMaxFileSize(100);
        try (WalWriter wal = WalWriter.open(config, new WalMetrics())) {
            long acked = wal.appendDurable(WalRecordType.DATA, ByteBuffer.wrap(new byte[60]));
            io.failDirectorySyncs(true);
            assertThatThrownBy(() -> wal.appendDurable(WalRecordType.DATA, ByteBuffer.wrap(new byte[60])))
                    .as("rotation needs a durable directory entry").isInstanceOf(WalPoisonedException.class);
            assertThat(wal.isHealthy()).isFalse();
            io.failDirectorySyncs(false);
            assertThat(acked).isEqualTo(1);
        }
        assertThat(WalFixtures.recover(WalFixtures.config(io, FsyncPolicy.PER_BATCH))).extracting(Replayed::sequence).containsExactly(1L);
    }

    @Test
    void followerWhoseLeaderHangsSyncsForItselfAfterTheTimeout() throws Exception {
        SimulatedFileIO io = WalFixtures.simulated();
        WalConfig config = WalFixtures.config(io, FsyncPolicy.PER_BATCH).withGroupCommitTimeout(Duration.ofMillis(200));
        try (WalWriter wal = WalWriter.open(config, new WalMetrics())) {
            CountDownLatch leaderInSync = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicInteger hookCalls = new AtomicInteger();
            io.syncHook(() -> {
                if (hookCalls.getAndIncrement() == 0) {
                    leaderInSync.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
            AtomicLong leaderSeq = new AtomicLong();
            Thread leader = Thread.ofPlatform().start(() -> leaderSeq.set(wal.appendDurable(WalRecordType.DATA, WalFixtures.payload("leader"))));
            assertThat(leaderInSync.await(10, TimeUnit.SECONDS)).isTrue();
            long start = System.nanoTime();
            long followerSeq = wal.appendDurable(WalRecordType.DATA, WalFixtures.payload("follower"));
            long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(leader.isAlive()).as("the leader is still stuck in its fsync").isTrue();
            assertThat(waitedMs).as("the follower waited out the timeout first").isGreaterThanOrEqualTo(190);
            assertThat(wal.durableSequence()).isGreaterThanOrEqualTo(followerSeq);
            release.countDown();
            leader.join(10_000);
            assertThat(leaderSeq.get()).isEqualTo(1);
            assertThat(followerSeq).isEqualTo(2);
        }
    }

    @Test
    void concurrentDurableAppendsShareFsyncs() throws Exception {
        SimulatedFileIO io = WalFixtures.simulated();
        // a slow fsync, as on a real device, is what lets a group form behind the leader
        io.syncHook(() -> {
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        WalMetrics metrics = new WalMetrics();
        try (WalWriter wal = WalWriter.open(WalFixtures.config(io, FsyncPolicy.PER_BATCH), metrics)) {
            long before = metrics.syncs();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 32; t++) {
                threads.add(Thread.ofVirtual().start(() -> {
                    for (int i = 0; i < 20; i++) {
                        wal.appendDurable(WalRecordType.DATA, WalFixtures.payload("x".repeat(50)));
                    }
                }));
            }
            for (Thread t : threads) {
                t.join();
            }
            long syncs = metrics.syncs() - before;
            assertThat(metrics.records()).isEqualTo(640);
            assertThat(syncs).as("640 durable appends by 32 writers shared fsyncs").isLessThan(640 / 4);
        }
    }

    @Test
    void closedLogRefusesAppends() {
        SimulatedFileIO io = WalFixtures.simulated();
        WalWriter wal = WalWriter.open(WalFixtures.config(io, FsyncPolicy.PER_BATCH), new WalMetrics());
        wal.close();
        wal.close();
        assertThat(wal.isHealthy()).isFalse();
        assertThatThrownBy(() -> wal.append(WalRecordType.DATA, WalFixtures.payload("x"))).isInstanceOf(IllegalStateException.class);
    }

    static String text(ByteBuffer b) {
        return StandardCharsets.UTF_8.decode(b.duplicate()).toString();
    }
}
