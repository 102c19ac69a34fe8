package io.chronix.engine;

import io.chronix.engine.compaction.CompactionResult;
import io.chronix.engine.segment.SegmentWriterConfig;
import io.chronix.engine.store.CsxSegmentStore;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Compaction never changes an answer: random writes (overwrites of whole and partial points, absent
 * tags and fields, every type), flushes, compactions and reopens in random order, and after every
 * step every scan equals the plain model — so last write wins field by field across compacted and
 * newer segments, NULLs survive, schemas that grew between segments merge, and a compacted
 * namespace reopens to the same answers.
 *
 * <p>Seeded: the seed is printed on failure; rerun one with {@code -Dchronix.test.seed=N}. The
 * default build runs {@code -Dchronix.property.rounds} (default 12) seeds.
 */
class CompactionAgreesWithModelPropertyTest {

    @TempDir
    Path tmp;
    final EngineFixture fx = new EngineFixture();
    private final RandomPointsModel points = new RandomPointsModel(fx);

    @AfterEach
    void tearDown() {
        fx.close();
    }

    @Test
    void scansEqualTheModelThroughWritesFlushesCompactionsAndReopens() throws Exception {
        String fixed = System.getProperty("chronix.test.seed");
        int rounds = Integer.getInteger("chronix.property.rounds", 12);
        long base = fixed != null ? Long.parseLong(fixed) : new Random().nextLong();
        System.out.println("CompactionAgreesWithModelPropertyTest base seed=" + base);
        int compactions = 0;
        for (int round = 0; round < (fixed != null ? 1 : rounds); round++) {
            long seed = base + round;
            try {
                compactions += runOnce(seed);
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError("property failed; rerun with -Dchronix.test.seed=" + seed, e);
            }
        }
        assertThat(compactions).as("some compaction merged segments").isPositive();
    }

    /** @return how many groups were merged */
    private int runOnce(long seed) throws Exception {
        points.clear();
        Random rnd = new Random(seed);
        Path dir = Files.createTempDirectory(tmp, "ns");
        int rowGroupRows = 1 + rnd.nextInt(16);
        EngineConfig config = EngineFixture.config().withShardDuration(Duration.ofNanos(RandomPointsModel.SHARD))
                .withOooToleranceShards(1000).withFlushThresholdBytes(Long.MAX_VALUE / 2)
                .withTargetSegmentSizeBytes(64 + rnd.nextInt(4096))
                .withCompactionTrigger(1000).withMaintenanceInterval(Duration.ZERO) // only explicit compactions: the seed replays
                .withSegments((io, seg, tmpDir) -> new CsxSegmentStore(io, seg, tmpDir,
                        SegmentWriterConfig.defaults().withRowGroupRows(rowGroupRows)));
        int merged = 0;
        Chronix c = fx.open(dir, config);
        try {
            int steps = 6 + rnd.nextInt(10);
            for (int step = 0; step < steps; step++) {
                int op = rnd.nextInt(10);
                String when;
                if (op < 4) {
                    points.writeRandom(c, rnd, 1 + rnd.nextInt(3));
                    when = "after writes";
                } else if (op < 6) {
                    c.flush();
                    when = "after flush";
                } else if (op < 9) {
                    CompactionResult r = c.compact();
                    merged += r.groups();
                    assertThat(r.segmentsOut()).isLessThanOrEqualTo(r.groups());
                    assertThat(c.memtablePoints()).as("compact flushes first").isZero();
                    when = "after compaction " + r;
                } else {
                    c.close();
                    c = fx.open(dir, config);
                    when = "after reopen";
                }
                if (points.hasData()) {
                    points.check(c, rnd, "step " + step + " " + when);
                }
            }
            CompactionResult last = c.compact();
            merged += last.groups();
            if (points.hasData()) {
                points.check(c, rnd, "after the final compaction");
            }
            assertThat(c.l0Count()).as("one segment per shard and measurement after compact()").isLessThanOrEqualTo(1);
            c.close();
            c = fx.open(dir, config);
            if (points.hasData()) {
                points.check(c, rnd, "after the final compaction and a reopen");
            }
        } finally {
            c.close();
        }
        return merged;
    }
}
