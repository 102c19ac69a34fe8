package io.chronix.api.engine;

import io.chronix.api.config.DataDirectory;
import io.chronix.api.namespace.NamespaceLocations;
import io.chronix.engine.error.DiskFullException;
import io.chronix.engine.error.WalPoisonedException;
import io.chronix.engine.io.FaultInjectingFileIO;
import io.chronix.engine.maintenance.MaintenanceScheduler;
import io.chronix.engine.model.PointBatch;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.read.ScanResult;
import io.chronix.tenancy.namespace.Namespace;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.util.unit.DataSize;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The registry and a failing disk: an engine whose fsync failed is cut back and reopened from what
 * was synced once the device works again; an engine that cannot be opened is retried after the
 * interval, refused quickly before it; the health component's view follows.
 */
class EngineRegistryStorageFaultTest {

    static final Duration RETRY = Duration.ofHours(1); // driven by the ticker, never by the clock

    @TempDir
    Path tmp;

    private DataDirectory data;
    private MaintenanceScheduler scheduler;
    private final AtomicLong ticker = new AtomicLong();
    private final AtomicBoolean syncFails = new AtomicBoolean();
    private final AtomicBoolean diskFull = new AtomicBoolean();
    private EngineRegistry registry;

    @BeforeEach
    void setUp() {
        data = DataDirectory.open(tmp.resolve("data"));
        scheduler = MaintenanceScheduler.create(1);
        EngineProperties d = EngineProperties.defaults();
        EngineProperties p = new EngineProperties(d.fsyncPolicy(), d.fsyncInterval(), d.shardDuration(), d.oooToleranceShards(),
                d.futureTolerance(), d.flushThreshold(), d.memtableBudget(), Duration.ofHours(1), Duration.ofHours(1), 1, RETRY,
                DataSize.ofMegabytes(1));
        registry = new EngineRegistry(new NamespaceLocations(data), p, scheduler, ticker::get,
                c -> c.withIo(new FaultInjectingFileIO(c.io(), path -> syncFails.get(), path -> diskFull.get())));
    }

    @AfterEach
    void tearDown() {
        syncFails.set(false);
        diskFull.set(false);
        registry.close();
        scheduler.close();
        data.close();
    }

    private static Namespace ns(long id) {
        return new Namespace(id, UUID.randomUUID(), "ns" + id, Duration.ofDays(30), null, "{}", Instant.EPOCH);
    }

    private static PointBatch point(long ts, double v) {
        return PointBatch.builder().beginPoint("cpu", ts).tag("host", "a").floatField("usage", v).endPoint().build();
    }

    private long rows(Namespace n) {
        try (var lease = registry.acquire(n); RootAllocator a = new RootAllocator();
             ScanResult r = lease.engine().scan(new ScanRequest("cpu", List.of(), Long.MIN_VALUE, Long.MAX_VALUE, List.of()), a)) {
            return r.rowCount();
        }
    }

    @Test
    void anEngineWhoseFsyncFailedIsReopenedFromWhatWasSyncedOnceTheDeviceWorks() {
        Namespace n = ns(1);
        try (var lease = registry.acquire(n)) {
            lease.engine().write(point(1_000, 1.0));
        }
        syncFails.set(true);
        try (var lease = registry.acquire(n)) {
            WalPoisonedException e = org.junit.jupiter.api.Assertions.assertThrows(WalPoisonedException.class,
                    () -> lease.engine().write(point(2_000, 2.0)));
            registry.syncFailed(n, e);
        }
        assertThat(registry.storageFailures()).containsOnlyKeys(1L);

        // the device still fails: the cut cannot be made durable, so the engine stays as it is
        try (var lease = registry.acquire(n)) {
            assertThatThrownBy(() -> lease.engine().write(point(3_000, 3.0))).isInstanceOf(WalPoisonedException.class);
        }
        assertThat(registry.storageReopens()).isZero();

        syncFails.set(false);
        try (var lease = registry.acquire(n)) {
            assertThatThrownBy(() -> lease.engine().write(point(3_000, 3.0))).as("not retried before the interval")
                    .isInstanceOf(WalPoisonedException.class);
        }
        ticker.addAndGet(RETRY.toNanos());
        registry.recoverFailed(); // what the registry's own task does every interval
        assertThat(registry.storageReopens()).isEqualTo(1);
        assertThat(registry.storageFailures()).isEmpty();
        try (var lease = registry.acquire(n)) {
            assertThat(lease.engine().syncFailure()).isEmpty();
            lease.engine().write(point(4_000, 4.0));
        }
        // the refused points' records had reached the file; the reopen replayed only what was synced
        assertThat(rows(n)).isEqualTo(2);
    }

    @Test
    void anEngineThatCannotBeOpenedIsRefusedQuicklyAndRetriedAfterTheInterval() {
        Namespace n = ns(2);
        diskFull.set(true);
        assertThatThrownBy(() -> registry.acquire(n)).satisfies(e -> assertThat(StorageFault.of(e)).isEqualTo(StorageFault.DISK_FULL));
        assertThat(registry.storageFailures()).containsOnlyKeys(2L);
        assertThatThrownBy(() -> registry.acquire(n)).as("not tried again before the interval")
                .isInstanceOf(StorageUnavailableException.class)
                .satisfies(e -> assertThat(StorageFault.of(e)).isEqualTo(StorageFault.DISK_FULL));
        diskFull.set(false);
        ticker.addAndGet(RETRY.toNanos());
        registry.recoverFailed();
        assertThat(registry.storageFailures()).isEmpty();
        try (var lease = registry.acquire(n)) {
            lease.engine().write(point(1_000, 1.0));
        }
    }

    @Test
    void aFailureNoRequestSawIsFoundByTheRecoveryPass() throws Exception {
        Namespace n = ns(3);
        try (var lease = registry.acquire(n)) {
            lease.engine().write(point(1_000, 1.0));
            syncFails.set(true);
            assertThatThrownBy(() -> lease.engine().flush()).isInstanceOf(RuntimeException.class); // a background flush, say
        }
        syncFails.set(false);
        registry.recoverFailed();
        assertThat(registry.storageFailures()).as("a failed segment fsync poisons nothing: the flush is retried").isEmpty();
        try (var lease = registry.acquire(n)) {
            lease.engine().flush();
            assertThat(lease.engine().segmentCount()).isEqualTo(1);
        }
    }

    @Test
    void aClassifierTellsAFullDeviceFromAFailingOne() {
        assertThat(StorageFault.of(new DiskFullException(tmp, 0, new java.io.IOException("No space left on device")))).isEqualTo(StorageFault.DISK_FULL);
        assertThat(StorageFault.of(new io.chronix.engine.error.StorageIoException("write segment", tmp, 0,
                new java.io.IOException("No space left on device")))).isEqualTo(StorageFault.DISK_FULL);
        assertThat(StorageFault.of(new WalPoisonedException(tmp, new java.io.IOException("Input/output error")))).isEqualTo(StorageFault.SYNC_FAILED);
        assertThat(StorageFault.of(new io.chronix.engine.error.WalIoException("write", tmp, 0, new java.io.IOException("Input/output error"))))
                .isEqualTo(StorageFault.IO_FAILED);
        assertThat(StorageFault.of(new IllegalStateException("no"))).isNull();
    }
}
