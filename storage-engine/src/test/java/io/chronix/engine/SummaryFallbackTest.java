package io.chronix.engine;

import io.chronix.engine.model.PointBatch;
import io.chronix.engine.read.AggregateRequest;
import io.chronix.engine.read.AggregateResult;
import io.chronix.engine.read.TagPredicate;
import io.chronix.engine.summary.FieldAggregate;
import io.chronix.engine.summary.SummaryFormat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import static io.chronix.engine.EngineFixture.SECOND;
import static io.chronix.engine.EngineFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

/** A missing, damaged, foreign or stale summary costs speed, never correctness; overlapping sources fall back to blocks. */
class SummaryFallbackTest {

    @TempDir
    Path dir;
    final EngineFixture fx = new EngineFixture();

    @AfterEach
    void tearDown() {
        fx.close();
    }

    private static final int SHARDS = 6;

    private static EngineConfig config() {
        return EngineFixture.config().withShardDuration(Duration.ofSeconds(10)).withOooToleranceShards(1000);
    }

    private void writeShards(Chronix c) {
        for (int shard = 0; shard < SHARDS; shard++) {
            PointBatch.Builder b = PointBatch.builder();
            for (int s = 0; s < 10; s++) {
                for (int h = 0; h < 3; h++) {
                    b.beginPoint("m", T0 + shard * 10 * SECOND + s * SECOND).tag("host", "h" + h).floatField("v", shard * 100 + s + h * 0.5)
                            .integerField("n", shard - s * h).endPoint();
                }
            }
            c.write(b.build());
            c.flush(); // one segment per shard
        }
    }

    private static AggregateRequest all(String field) {
        return new AggregateRequest("m", field, Long.MIN_VALUE, Long.MAX_VALUE, List.of());
    }

    private static void assertEqual(AggregateResult a, AggregateResult b) {
        assertThat(a.series()).hasSameSizeAs(b.series());
        for (int i = 0; i < a.series().size(); i++) {
            FieldAggregate x = a.series().get(i).aggregate();
            FieldAggregate y = b.series().get(i).aggregate();
            assertThat(a.series().get(i).tags()).isEqualTo(b.series().get(i).tags());
            assertThat(x.toString()).isEqualTo(y.toString());
        }
    }

    private List<Path> summaries() throws Exception {
        try (Stream<Path> s = Files.walk(dir.resolve("segments"))) {
            return s.filter(p -> p.toString().endsWith(".summary")).sorted().toList();
        }
    }

    @Test
    void damagedMissingForeignAndStaleSummariesFallBackToBlocks() throws Exception {
        AggregateResult expected;
        try (Chronix c = fx.open(dir, config())) {
            writeShards(c);
            AggregateResult r = c.aggregate(all("v"), fx.allocator);
            expected = c.aggregate(all("v").withoutSummaries(), fx.allocator);
            assertThat(r.segmentsFromSummaries()).isEqualTo(SHARDS);
            assertThat(r.segmentsRead()).isZero();
            assertThat(expected.segmentsRead()).isEqualTo(SHARDS);
            assertEqual(r, expected);
            assertThat(r.series()).hasSize(3);
            assertThat(r.series().get(0).aggregate().count()).isEqualTo(SHARDS * 10);
        }
        List<Path> files = summaries();
        assertThat(files).hasSize(SHARDS);
        byte[] damaged = Files.readAllBytes(files.get(0));
        damaged[damaged.length / 2] ^= 0x10;
        Files.write(files.get(0), damaged);
        Files.delete(files.get(1));
        byte[] foreign = Files.readAllBytes(files.get(2));
        foreign[SummaryFormat.VERSION_OFFSET] = 9;
        Files.write(files.get(2), foreign);
        Files.copy(files.get(4), files.get(3), java.nio.file.StandardCopyOption.REPLACE_EXISTING); // another segment's summary
        try (Chronix c = fx.open(dir, config())) {
            AggregateResult r = c.aggregate(all("v"), fx.allocator);
            assertThat(r.segmentsFromSummaries()).isEqualTo(SHARDS - 4);
            assertThat(r.segmentsRead()).isEqualTo(4);
            assertEqual(r, expected);
        }
    }

    @Test
    void aSeriesWhoseSegmentsOverlapIsReadFromBlocksAndStillAddsUp() {
        try (Chronix c = fx.open(dir, config())) {
            writeShards(c);
            // overwrite one point of shard 2 in the memtable, then flush it as an overlapping segment
            c.write(PointBatch.builder().beginPoint("m", T0 + 20 * SECOND + 3 * SECOND).tag("host", "h1").floatField("v", 1e6)
                    .endPoint().build());
            AggregateResult withMemtable = c.aggregate(all("v"), fx.allocator);
            assertThat(withMemtable.segmentsFromSummaries()).isEqualTo(SHARDS - 1);
            assertEqual(withMemtable, c.aggregate(all("v").withoutSummaries(), fx.allocator));
            c.flush();
            AggregateResult overlapping = c.aggregate(all("v"), fx.allocator);
            assertThat(overlapping.segmentsFromSummaries()).as("shard 2's two segments overlap for h1").isEqualTo(SHARDS - 1);
            assertThat(overlapping.segmentsRead()).isEqualTo(2);
            assertEqual(overlapping, c.aggregate(all("v").withoutSummaries(), fx.allocator));
            // the overwrite replaced a value: count unchanged, sum moved by the difference
            FieldAggregate h1 = overlapping.series().get(1).aggregate();
            assertThat(h1.count()).isEqualTo(SHARDS * 10);
            assertThat(h1.max()).isEqualTo(1e6);
        }
    }

    @Test
    void compactionMergesOverlappingSegmentsIntoOneWithASummaryAgain() {
        try (Chronix c = fx.open(dir, config())) {
            writeShards(c);
            c.write(PointBatch.builder().beginPoint("m", T0 + 23 * SECOND).tag("host", "h1").floatField("v", 1e6).endPoint().build());
            c.flush(); // shard 2 now has two overlapping segments
            AggregateResult before = c.aggregate(all("v"), fx.allocator);
            assertThat(before.segmentsRead()).isEqualTo(2);
            c.compact();
            AggregateResult after = c.aggregate(all("v"), fx.allocator);
            assertThat(after.segmentsRead()).as("the output has its own summary").isZero();
            assertThat(after.segmentsFromSummaries()).isEqualTo(c.segmentCount());
            assertEqual(after, before);
            assertEqual(after, c.aggregate(all("v").withoutSummaries(), fx.allocator));
            assertThat(c.lastValue("m", java.util.Map.of("host", "h1"), fx.allocator).orElseThrow().timestamp())
                    .isEqualTo(T0 + (SHARDS * 10 - 1) * SECOND);
        }
    }

    @Test
    void aRangeCoveringPartOfASegmentReadsThatSegmentOnly() {
        try (Chronix c = fx.open(dir, config())) {
            writeShards(c);
            AggregateRequest req = new AggregateRequest("m", "n", T0 + 15 * SECOND, T0 + 45 * SECOND, List.of(new TagPredicate.Eq("host", "h2")));
            AggregateResult r = c.aggregate(req, fx.allocator);
            assertThat(r.segmentsFromSummaries()).isEqualTo(2); // shards 2 and 3 wholly inside
            assertThat(r.segmentsRead()).isEqualTo(2); // shards 1 and 4 in part
            assertEqual(r, c.aggregate(req.withoutSummaries(), fx.allocator));
            FieldAggregate a = r.series().getFirst().aggregate();
            assertThat(a.count()).isEqualTo(31);
            assertThat(a.firstTime()).isEqualTo(T0 + 15 * SECOND);
            assertThat(a.lastTime()).isEqualTo(T0 + 45 * SECOND);
        }
    }
}
