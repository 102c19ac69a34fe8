package io.chronix.engine;

import io.chronix.engine.model.PointBatch;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.segment.SegmentWriterConfig;
import io.chronix.engine.store.CsxSegmentStore;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static io.chronix.engine.EngineFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A process dying at each point of a compaction — while the output is still a temporary file, after
 * it is published but before the catalog records the swap, after the catalog records it but before
 * the inputs are deleted — loses no point and stores none twice: the reopened engine answers what
 * was acknowledged, and the files on disk are exactly those the catalog holds.
 */
class CompactionCrashPointTest {

    @TempDir
    Path dir;
    final EngineFixture fx = new EngineFixture();

    @AfterEach
    void tearDown() {
        fx.close();
    }

    private static EngineConfig config() {
        // row groups of 8 rows, so the output is written in several parts; 1 min shards, several of them
        return EngineFixture.config().withShardDuration(Duration.ofMinutes(1)).withOooToleranceShards(100)
                .withMaintenanceInterval(Duration.ZERO)
                .withSegments((io, seg, tmp) -> new CsxSegmentStore(io, seg, tmp, SegmentWriterConfig.defaults().withRowGroupRows(8)));
    }

    private static List<PointBatch> batches() {
        List<PointBatch> out = new ArrayList<>();
        for (int b = 0; b < 4; b++) {
            PointBatch.Builder builder = PointBatch.builder();
            for (int i = 0; i < 30; i++) {
                long ts = T0 + (i % 15) * 7_000_000_000L; // the same timestamps in every batch: overwrites across segments
                builder.beginPoint("cpu", ts).tag("host", "h" + (i % 3));
                if ((b + i) % 3 != 0) {
                    builder.floatField("v", b * 100 + i);
                }
                builder.integerField("n" + (b % 2), b).endPoint();
            }
            out.add(builder.build());
        }
        return out;
    }

    private List<String> rows(Chronix c) {
        return fx.rows(c, ScanRequest.all("cpu"));
    }

    @ParameterizedTest(name = "crash at {0}")
    @ValueSource(strings = {"compaction-part-written", "compaction-output-published", "compaction-catalog-committed"})
    void crashDuringCompactionLosesNothingAndDuplicatesNothing(String point) throws IOException {
        Path ns = dir.resolve("ns");
        Chronix c = fx.open(ns, config());
        for (PointBatch b : batches()) {
            c.write(b);
            c.flush(); // one segment per batch and shard
        }
        List<String> expected = rows(c);
        int segmentsBefore = c.segmentCount();
        assertThat(c.l0Count()).as("several segments per shard to merge").isGreaterThanOrEqualTo(4);
        AtomicInteger fired = new AtomicInteger();
        c.testHook(p -> {
            if (p.equals(point)) {
                fired.incrementAndGet();
                throw new SimulatedCrash(p);
            }
        });
        assertThatThrownBy(c::compact).satisfies(e -> assertThat(SimulatedCrash.rootOf(e)).isInstanceOf(SimulatedCrash.class));
        assertThat(fired.get()).as("the crash point was reached").isPositive();
        c.crashForTest();

        try (Chronix reopened = fx.open(ns, config())) {
            assertThat(rows(reopened)).isEqualTo(expected);
            assertThat(segmentFilesOnDisk(ns)).as("no orphan survives the open").isEqualTo(reopened.segmentCount());
            if (point.equals("compaction-catalog-committed")) {
                assertThat(reopened.segmentCount()).as("the first group's swap was recorded").isLessThan(segmentsBefore);
            } else {
                assertThat(reopened.segmentCount()).isEqualTo(segmentsBefore);
            }
            reopened.compact();
            assertThat(rows(reopened)).isEqualTo(expected);
            assertThat(reopened.l0Count()).isEqualTo(1);
        }
        try (Chronix again = fx.open(ns, config())) {
            assertThat(rows(again)).isEqualTo(expected);
            assertThat(segmentFilesOnDisk(ns)).isEqualTo(again.segmentCount());
        }
    }

    private static long segmentFilesOnDisk(Path ns) throws IOException {
        try (Stream<Path> s = Files.walk(ns.resolve("segments"))) {
            return s.filter(p -> p.toString().endsWith(".csx")).count();
        }
    }
}
