package io.chronix.engine;

import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.rollup.RollupConfig;
import io.chronix.engine.rollup.RollupInfo;
import io.chronix.engine.wal.FsyncPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static io.chronix.engine.RollupTest.HOUR;
import static io.chronix.engine.EngineFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;


/**
 * A power loss while rollup points are written never leaves a watermark past missing rows — under
 * {@link FsyncPolicy#PERIODIC}, where a WAL append is only in the kernel's buffers until the next
 * sync (which this test's interval never reaches). The loss ({@link WalLossFileIO}) cuts the WAL
 * back to what its last fsync made durable.
 */
class RollupCrashTest {

    @TempDir
    Path ns;
    final EngineFixture fx = new EngineFixture();

    @AfterEach
    void tearDown() {
        fx.close();
    }

    private static EngineConfig config(WalLossFileIO io) {
        return RollupTest.config().withIo(io).withFsyncPolicy(FsyncPolicy.PERIODIC).withFsyncInterval(Duration.ofDays(1));
    }

    /**
     * {@code none}: the pass completes and the power goes right after it; the others: the process
     * dies at that point of the pass, then the power goes.
     */
    @ParameterizedTest(name = "loss at {0}")
    @ValueSource(strings = {"none", "rollup-points-synced", "rollup-repair-synced"})
    void aWatermarkNeverClaimsRowsALossDropped(String point) throws Exception {
        WalLossFileIO io = new WalLossFileIO();
        RollupConfig cfg = RollupTest.tenMinutes("r", "cpu", "cpu_10m");
        Chronix c = fx.open(ns, config(io));
        RollupTest.writeHours(c, 0, 8);
        c.addRollup(cfg);
        c.flush(); // the source is in (synced) segments; what follows is rollup work only
        if (point.equals("rollup-repair-synced")) {
            c.materialiseRollups();
            c.refreshRollup("r", T0, T0 + 2 * HOUR);
            c.flush();
        }
        long before = c.rollup("r").orElseThrow().materialisedUntil();
        AtomicInteger fired = new AtomicInteger();
        c.testHook(p -> {
            if (p.equals(point)) {
                fired.incrementAndGet();
                throw new SimulatedCrash(p);
            }
        });
        int syncsBefore = io.walSyncs;
        if (point.equals("none")) {
            c.materialiseRollups();
            assertThat(c.memtablePoints()).as("the target points are only in the WAL and memtables").isPositive();
            assertThat(io.walSyncs).as("the pass synced the WAL itself").isGreaterThan(syncsBefore);
        } else {
            assertThat(c.materialiseRollups().outcome("r").orElseThrow().failure()).hasValueSatisfying(
                    m -> assertThat(m).contains("simulated crash"));
            assertThat(fired.get()).as("the crash point was reached").isPositive();
        }
        io.powerLoss();
        c.crashForTest();

        try (Chronix reopened = fx.open(ns, config(io))) {
            RollupInfo info = reopened.rollup("r").orElseThrow();
            long until = info.materialisedUntil();
            if (point.equals("none")) {
                assertThat(until).as("the pass persisted its watermark").isEqualTo(T0 + 5 * HOUR).isGreaterThan(before);
            } else {
                assertThat(until).as("the crashed pass did not move the watermark").isEqualTo(before);
            }
            List<String> stored = List.of();
            if (until != Long.MIN_VALUE) { // no watermark claims nothing; points past it are redone
                try (var r = reopened.scanStored(ScanRequest.all("cpu_10m").withTimeRange(Long.MIN_VALUE, until - 1), fx.allocator,
                        true)) {
                    stored = RollupModel.sorted(EngineFixture.render(r));
                }
            }
            List<String> expected = RollupModel.expected(reopened, cfg, Long.MIN_VALUE, until, fx.allocator);
            if (info.pendingInvalid().isEmpty()) {
                assertThat(stored).as("every row the watermark claims is there").isEqualTo(expected);
            } else {
                assertThat(point).isEqualTo("rollup-repair-synced"); // the repair's range is still pending: redone next pass
            }
            reopened.materialiseRollups();
            try (var r = reopened.scanStored(ScanRequest.all("cpu_10m").withTimeRange(Long.MIN_VALUE, T0 + 5 * HOUR - 1), fx.allocator,
                    true)) {
                assertThat(RollupModel.sorted(EngineFixture.render(r)))
                        .isEqualTo(RollupModel.expected(reopened, cfg, Long.MIN_VALUE, T0 + 5 * HOUR, fx.allocator));
            }
        }
    }
}
