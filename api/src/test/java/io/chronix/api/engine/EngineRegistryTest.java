package io.chronix.api.engine;

import io.chronix.api.config.DataDirectory;
import io.chronix.api.namespace.NamespaceLocations;
import io.chronix.engine.Chronix;
import io.chronix.engine.EngineConfig;
import io.chronix.engine.maintenance.MaintenanceScheduler;
import io.chronix.engine.model.PointBatch;
import io.chronix.engine.storage.NamespaceId;
import io.chronix.engine.wal.FsyncPolicy;
import io.chronix.tenancy.namespace.Namespace;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.util.unit.DataSize;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EngineRegistryTest {

    @TempDir
    Path tmp;

    private DataDirectory data;
    private MaintenanceScheduler scheduler;
    private final AtomicLong ticker = new AtomicLong();
    private EngineRegistry registry;

    @BeforeEach
    void setUp() {
        data = DataDirectory.open(tmp.resolve("data"));
        scheduler = MaintenanceScheduler.create(1);
    }

    @AfterEach
    void tearDown() {
        if (registry != null) {
            registry.close();
        }
        scheduler.close();
        data.close();
    }

    private EngineRegistry registry(EngineProperties p) {
        registry = new EngineRegistry(new NamespaceLocations(data), p, scheduler, ticker::get, c -> c);
        return registry;
    }

    private static EngineProperties props(Duration idle, DataSize budget) {
        EngineProperties d = EngineProperties.defaults();
        return new EngineProperties(d.fsyncPolicy(), d.fsyncInterval(), d.shardDuration(), d.oooToleranceShards(),
                d.futureTolerance(), d.flushThreshold(), budget, idle, Duration.ofHours(1), 1, d.storageRetryInterval(), d.diskFreeThreshold());
    }

    private static Namespace ns(long id, String settings) {
        return new Namespace(id, new UUID(0, id), "ns" + id, Duration.ofDays(30), null, settings, Instant.EPOCH); // one tenant per id: a directory belongs to one owner
    }

    private static PointBatch point(long ts, double v) {
        return PointBatch.builder().beginPoint("cpu", ts).tag("host", "a").floatField("usage", v).endPoint().build();
    }

    private static double lastUsage(Chronix c) {
        try (RootAllocator a = new RootAllocator()) {
            return c.lastValue("cpu", Map.of("host", "a"), a).orElseThrow().fields().get("usage") instanceof Double d ? d : Double.NaN;
        }
    }

    @Test
    void opensLazilyOneEnginePerNamespaceInItsIdDirectory() {
        EngineRegistry r = registry(props(Duration.ofMinutes(10), DataSize.ofMegabytes(512)));
        assertThat(r.openEngines()).isZero();
        Chronix a;
        try (var lease = r.acquire(ns(7, "{}"))) {
            a = lease.engine();
            a.write(point(1_000, 1.0));
        }
        try (var lease = r.acquire(ns(7, "{}"))) {
            assertThat(lease.engine()).isSameAs(a);
        }
        assertThat(r.openEngines()).isEqualTo(1);
        assertThat(a.directory()).isEqualTo(data.namespaces().resolve("7"));
        assertThat(a.config().fsyncPolicy()).isEqualTo(FsyncPolicy.PER_BATCH);
    }

    @Test
    void namespaceSettingsWinOverServiceDefaults() {
        EngineRegistry r = registry(props(Duration.ofMinutes(10), DataSize.ofMegabytes(512)));
        EngineConfig c = r.apply(ns(3, "{\"fsyncPolicy\":\"periodic\",\"oooToleranceShards\":5,\"futureTolerance\":\"PT5M\"}"),
                Chronix::config);
        assertThat(c.fsyncPolicy()).isEqualTo(FsyncPolicy.PERIODIC);
        assertThat(c.oooToleranceShards()).isEqualTo(5);
        assertThat(c.futureTolerance()).isEqualTo(Duration.ofMinutes(5));
        assertThat(c.shardDuration()).isEqualTo(Duration.ofHours(1));
        assertThatThrownBy(() -> r.acquire(ns(4, "{\"fsyncPolicy\":\"sometimes\"}")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("fsyncPolicy");
        assertThat(r.openEngines()).isEqualTo(1);
    }

    @Test
    void idleEngineIsClosedAndReopenedTransparentlyWithNothingLost() {
        EngineRegistry r = registry(props(Duration.ofMinutes(1), DataSize.ofMegabytes(512)));
        Namespace n = ns(1, "{}");
        var held = r.acquire(n);
        held.engine().write(point(1_000, 1.5));
        ticker.addAndGet(Duration.ofMinutes(5).toNanos());
        assertThat(r.closeIdle()).as("a held engine is never closed").isZero();
        held.close();
        assertThat(r.closeIdle()).as("idle only from the release on").isZero();
        ticker.addAndGet(Duration.ofMinutes(2).toNanos());
        assertThat(r.closeIdle()).isEqualTo(1);
        assertThat(r.openEngines()).isZero();
        assertThat(r.apply(n, EngineRegistryTest::lastUsage)).isEqualTo(1.5);
        assertThat(r.opens()).isEqualTo(2);
    }

    @Test
    void acquiresRacingIdleClosesNeverFindTheDirectoryLocked() throws Exception {
        EngineRegistry r = registry(props(Duration.ofNanos(1), DataSize.ofMegabytes(512)));
        Namespace n = ns(11, "{}");
        java.util.concurrent.atomic.AtomicReference<Throwable> failure = new java.util.concurrent.atomic.AtomicReference<>();
        Thread sweeper = new Thread(() -> {
            for (int i = 0; i < 300 && failure.get() == null; i++) {
                ticker.incrementAndGet();
                r.closeIdle();
            }
        });
        Thread user = new Thread(() -> {
            try {
                for (int i = 0; i < 300 && failure.get() == null; i++) {
                    long ts = 1_000 + i;
                    r.apply(n, e -> e.write(point(ts, ts)));
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        sweeper.start();
        user.start();
        sweeper.join();
        user.join();
        assertThat(failure.get()).isNull();
        assertThat(r.apply(n, EngineRegistryTest::lastUsage)).isEqualTo(1_299.0);
    }

    @Test
    void deletionClosesTheEngineAndRefusesLaterUse() throws Exception {
        EngineRegistry r = registry(props(Duration.ofMinutes(10), DataSize.ofMegabytes(512)));
        Namespace n = ns(9, "{}");
        Chronix c = r.apply(n, e -> {
            e.write(point(1_000, 1.0));
            return e;
        });
        r.beforeDataRemoval(new NamespaceId(9));
        r.beforeDataRemoval(new NamespaceId(9)); // idempotent
        assertThat(r.openEngines()).isZero();
        assertThatThrownBy(() -> c.measurements()).isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> r.acquire(n)).isInstanceOf(NamespaceGoneException.class);
        // the directory is free for the reaper: another engine may take its lock
        try (Chronix again = Chronix.open(data.namespaces().resolve("9"), EngineConfig.defaults(), scheduler)) {
            assertThat(again.measurements()).containsExactly("cpu");
        }
    }

    @Test
    void passingTheMemtableBudgetFlushesTheLargestEngine() {
        EngineRegistry r = registry(props(Duration.ofMinutes(10), DataSize.ofBytes(1)));
        try (var small = r.acquire(ns(1, "{}")); var big = r.acquire(ns(2, "{}"))) {
            small.engine().write(point(1_000, 1.0));
            PointBatch.Builder b = PointBatch.builder();
            for (int i = 0; i < 500; i++) {
                b.beginPoint("cpu", 1_000 + i).tag("host", "h" + i).floatField("usage", i).endPoint();
            }
            big.engine().write(b.build());
            assertThat(r.memtableBytes()).isPositive();
            r.enforceBudget();
            assertThat(big.engine().memtableBytes()).isZero();
            assertThat(big.engine().segmentCount()).isPositive();
            assertThat(r.budgetFlushes()).isPositive();
        }
    }

    @Test
    void closeFlushesOnlyLargeMemtablesAndEveryOtherEngineReplaysItsWal() throws Exception {
        EngineRegistry r = registry(props(Duration.ofMinutes(10), DataSize.ofMegabytes(512)));
        for (long id = 100; id < 140; id++) {
            double v = id;
            r.apply(ns(id, "{}"), e -> e.write(point(1_000, v)));
        }
        PointBatch.Builder b = PointBatch.builder();
        for (int i = 0; i < 2_000; i++) {
            b.beginPoint("cpu", 1_000 + i).tag("host", i == 0 ? "a" : "h" + i).floatField("usage", i == 0 ? 2.5 : i).endPoint();
        }
        r.apply(ns(5, "{}"), e -> e.write(b.build()));
        long small = r.apply(ns(100, "{}"), Chronix::memtableBytes);
        long large = r.apply(ns(5, "{}"), Chronix::memtableBytes);
        assertThat(large).isGreaterThan(4 * small);
        r.shutdownFlushMinBytes((small + large) / 2); // the service's 8 MiB, scaled to the test's engines
        r.close();
        assertThatThrownBy(() -> r.acquire(ns(5, "{}"))).isInstanceOf(IllegalStateException.class);

        try (Chronix again = Chronix.open(data.namespaces().resolve("5"), EngineConfig.defaults(), scheduler)) {
            assertThat(again.memtablePoints()).as("flushed before it closed: nothing to replay").isZero();
            assertThat(again.segmentCount()).isPositive();
            assertThat(lastUsage(again)).isEqualTo(2.5);
        }
        for (long id = 100; id < 140; id++) {
            try (Chronix again = Chronix.open(data.namespaces().resolve(Long.toString(id)), EngineConfig.defaults(), scheduler)) {
                assertThat(again.segmentCount()).as("closed as it was").isZero();
                assertThat(again.memtablePoints()).as("its point replayed from the WAL").isEqualTo(1);
                assertThat(lastUsage(again)).isEqualTo((double) id);
            }
        }
    }
}
