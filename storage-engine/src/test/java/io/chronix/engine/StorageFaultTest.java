package io.chronix.engine;

import io.chronix.engine.catalog.CatalogFormat;
import io.chronix.engine.error.DiskFullException;
import io.chronix.engine.error.WalPoisonedException;
import io.chronix.engine.io.FaultInjectingFileIO;
import io.chronix.engine.io.NioFileIO;
import io.chronix.engine.model.PointBatch;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.wal.FsyncPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.chronix.engine.EngineFixture.SECOND;
import static io.chronix.engine.EngineFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A whole engine over real files with a full disk or a failing fsync: what it refuses, what it
 * keeps, and what a reopen brings back — every acknowledged point and nothing else.
 */
class StorageFaultTest {

    @TempDir
    Path dir;
    final EngineFixture fx = new EngineFixture();
    final AtomicBoolean syncFails = new AtomicBoolean();
    final AtomicBoolean diskFull = new AtomicBoolean();
    final AtomicBoolean catalogSyncFails = new AtomicBoolean();
    final FaultInjectingFileIO io = new FaultInjectingFileIO(NioFileIO.INSTANCE,
            path -> syncFails.get() || catalogSyncFails.get() && path.getFileName().toString().equals(CatalogFormat.FILE_NAME), path -> diskFull.get());

    @AfterEach
    void tearDown() {
        fx.close();
    }

    private Chronix open(FsyncPolicy policy) {
        return fx.open(dir, EngineFixture.config().withIo(io).withFsyncPolicy(policy).withFsyncInterval(Duration.ofMillis(5)));
    }

    private static PointBatch point(long t, String field, double v) {
        return PointBatch.builder().beginPoint("m", t).tag("h", "a").floatField(field, v).endPoint().build();
    }

    private List<String> rows(Chronix c) {
        return fx.rows(c, new ScanRequest("m", List.of(), Long.MIN_VALUE, Long.MAX_VALUE, List.of()));
    }

    @Test
    void aFullDiskRefusesTheWriteAndTheNextOneIsAcceptedOnceThereIsRoomWithoutAReopen() {
        try (Chronix c = open(FsyncPolicy.PER_BATCH)) {
            c.write(point(T0, "a", 1));
            diskFull.set(true);
            assertThatThrownBy(() -> c.write(point(T0 + SECOND, "a", 2))).isInstanceOf(DiskFullException.class);
            assertThat(io.failedWrites()).as("the fault fired").isPositive();
            assertThat(c.syncFailure()).as("a full disk does not poison the log").isEmpty();
            diskFull.set(false);
            c.write(point(T0 + 2 * SECOND, "a", 3));
            assertThat(rows(c)).hasSize(2);
        }
        try (Chronix c = open(FsyncPolicy.PER_BATCH)) {
            assertThat(rows(c)).as("what was acknowledged, replayed").hasSize(2);
        }
    }

    /**
     * The first write of a field declares it in the WAL before its points. If that declaration met
     * the full disk, the field stayed declared in memory, so the next write of it (the disk has
     * room again) logged no declaration: the replay must still know the field's type.
     */
    @Test
    void aFieldWhoseDeclarationMetAFullDiskIsReplayedFromItsPointsLaterOn() {
        try (Chronix c = open(FsyncPolicy.PER_BATCH)) {
            c.write(point(T0, "a", 1));
            diskFull.set(true);
            assertThatThrownBy(() -> c.write(point(T0 + SECOND, "b", 2))).isInstanceOf(DiskFullException.class);
            diskFull.set(false);
            c.write(point(T0 + 2 * SECOND, "b", 3));
        } // closed without a flush: the reopen replays the WAL
        try (Chronix c = open(FsyncPolicy.PER_BATCH)) {
            assertThat(c.schema("m").orElseThrow().column("b")).as("field b replayed").isPresent();
            assertThat(rows(c)).hasSize(2).anySatisfy(r -> assertThat(r).contains("b=3.0"));
        }
    }

    @Test
    void afterAFailedFsyncNothingIsAcknowledgedAndTheReopenBringsBackWhatWasAndNothingElse() {
        Chronix c = open(FsyncPolicy.PER_BATCH);
        try {
            c.write(point(T0, "a", 1));
            syncFails.set(true);
            assertThatThrownBy(() -> c.write(point(T0 + SECOND, "a", 2))).isInstanceOf(WalPoisonedException.class);
            assertThat(io.failedSyncs()).as("the fault fired").isPositive();
            assertThat(c.syncFailure()).isPresent();
            syncFails.set(false);
            assertThatThrownBy(() -> c.write(point(T0 + 2 * SECOND, "a", 3)))
                    .as("a later fsync that would succeed proves nothing").isInstanceOf(WalPoisonedException.class);

            syncFails.set(true);
            assertThat(c.prepareReopenAfterSyncFailure()).as("the device still fails: not ready").isFalse();
            syncFails.set(false);
            assertThat(c.prepareReopenAfterSyncFailure()).isTrue();
        } finally {
            c.close();
        }
        try (Chronix again = open(FsyncPolicy.PER_BATCH)) {
            // the refused point's record reached the file (only its fsync failed): without the cut, the replay would bring it back
            assertThat(rows(again)).as("exactly what was acknowledged").hasSize(1).allSatisfy(r -> assertThat(r).contains("a=1.0"));
            assertThat(again.syncFailure()).isEmpty();
            again.write(point(T0 + 3 * SECOND, "a", 4));
            assertThat(rows(again)).hasSize(2);
        }
    }

    @Test
    void underPeriodicTheAcknowledgedPointsAfterTheLastFsyncAreFlushedBeforeTheLogIsCut() throws Exception {
        Chronix c = open(FsyncPolicy.PERIODIC);
        try {
            long syncs = c.walMetrics().syncs();
            c.write(point(T0, "a", 1));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (c.walMetrics().syncs() == syncs && System.nanoTime() < deadline) {
                Thread.sleep(1); // the first point's periodic fsync
            }
            syncFails.set(true);
            c.write(point(T0 + SECOND, "a", 2)); // acknowledged once in the kernel
            while (c.syncFailure().isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertThat(c.syncFailure()).as("the periodic fsync failed").isPresent();
            assertThat(c.prepareReopenAfterSyncFailure()).as("nothing can be flushed durably yet").isFalse();
            syncFails.set(false);
            assertThat(c.prepareReopenAfterSyncFailure()).isTrue();
        } finally {
            c.close();
        }
        try (Chronix again = open(FsyncPolicy.PERIODIC)) {
            assertThat(rows(again)).as("both acknowledged points").hasSize(2);
        }
    }

    @Test
    void aFailedCatalogFsyncStopsFlushesNotWritesAndTheReopenReplaysTheWal() {
        Chronix c = open(FsyncPolicy.PER_BATCH);
        try {
            c.write(point(T0, "a", 1));
            catalogSyncFails.set(true);
            assertThatThrownBy(c::flush).isInstanceOf(io.chronix.engine.error.FlushFailedException.class);
            assertThat(io.failedSyncs()).as("the fault fired").isPositive();
            assertThat(c.syncFailure()).as("the catalog refuses appends until reopened").isPresent();
            c.write(point(T0 + SECOND, "a", 2)); // the WAL is fine: writes go on
            catalogSyncFails.set(false);
            assertThatThrownBy(c::flush).as("still poisoned").isInstanceOf(io.chronix.engine.error.FlushFailedException.class);
            assertThat(c.prepareReopenAfterSyncFailure()).isTrue();
        } finally {
            c.close();
        }
        try (Chronix again = open(FsyncPolicy.PER_BATCH)) {
            assertThat(again.syncFailure()).isEmpty();
            assertThat(again.segmentCount()).as("the flush whose catalog record failed did not happen").isZero();
            assertThat(rows(again)).as("both points, from the WAL").hasSize(2);
            again.flush();
            assertThat(again.segmentCount()).isEqualTo(1);
        }
    }
}
