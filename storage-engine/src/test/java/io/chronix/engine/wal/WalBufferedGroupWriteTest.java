package io.chronix.engine.wal;

import io.chronix.engine.error.DiskFullException;
import io.chronix.engine.io.SimulatedFileIO;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static io.chronix.engine.wal.WalFixtures.Replayed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * PER_BATCH durable appends leave their records in the writer's buffer, and the group-commit leader
 * writes them out in one write right before its fsync. Each test holds a first leader inside its
 * fsync (the simulator's sync hook) so that a group forms behind it, buffered and not yet written.
 */
class WalBufferedGroupWriteTest {

    private static final int WRITERS = 16;

    /** Holds the first file sync until released; later syncs pass. */
    private static final class StuckFirstSync {
        final CountDownLatch inSync = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger calls = new AtomicInteger();

        void install(SimulatedFileIO io) {
            io.syncHook(() -> {
                if (calls.getAndIncrement() == 0) {
                    inSync.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
        }
    }

    /** Starts the first leader and waits until it is inside its fsync; returns its thread. */
    private static Thread firstLeader(WalWriter wal, StuckFirstSync stuck, AtomicLong seq) throws InterruptedException {
        Thread leader = Thread.ofPlatform().start(() -> seq.set(wal.appendDurable(WalRecordType.DATA, WalFixtures.payload("leader"))));
        assertThat(stuck.inSync.await(10, TimeUnit.SECONDS)).as("the first leader reached its fsync").isTrue();
        return leader;
    }

    private static void awaitAppended(WalWriter wal, long sequence) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (wal.lastSequence() < sequence) {
            assertThat(System.nanoTime()).as("appends reached sequence " + sequence).isLessThan(deadline);
            Thread.sleep(1);
        }
    }

    private static String text(SimulatedFileIO io, Path file) {
        return new String(io.contents(file), StandardCharsets.ISO_8859_1);
    }

    @Test
    void aGroupOfDurableAppendsReachesTheFileInOneWriteBeforeItsFsync() throws Exception {
        SimulatedFileIO io = WalFixtures.simulated();
        StuckFirstSync stuck = new StuckFirstSync();
        WalConfig config = WalFixtures.config(io, FsyncPolicy.PER_BATCH);
        Map<Long, String> acked = new ConcurrentHashMap<>();
        try (WalWriter wal = WalWriter.open(config, new WalMetrics())) {
            stuck.install(io);
            AtomicLong leaderSeq = new AtomicLong();
            Thread leader = firstLeader(wal, stuck, leaderSeq);
            int writesBefore = io.writes.get();
            List<Thread> writers = new ArrayList<>();
            for (int i = 0; i < WRITERS; i++) {
                String p = "buffered-" + i;
                writers.add(Thread.ofVirtual().start(() -> acked.put(wal.appendDurable(WalRecordType.DATA, WalFixtures.payload(p)), p)));
            }
            awaitAppended(wal, 1 + WRITERS);
            assertThat(io.writes.get() - writesBefore).as("appended, acknowledged by no one yet, and not written").isZero();
            assertThat(text(io, wal.activeFile())).doesNotContain("buffered-");
            assertThat(acked).isEmpty();

            stuck.release.countDown();
            leader.join(10_000);
            for (Thread t : writers) {
                t.join(10_000);
            }
            assertThat(acked).hasSize(WRITERS);
            assertThat(io.writes.get() - writesBefore).as("the next leader wrote the whole group at once").isEqualTo(1);
            assertThat(wal.durableSequence()).isEqualTo(1 + WRITERS);
            acked.put(leaderSeq.get(), "leader");
        }
        Map<Long, String> back = new TreeMap<>();
        for (Replayed r : WalFixtures.recover(config)) {
            back.put(r.sequence(), new String(r.payload(), StandardCharsets.UTF_8));
        }
        assertThat(back).isEqualTo(new TreeMap<>(acked));
    }

    @Test
    void aFailedGroupWriteFailsEveryRecordItCarriedAndTheLogStaysWritable() throws Exception {
        SimulatedFileIO io = WalFixtures.simulated();
        StuckFirstSync stuck = new StuckFirstSync();
        // the records' own write must meet the full disk, not preallocated zeros
        WalConfig config = WalFixtures.config(io, FsyncPolicy.PER_BATCH).withPreallocation(0);
        WalMetrics metrics = new WalMetrics();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicInteger acks = new AtomicInteger();
        try (WalWriter wal = WalWriter.open(config, metrics)) {
            stuck.install(io);
            AtomicLong leaderSeq = new AtomicLong();
            Thread leader = firstLeader(wal, stuck, leaderSeq);
            long lengthWithLeader = io.contents(wal.activeFile()).length;
            List<Thread> writers = new ArrayList<>();
            for (int i = 0; i < WRITERS; i++) {
                String p = "doomed-" + i;
                writers.add(Thread.ofVirtual().start(() -> {
                    try {
                        wal.appendDurable(WalRecordType.DATA, WalFixtures.payload(p));
                        acks.incrementAndGet();
                    } catch (RuntimeException e) {
                        failures.add(e);
                    }
                }));
            }
            awaitAppended(wal, 1 + WRITERS);
            io.capacity(io.usedBytes());

            stuck.release.countDown();
            leader.join(10_000);
            for (Thread t : writers) {
                t.join(10_000);
            }
            assertThat(leaderSeq.get()).as("the first leader's record was written before the disk filled").isEqualTo(1);
            assertThat(acks.get()).as("no record of the failed write is acknowledged").isZero();
            assertThat(failures).hasSize(WRITERS).allSatisfy(e -> assertThat(e)
                    .isInstanceOf(DiskFullException.class)
                    .hasMessageContaining("no space left on device"));
            assertThat(failures).extracting(e -> ((DiskFullException) e).offset()).containsOnly(lengthWithLeader);
            assertThat(failures.stream().distinct().count()).as("each caller gets an exception of its own").isEqualTo(WRITERS);
            assertThat(metrics.failedWrites()).as("one write carried them all").isEqualTo(1);
            assertThat(wal.isHealthy()).as("a full disk does not poison").isTrue();
            assertThat(wal.lastSequence()).as("the failed records' sequences are given back").isEqualTo(1);
            assertThat((long) io.contents(wal.activeFile()).length).isEqualTo(lengthWithLeader);

            io.capacity(Long.MAX_VALUE);
            assertThat(wal.appendDurable(WalRecordType.DATA, WalFixtures.payload("space is back"))).isEqualTo(2);
        }
        WalMetrics reopen = new WalMetrics();
        assertThat(WalFixtures.recover(config, reopen)).extracting(Replayed::sequence).containsExactly(1L, 2L);
        assertThat(reopen.truncations()).as("nothing torn was left behind").isZero();
    }

    @Test
    void aPlainAppendWritesBeforeReturningAndTakesTheBufferedRecordsWithIt() throws Exception {
        SimulatedFileIO io = WalFixtures.simulated();
        StuckFirstSync stuck = new StuckFirstSync();
        WalConfig config = WalFixtures.config(io, FsyncPolicy.PER_BATCH);
        try (WalWriter wal = WalWriter.open(config, new WalMetrics())) {
            stuck.install(io);
            Thread leader = firstLeader(wal, stuck, new AtomicLong());
            AtomicLong durableSeq = new AtomicLong();
            Thread durable = Thread.ofVirtual().start(() -> durableSeq.set(wal.appendDurable(WalRecordType.DATA, WalFixtures.payload("buffered-one"))));
            awaitAppended(wal, 2);
            assertThat(text(io, wal.activeFile())).doesNotContain("buffered-one");

            assertThat(wal.append(WalRecordType.DATA, WalFixtures.payload("plain-one"))).isEqualTo(3);
            assertThat(text(io, wal.activeFile())).as("in the file when append returns").contains("buffered-one", "plain-one");
            assertThat(durable.isAlive()).as("written is not durable: the durable caller still waits").isTrue();

            stuck.release.countDown();
            leader.join(10_000);
            durable.join(10_000);
            assertThat(durableSeq.get()).isEqualTo(2);
        }
        assertThat(WalFixtures.recover(config)).extracting(Replayed::sequence).containsExactly(1L, 2L, 3L);
    }

    @Test
    void aPlainAppendThatFindsTheDiskFullFailsTheBufferedRecordsWithItself() throws Exception {
        SimulatedFileIO io = WalFixtures.simulated();
        StuckFirstSync stuck = new StuckFirstSync();
        WalConfig config = WalFixtures.config(io, FsyncPolicy.PER_BATCH).withPreallocation(0);
        try (WalWriter wal = WalWriter.open(config, new WalMetrics())) {
            stuck.install(io);
            Thread leader = firstLeader(wal, stuck, new AtomicLong());
            AtomicInteger durableFailures = new AtomicInteger();
            Thread durable = Thread.ofVirtual().start(() -> {
                try {
                    wal.appendDurable(WalRecordType.DATA, WalFixtures.payload("buffered-one"));
                } catch (DiskFullException e) {
                    durableFailures.incrementAndGet();
                }
            });
            awaitAppended(wal, 2);
            io.capacity(io.usedBytes());

            assertThatThrownBy(() -> wal.append(WalRecordType.DATA, WalFixtures.payload("plain-one"))).isInstanceOf(DiskFullException.class);
            durable.join(10_000);
            assertThat(durableFailures.get()).as("failed at once, before the stuck fsync ends").isEqualTo(1);
            assertThat(wal.lastSequence()).isEqualTo(1);

            stuck.release.countDown();
            leader.join(10_000);
            io.capacity(Long.MAX_VALUE);
            assertThat(wal.appendDurable(WalRecordType.DATA, WalFixtures.payload("after"))).isEqualTo(2);
        }
        assertThat(WalFixtures.recover(config)).extracting(Replayed::sequence).containsExactly(1L, 2L);
    }

    @Test
    void closeWritesAndSyncsTheBufferedRecords() throws Exception {
        SimulatedFileIO io = WalFixtures.simulated();
        StuckFirstSync stuck = new StuckFirstSync();
        WalConfig config = WalFixtures.config(io, FsyncPolicy.PER_BATCH);
        WalWriter wal = WalWriter.open(config, new WalMetrics());
        stuck.install(io);
        Thread leader = firstLeader(wal, stuck, new AtomicLong());
        AtomicLong durableSeq = new AtomicLong();
        Thread durable = Thread.ofVirtual().start(() -> durableSeq.set(wal.appendDurable(WalRecordType.DATA, WalFixtures.payload("buffered-one"))));
        awaitAppended(wal, 2);

        wal.close();
        durable.join(10_000);
        assertThat(durableSeq.get()).as("acknowledged by close's own fsync").isEqualTo(2);
        stuck.release.countDown();
        leader.join(10_000);
        io.powerLoss(SimulatedFileIO.PowerLoss.DROP, new java.util.Random(1));
        assertThat(WalFixtures.recover(config)).extracting(Replayed::sequence).containsExactly(1L, 2L);
    }

    @Test
    void bufferedRecordsOfManyWritersRotateIntoWholeFiles() throws Exception {
        SimulatedFileIO io = WalFixtures.simulated();
        io.syncHook(() -> {
            try {
                Thread.sleep(1); // a slow device, so groups form
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        WalConfig config = WalFixtures.config(io, FsyncPolicy.PER_BATCH).withMaxFileSize(512);
        Map<Long, String> acked = new ConcurrentHashMap<>();
        try (WalWriter wal = WalWriter.open(config, new WalMetrics())) {
            List<Thread> writers = new ArrayList<>();
            for (int t = 0; t < WRITERS; t++) {
                int id = t;
                writers.add(Thread.ofVirtual().start(() -> {
                    for (int i = 0; i < 20; i++) {
                        String p = "w" + id + "-" + i + "-" + "x".repeat(30);
                        acked.put(wal.appendDurable(WalRecordType.DATA, WalFixtures.payload(p)), p);
                    }
                }));
            }
            for (Thread t : writers) {
                t.join(30_000);
            }
            assertThat(wal.fileCount()).isGreaterThan(5);
        }
        io.powerLoss(SimulatedFileIO.PowerLoss.DROP, new java.util.Random(2));
        List<Path> files = io.list(WalFixtures.DIR);
        for (Path f : files) {
            assertThat(io.contents(f).length).as(f + " within maxFileSize").isLessThanOrEqualTo(512);
        }
        Map<Long, String> back = new TreeMap<>();
        for (Replayed r : WalFixtures.recover(config)) {
            back.put(r.sequence(), new String(r.payload(), StandardCharsets.UTF_8));
        }
        assertThat(back).as("every acknowledged record, nothing else").isEqualTo(new TreeMap<>(acked));
    }
}
