package io.chronix.engine;

import io.chronix.engine.model.PointBatch;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.read.ScanResult;
import io.chronix.engine.read.TagPredicate;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.chronix.engine.EngineFixture.SECOND;
import static io.chronix.engine.EngineFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Chronix#scanUnordered}: which segments skip the row merge (only those no other source can
 * overwrite), and that the answer is {@link Chronix#scan}'s, row for row, whichever path a segment
 * takes. The model-based property test ({@code ReadsAgreeWithModelPropertyTest}) covers random data;
 * these pin the cases one by one.
 */
class ScanUnorderedTest extends TenMinuteShardsTest {


    /** {@code hosts} hosts, one point each per second over {@code [start, start + seconds)}. */
    private void write(long start, int seconds, int hosts, boolean withLoad) {
        PointBatch.Builder b = PointBatch.builder();
        for (int s = 0; s < seconds; s++) {
            for (int h = 0; h < hosts; h++) {
                b.beginPoint("cpu", start + s * SECOND).tag("host", "h" + h).tag("dc", h % 2 == 0 ? "east" : "west")
                        .floatField("usage", s * 10 + h);
                if (withLoad) {
                    b.integerField("load", s);
                }
                b.endPoint();
            }
        }
        engine.write(b.build());
    }

    private ScanResultRows both(ScanRequest request) {
        List<String> ordered = fx.rows(engine, request);
        try (ScanResult r = engine.scanUnordered(request, fx.allocator)) {
            List<String> unordered = EngineFixture.render(r);
            List<String> a = new ArrayList<>(ordered);
            List<String> b = new ArrayList<>(unordered);
            a.sort(null);
            b.sort(null);
            assertThat(b).as("unordered rows equal ordered rows for %s", request).isEqualTo(a);
            List<List<String>> columns = new ArrayList<>();
            for (VectorSchemaRoot batch : r.batches()) {
                columns.add(batch.getSchema().getFields().stream().map(f -> f.getName()).toList());
            }
            return new ScanResultRows(ordered.size(), r.settledSegments(), columns);
        }
    }

    private record ScanResultRows(int rows, int settled, List<List<String>> batchColumns) {
    }

    /** Reads as {@code inner} does, but the third read fails after handing over its batches. */
    private record FailingReads(io.chronix.engine.store.SegmentStore inner, java.util.concurrent.atomic.AtomicInteger reads)
            implements io.chronix.engine.store.SegmentStore {
        @Override
        public long write(io.chronix.engine.segment.SegmentFile file, io.chronix.engine.segment.SegmentColumns columns, long maxWalSequence) {
            return inner.write(file, columns, maxWalSequence);
        }

        @Override
        public void read(io.chronix.engine.segment.SegmentFile file, List<String> columns, long from, long to, List<TagPredicate> tags,
                org.apache.arrow.memory.BufferAllocator allocator, java.util.function.Consumer<VectorSchemaRoot> sink) {
            inner.read(file, columns, from, to, tags, allocator, sink);
            if (reads.incrementAndGet() == 3) {
                throw new IllegalStateException("the disk went away");
            }
        }

        @Override
        public void delete(io.chronix.engine.segment.SegmentFile file) {
            inner.delete(file);
        }

        @Override
        public int rowGroupCount(io.chronix.engine.segment.SegmentFile file) {
            return inner.rowGroupCount(file);
        }

        @Override
        public void close() {
            inner.close();
        }
    }

    @Test
    void segmentsOfDistinctShardsSkipTheMerge() {
        open();
        write(T0, 60, 4, false);
        write(T0 + 600 * SECOND, 60, 4, false);
        engine.flush();
        ScanResultRows all = both(ScanRequest.all("cpu"));
        assertThat(all.rows()).isEqualTo(480);
        assertThat(all.settled()).isEqualTo(2);
        ScanResultRows filtered = both(ScanRequest.all("cpu").withTimeRange(T0 + 30 * SECOND, T0 + 630 * SECOND)
                .withTags(new TagPredicate.In("host", java.util.Set.of("h1", "h3"))));
        assertThat(filtered.rows()).isEqualTo(2 * 30 + 2 * 31);
        assertThat(filtered.settled()).isEqualTo(2);
    }

    @Test
    void settledSegmentsReadSideBySideAnswerTheSame() {
        open();
        for (int shard = 0; shard < 6; shard++) {
            write(T0 + shard * 600 * SECOND, 60, 4, true);
        }
        engine.flush();
        write(T0 + 4000 * SECOND, 10, 4, true); // in the memtable: through the merge, beside the helpers
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            for (ScanRequest request : List.of(ScanRequest.all("cpu"),
                    ScanRequest.all("cpu").withTags(new TagPredicate.Eq("dc", "east")).withTimeRange(T0 + 100 * SECOND, T0 + 3000 * SECOND),
                    ScanRequest.all("cpu").withFields(io.chronix.engine.read.FieldPredicate.atLeast("usage", 500)))) {
                long settledBefore = fx.settledSegments;
                List<String> alone = new ArrayList<>(fx.rowsUnordered(engine, request));
                long settledAlone = fx.settledSegments - settledBefore;
                List<String> shared;
                try (ScanResult r = engine.scanUnordered(request, fx.allocator, new io.chronix.engine.read.ScanHelpers(pool, 2, 0))) {
                    // several settled segments (the background compaction may have joined two)
                    assertThat((long) r.settledSegments()).isEqualTo(settledAlone).isGreaterThanOrEqualTo(3);
                    shared = new ArrayList<>(EngineFixture.render(r));
                }
                alone.sort(null);
                shared.sort(null);
                assertThat(shared).as("%s", request).isEqualTo(alone).isNotEmpty();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void onlyScansExpectedToReadEnoughRowsWakeAHelper() {
        open();
        for (int shard = 0; shard < 6; shard++) {
            write(T0 + shard * 600 * SECOND, 60, 4, false); // 6 segments of 240 rows, 4 series
        }
        engine.flush();
        java.util.concurrent.atomic.AtomicInteger handedOut = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.Executor counting = task -> {
            handedOut.incrementAndGet();
            task.run();
        };
        io.chronix.engine.read.ScanHelpers helpers = new io.chronix.engine.read.ScanHelpers(counting, 2, 1000);
        record Case(String name, ScanRequest request, boolean wakes) {
        }
        for (Case c : List.of(
                new Case("all 1,440 rows", ScanRequest.all("cpu"), true),
                new Case("one series of four: ~360 rows", ScanRequest.all("cpu").withTags(new TagPredicate.Eq("host", "h1")), false),
                new Case("two series of four over the whole range: ~720 rows",
                        ScanRequest.all("cpu").withTags(new TagPredicate.Eq("dc", "east")), false),
                new Case("every series over a third of the time: ~480 rows",
                        ScanRequest.all("cpu").withTimeRange(T0, T0 + 1199 * SECOND), false))) {
            handedOut.set(0);
            List<String> alone = new ArrayList<>(fx.rowsUnordered(engine, c.request()));
            List<String> shared;
            try (ScanResult r = engine.scanUnordered(c.request(), fx.allocator, helpers)) {
                assertThat(r.settledSegments()).as(c.name()).isGreaterThanOrEqualTo(2);
                shared = new ArrayList<>(EngineFixture.render(r));
            }
            assertThat(handedOut.get() > 0).as("%s wakes a helper", c.name()).isEqualTo(c.wakes());
            alone.sort(null);
            shared.sort(null);
            assertThat(shared).as(c.name()).isEqualTo(alone).isNotEmpty();
        }
    }

    @Test
    void aReadFailingWhileHelpersWorkFailsTheScanAndLeaksNoBuffer() {
        java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();
        engine = fx.open(dir, tenMinuteShards()
                .withSegments((io, seg, tmp) -> new FailingReads(new io.chronix.engine.store.CsxSegmentStore(io, seg, tmp), reads)));
        for (int shard = 0; shard < 6; shard++) {
            write(T0 + shard * 600 * SECOND, 60, 4, false);
        }
        engine.flush();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            reads.set(0);
            org.assertj.core.api.Assertions.assertThatThrownBy(
                    () -> engine.scanUnordered(ScanRequest.all("cpu"), fx.allocator, new io.chronix.engine.read.ScanHelpers(pool, 2, 0)))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("the disk went away");
            assertThat(reads.get()).isGreaterThanOrEqualTo(3);
            assertThat(fx.allocator.getAllocatedMemory()).as("every batch read was closed").isZero();
        } finally {
            pool.shutdownNow();
        }
    }

    /** Six settled segments and a memtable's rows: every path a streamed scan hands batches from. */
    private void sixShardsAndAMemtable() {
        open();
        for (int shard = 0; shard < 6; shard++) {
            write(T0 + shard * 600 * SECOND, 60, 4, true);
        }
        engine.flush();
        write(T0 + 4000 * SECOND, 10, 4, true);
    }

    @Test
    void aStreamedScanHandsOverTheScansRowsBatchByBatchAndClosesEach() {
        sixShardsAndAMemtable();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            for (ScanRequest request : List.of(ScanRequest.all("cpu"),
                    ScanRequest.all("cpu").withTags(new TagPredicate.Eq("dc", "east")).withTimeRange(T0 + 100 * SECOND, T0 + 4005 * SECOND))) {
                List<String> expected = new ArrayList<>(fx.rowsUnordered(engine, request));
                List<String> streamed = java.util.Collections.synchronizedList(new ArrayList<>());
                java.util.Set<Thread> threads = java.util.concurrent.ConcurrentHashMap.newKeySet();
                java.util.concurrent.atomic.AtomicInteger consumers = new java.util.concurrent.atomic.AtomicInteger();
                java.util.List<VectorSchemaRoot> lent = java.util.Collections.synchronizedList(new ArrayList<>());
                io.chronix.engine.read.BatchSink sink = () -> {
                    consumers.incrementAndGet();
                    Thread opener = Thread.currentThread();
                    return batch -> {
                        assertThat(Thread.currentThread()).as("a consumer is used on the thread that opened it").isSameAs(opener);
                        threads.add(opener);
                        streamed.addAll(EngineFixture.render(batch));
                        lent.add(batch);
                        return true;
                    };
                };
                io.chronix.engine.read.StreamedScan s = engine.scanUnordered(request, fx.allocator,
                        new io.chronix.engine.read.ScanHelpers(pool, 2, 0), sink);
                assertThat(s.complete()).isTrue();
                assertThat(s.rows()).isEqualTo(expected.size());
                assertThat(s.batches()).isEqualTo(lent.size());
                assertThat(s.settledSegments()).isGreaterThanOrEqualTo(3);
                assertThat(s.statistics().rowsRead()).isGreaterThanOrEqualTo(s.rows());
                assertThat(consumers.get()).isGreaterThanOrEqualTo(threads.size());
                assertThat(fx.allocator.getAllocatedMemory()).as("every batch closed after its call").isZero();
                assertThat(lent).allSatisfy(b -> assertThat(b.getFieldVectors()).allSatisfy(v -> assertThat(v.getBufferSize()).isZero()));
                expected.sort(null);
                streamed.sort(null);
                assertThat(streamed).as("%s", request).isEqualTo(expected).isNotEmpty();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aConsumerThatRefusesABatchStopsTheStreamedScan() {
        sixShardsAndAMemtable();
        java.util.concurrent.atomic.AtomicInteger handed = new java.util.concurrent.atomic.AtomicInteger();
        io.chronix.engine.read.StreamedScan s = engine.scanUnordered(ScanRequest.all("cpu"), fx.allocator, null,
                () -> batch -> handed.incrementAndGet() < 2);
        assertThat(s.complete()).isFalse();
        assertThat(handed.get()).as("no batch after the refusal (one thread)").isEqualTo(2);
        assertThat(s.batches()).isEqualTo(2);
        assertThat(fx.allocator.getAllocatedMemory()).isZero();
    }

    @Test
    void aConsumerThatFailsFailsTheStreamedScanAndLeaksNoBuffer() {
        sixShardsAndAMemtable();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            java.util.concurrent.atomic.AtomicInteger handed = new java.util.concurrent.atomic.AtomicInteger();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> engine.scanUnordered(ScanRequest.all("cpu"), fx.allocator,
                    new io.chronix.engine.read.ScanHelpers(pool, 2, 0), () -> batch -> {
                        if (handed.incrementAndGet() == 3) {
                            throw new IllegalStateException("the consumer gave up");
                        }
                        return true;
                    })).isInstanceOf(IllegalStateException.class).hasMessage("the consumer gave up");
            assertThat(fx.allocator.getAllocatedMemory()).isZero();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void overlappingSegmentsOfOneShardAreMerged() {
        open();
        write(T0, 60, 4, false);
        engine.flush();
        write(T0 + 30 * SECOND, 60, 4, false); // overwrites the second half of the first segment
        engine.flush();
        ScanResultRows all = both(ScanRequest.all("cpu"));
        assertThat(all.rows()).isEqualTo(90 * 4);
        assertThat(all.settled()).isZero();
        // a range touching only the first segment's own part: the second segment is pruned, the first is alone
        ScanResultRows early = both(ScanRequest.all("cpu").withTimeRange(T0, T0 + 29 * SECOND));
        assertThat(early.rows()).isEqualTo(30 * 4);
        assertThat(early.settled()).isEqualTo(1);
    }

    @Test
    void aSegmentOverlappingTheMemtableIsMergedAndOneThatDoesNotIsNot() {
        open();
        write(T0, 60, 4, false);
        write(T0 + 600 * SECOND, 60, 4, false);
        engine.flush();
        write(T0 + 610 * SECOND, 5, 4, false); // memtable overwrites inside the second segment
        ScanResultRows all = both(ScanRequest.all("cpu"));
        assertThat(all.rows()).isEqualTo(480);
        assertThat(all.settled()).isEqualTo(1);
    }

    @Test
    void aFieldAddedLaterIsNullInOlderSegmentsAndAnswersWithoutTagsDecodeOnlyTime() {
        open();
        write(T0, 10, 2, false);
        engine.flush();
        write(T0 + 600 * SECOND, 10, 2, true);
        engine.flush();
        ScanResultRows all = both(ScanRequest.all("cpu"));
        assertThat(all.settled()).isEqualTo(2);
        assertThat(all.batchColumns()).allSatisfy(cols -> assertThat(cols).containsExactly("time", "dc", "host", "load", "usage"));
        List<String> rows = fx.rowsUnordered(engine, ScanRequest.all("cpu").withColumns("load").withTimeRange(T0, T0));
        assertThat(rows).containsExactlyInAnyOrder("load=<null>", "load=<null>");
        ScanResultRows timeOnly = both(ScanRequest.all("cpu").withColumns("time"));
        assertThat(timeOnly.rows()).isEqualTo(40);
        assertThat(timeOnly.batchColumns()).allSatisfy(cols -> assertThat(cols).containsExactly("time"));
    }

    @Test
    void isNullAndEqualityPredicatesFilterSettledRows() {
        open();
        PointBatch.Builder b = PointBatch.builder();
        for (int s = 0; s < 20; s++) {
            b.beginPoint("cpu", T0 + s * SECOND).tag("host", "a").floatField("usage", s).endPoint();
            b.beginPoint("cpu", T0 + s * SECOND).tag("host", "b").tag("dc", "east").floatField("usage", s).endPoint();
        }
        engine.write(b.build());
        engine.flush();
        ScanResultRows noDc = both(ScanRequest.all("cpu").withTags(new TagPredicate.IsNull("dc")));
        assertThat(noDc.rows()).isEqualTo(20);
        assertThat(noDc.settled()).isEqualTo(1);
        ScanResultRows east = both(ScanRequest.all("cpu").withTags(new TagPredicate.Eq("dc", "east"))
                .withTimeRange(T0 + 5 * SECOND, T0 + 9 * SECOND));
        assertThat(east.rows()).isEqualTo(5);
        ScanResultRows none = both(ScanRequest.all("cpu").withTags(new TagPredicate.Eq("dc", "west")));
        assertThat(none.rows()).isZero();
    }

    @Test
    void aCountOfSettledSegmentsInsideTheRangeReadsNoBlock() {
        io.chronix.engine.cache.BlockCache cache = io.chronix.engine.cache.BlockCache.create(64L << 20);
        engine = fx.open(dir, tenMinuteShards()
                .withBlockCache(cache));
        write(T0, 60, 4, false);
        write(T0 + 600 * SECOND, 60, 4, false);
        engine.flush();
        write(T0 + 1200 * SECOND, 10, 4, false); // in the memtable: counted by scanning it
        assertThat(engine.countRows(ScanRequest.all("cpu"), fx.allocator)).isEqualTo(520);
        assertThat(cache.stats().hits() + cache.stats().misses()).as("no block read for settled segments").isZero();
        // a range cutting the first segment: that one is scanned, the second still counted
        assertThat(engine.countRows(ScanRequest.all("cpu").withTimeRange(T0 + 30 * SECOND, T0 + 1200 * SECOND), fx.allocator))
                .isEqualTo(4 * 30 + 240 + 4);
        assertThat(cache.stats().misses()).as("the cut segment's time block").isEqualTo(1);
        // an overwrite in the memtable over the second segment's time: that segment is no longer settled
        write(T0 + 600 * SECOND, 1, 4, false);
        assertThat(engine.countRows(ScanRequest.all("cpu"), fx.allocator)).isEqualTo(520);
    }
}
