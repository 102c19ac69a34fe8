package io.chronix.engine;

import io.chronix.engine.cache.BlockCache;
import io.chronix.engine.io.NioFileIO;
import io.chronix.engine.model.PointBatch;
import io.chronix.engine.read.LastPoint;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.read.SeriesLastPoint;
import io.chronix.engine.read.TagPredicate;
import io.chronix.engine.segment.SegmentColumns;
import io.chronix.engine.segment.SegmentFile;
import io.chronix.engine.segment.SegmentWriterConfig;
import io.chronix.engine.store.CsxSegmentStore;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.chronix.engine.EngineFixture.SECOND;
import static io.chronix.engine.EngineFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The caches give the same answers as the data through every lifecycle step reachable now: write,
 * flush, restart, eviction. Compaction and deletes extend the tests named {@code ...Compaction...}
 * and {@code ...Delete...} below when they land.
 */
class CachesLifecycleTest {

    @TempDir
    Path dir;
    final EngineFixture fx = new EngineFixture();

    @AfterEach
    void tearDown() {
        fx.close();
    }

    private static EngineConfig config(BlockCache cache, int rowGroupRows) {
        return EngineFixture.config().withSegments((io, seg, tmp) -> new CsxSegmentStore(io, seg, tmp,
                SegmentWriterConfig.defaults().withRowGroupRows(rowGroupRows), cache));
    }

    /** Every field type, NULLs, absent tags, strings: what the block images must carry. */
    private static void writeMixed(Chronix c, int points) {
        PointBatch.Builder b = PointBatch.builder();
        for (int i = 0; i < points; i++) {
            b.beginPoint("m", T0 + i * SECOND).tag("h", "h" + (i % 5));
            if (i % 3 == 0) {
                b.tag("dc", "dc" + (i % 2));
            }
            if (i % 4 != 0) {
                b.floatField("f", i * 0.25);
            }
            if (i % 5 != 1) {
                b.integerField("i", -i);
            }
            b.unsignedField("u", Long.MAX_VALUE + i);
            if (i % 2 == 0) {
                b.booleanField("b", i % 4 == 0);
            }
            if (i % 7 != 0) {
                b.stringField("s", "v" + (i % 11));
            }
            b.endPoint();
        }
        c.write(b.build());
    }

    @Test
    void warmScanIsAnsweredFromTheBlockCacheWithTheSameRows() {
        BlockCache cache = BlockCache.create(64 << 20);
        List<String> expected;
        try (Chronix c = fx.open(dir, config(cache, 50))) {
            writeMixed(c, 600);
            expected = fx.rows(c, ScanRequest.all("m"));
            c.flush();
            List<String> cold = fx.rows(c, ScanRequest.all("m"));
            BlockCache.Stats afterCold = c.cacheStats().blockCache();
            assertThat(afterCold.misses()).as("the cold scan decoded blocks").isPositive();
            assertThat(afterCold.entries()).isPositive();
            List<String> warm = fx.rows(c, ScanRequest.all("m"));
            BlockCache.Stats afterWarm = c.cacheStats().blockCache();
            assertThat(cold).isEqualTo(expected);
            assertThat(warm).isEqualTo(expected);
            assertThat(afterWarm.hits() - afterCold.hits()).as("every block of the warm scan was a hit")
                    .isEqualTo(afterCold.misses());
            assertThat(afterWarm.misses()).isEqualTo(afterCold.misses());
            // a filtered, projected scan through the cache
            assertThat(fx.rows(c, new ScanRequest("m", List.of("time", "s", "h"), T0, T0 + 100 * SECOND,
                    List.of(new TagPredicate.Eq("h", "h3")))))
                    .isEqualTo(expected.stream().filter(r -> r.contains("|h=\"h3\"|") && time(r) <= T0 + 100 * SECOND)
                            .map(CachesLifecycleTest::timeSH).toList());
        }
        // restart with the same (process-wide) cache: blocks are still hits, rows still the same
        try (Chronix c = fx.open(dir, config(cache, 50))) {
            long hitsBefore = cache.stats().hits();
            assertThat(fx.rows(c, ScanRequest.all("m"))).isEqualTo(expected);
            assertThat(cache.stats().hits()).isGreaterThan(hitsBefore);
        }
    }

    private static long time(String row) {
        return Long.parseLong(row.substring("time=".length(), row.indexOf('|')));
    }

    private static String timeSH(String row) {
        String[] cells = row.split("\\|");
        String t = cells[0];
        String h = "";
        String s = "";
        for (String cell : cells) {
            if (cell.startsWith("h=")) {
                h = cell;
            } else if (cell.startsWith("s=")) {
                s = cell;
            }
        }
        return t + "|" + h + "|" + s;
    }

    @Test
    void underASmallBudgetScansStayCorrectAndBlocksAreEvicted() {
        BlockCache cache = BlockCache.create(16 * 1024);
        try (Chronix c = fx.open(dir, config(cache, 16))) {
            writeMixed(c, 2000);
            List<String> expected = fx.rows(c, ScanRequest.all("m"));
            c.flush();
            for (int round = 0; round < 3; round++) {
                assertThat(fx.rows(c, ScanRequest.all("m"))).isEqualTo(expected);
            }
            cache.cleanUp();
            BlockCache.Stats s = cache.stats();
            assertThat(s.evictions()).as("the budget forced evictions").isPositive();
            assertThat(s.weightBytes()).isLessThanOrEqualTo(16 * 1024);
        }
    }

    @Test
    void aRemovedSegmentLeavesNoBlockAndNoSidecarBehind() throws Exception {
        BlockCache cache = BlockCache.create(1 << 20);
        Path segments = Files.createDirectories(dir.resolve("segments"));
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        CsxSegmentStore store = new CsxSegmentStore(NioFileIO.INSTANCE, segments, tmp, SegmentWriterConfig.defaults(), cache);
        SegmentFile file = SegmentFile.of(1, 5, 1);
        SegmentColumns cols = SegmentColumns.builder("m", 3).time(new long[] {1, 2, 3}).tag("h", new String[] {"a", "a", "a"})
                .floatField("v", new double[] {1, 2, 3}, null).build();
        store.write(file, cols, 7);
        assertThat(file.resolveSummary(segments)).exists();
        List<Integer> rows = new ArrayList<>();
        store.read(file, List.of("time", "h", "v"), Long.MIN_VALUE, Long.MAX_VALUE, List.of(), fx.allocator,
                (VectorSchemaRoot r) -> rows.add(r.getRowCount()));
        assertThat(rows).containsExactly(3);
        assertThat(cache.stats().entries()).isEqualTo(3);
        store.delete(file); // what compaction, deletes and retention call for a segment that leaves
        assertThat(cache.stats().entries()).isZero();
        assertThat(file.resolve(segments)).doesNotExist();
        assertThat(file.resolveSidecar(segments)).doesNotExist();
        assertThat(file.resolveSummary(segments)).doesNotExist();
        store.close();
    }

    // ------------------------------------------------------------------ last values

    private static PointBatch point(String host, long ts, String field, double v) {
        return PointBatch.builder().beginPoint("m", ts).tag("h", host).floatField(field, v).endPoint().build();
    }

    @Test
    void lastValueOfASeriesWrittenHereIsACacheHitBeforeAndAfterFlush() {
        try (Chronix c = fx.open(dir)) {
            c.write(point("a", T0 + 5, "x", 5));
            c.write(point("a", T0 + 2, "x", 2));
            assertThat(c.lastValue("m", Map.of("h", "a"), fx.allocator)).contains(new LastPoint(T0 + 5, Map.of("x", 5.0)));
            c.flush();
            assertThat(c.lastValue("m", Map.of("h", "a"), fx.allocator)).contains(new LastPoint(T0 + 5, Map.of("x", 5.0)));
            assertThat(c.cacheStats().lastValueHits()).isEqualTo(2);
            assertThat(c.cacheStats().lastValueMisses()).isZero();
        }
    }

    @Test
    void afterRestartAMissScansSegmentsNewestFirstAndFillsTheCache() {
        try (Chronix c = fx.open(dir)) {
            for (int i = 0; i < 50; i++) {
                c.write(point("a", T0 + i * SECOND, "x", i));
                c.write(point("b", T0 + i * SECOND, "x", -i));
                if (i % 10 == 9) {
                    c.flush(); // five segments per series
                }
            }
        }
        try (Chronix c = fx.open(dir)) {
            assertThat(c.lastValue("m", Map.of("h", "a"), fx.allocator)).contains(new LastPoint(T0 + 49 * SECOND, Map.of("x", 49.0)));
            assertThat(c.cacheStats().lastValueMisses()).isEqualTo(1);
            assertThat(c.lastValue("m", Map.of("h", "a"), fx.allocator)).contains(new LastPoint(T0 + 49 * SECOND, Map.of("x", 49.0)));
            assertThat(c.cacheStats().lastValueHits()).as("the miss filled the cache").isEqualTo(1);
            // a write after the fill keeps the cache true without I/O
            c.write(point("a", T0 + 60 * SECOND, "x", 60));
            assertThat(c.lastValue("m", Map.of("h", "a"), fx.allocator)).contains(new LastPoint(T0 + 60 * SECOND, Map.of("x", 60.0)));
            assertThat(c.cacheStats().lastValueMisses()).isEqualTo(1);
            // an out-of-order write on a series not read yet: the segments still hold its newest point
            c.write(point("b", T0 + 3, "y", 1));
            assertThat(c.lastValue("m", Map.of("h", "b"), fx.allocator)).contains(new LastPoint(T0 + 49 * SECOND, Map.of("x", -49.0)));
            assertThat(c.lastValue("m", Map.of("h", "nope"), fx.allocator)).isEmpty();
        }
    }

    @Test
    void theSameTimestampInTwoSegmentsAndTheMemtableFoldsFieldByField() {
        try (Chronix c = fx.open(dir)) {
            c.write(point("a", T0 + 9, "x", 1));
            c.write(point("a", T0 + 9, "y", 2));
            c.flush();
            c.write(point("a", T0 + 9, "x", 3));
            c.write(point("a", T0 + 9, "z", 4));
            c.flush();
        }
        try (Chronix c = fx.open(dir)) {
            c.write(point("a", T0 + 9, "z", 5)); // in the memtable: a later write than both segments
            assertThat(c.lastValue("m", Map.of("h", "a"), fx.allocator))
                    .contains(new LastPoint(T0 + 9, Map.of("x", 3.0, "y", 2.0, "z", 5.0)));
        }
    }

    @Test
    void lastValuesAnswersEveryMatchingSeriesFromCacheAndSegments() {
        try (Chronix c = fx.open(dir)) {
            for (int h = 0; h < 6; h++) {
                c.write(PointBatch.builder().beginPoint("m", T0 + h).tag("h", "h" + h).tag("dc", h % 2 == 0 ? "even" : "odd")
                        .floatField("x", h).endPoint().build());
            }
            c.flush();
        }
        try (Chronix c = fx.open(dir)) {
            c.write(PointBatch.builder().beginPoint("m", T0 + 100).tag("h", "h6").tag("dc", "even").floatField("x", 6).endPoint().build());
            List<SeriesLastPoint> even = c.lastValues("m", List.of(new TagPredicate.Eq("dc", "even")), fx.allocator);
            assertThat(even).extracting(s -> s.tags().get("h")).containsExactly("h0", "h2", "h4", "h6");
            assertThat(even).extracting(s -> s.point().fields().get("x")).containsExactly(0.0, 2.0, 4.0, 6.0);
            assertThat(even.get(3).point().timestamp()).isEqualTo(T0 + 100);
            assertThat(c.cacheStats().lastValueHits()).as("h6 was written here").isEqualTo(1);
            assertThat(c.cacheStats().lastValueMisses()).isEqualTo(3);
            assertThat(c.lastValues("m", List.of(), fx.allocator)).hasSize(7);
            assertThat(c.cacheStats().lastValueHits()).as("the misses filled the cache").isEqualTo(5);
            assertThat(c.lastValues("nope", List.of(), fx.allocator)).isEmpty();
        }
    }

    /**
     * {@link Chronix#scanLatest} is each series' last row of an ordered scan, every field type and
     * NULL carried: from the cache in the writing process, from the segments after a restart, and
     * with a newer point in the memtable; in canonical series order, or ordered by a tag when asked
     * (NULL last, ties in canonical order).
     */
    @Test
    void scanLatestIsEachSeriesLastRowOfAnOrderedScan() {
        try (Chronix c = fx.open(dir)) {
            writeMixed(c, 120);
            assertLatestIsLastRowOfScan(c);
            c.flush();
            assertLatestIsLastRowOfScan(c);
        }
        try (Chronix c = fx.open(dir)) {
            assertLatestIsLastRowOfScan(c); // every entry a miss: reverse segment scans
            assertThat(c.cacheStats().lastValueMisses()).isPositive();
            c.write(PointBatch.builder().beginPoint("m", T0 + 1000 * SECOND).tag("h", "h2").unsignedField("u", 7).endPoint().build());
            assertLatestIsLastRowOfScan(c);
        }
    }

    /**
     * Answers over the same series in the same order share their tag columns ({@link TagImages});
     * each answer is still each series' last row: asked again, after newer values of the same
     * series, after a new series, with a tag filter between (other rows), and after a new tag
     * column (other tag arrays).
     */
    @Test
    void latestStaysExactWhileItsTagColumnsAreShared() {
        try (Chronix c = fx.open(dir)) {
            writeMixed(c, 120);
            assertLatestIsLastRowOfScan(c);
            assertLatestIsLastRowOfScan(c);
            PointBatch.Builder newer = PointBatch.builder();
            for (int h = 0; h < 5; h++) {
                newer.beginPoint("m", T0 + (500 + h) * SECOND).tag("h", "h" + h).integerField("i", 1000 + h).stringField("s", "new" + h).endPoint();
            }
            c.write(newer.build());
            assertLatestIsLastRowOfScan(c);
            assertThat(latest(c, ScanRequest.all("m"), List.of()).stream().filter(row -> "1003i".equals(cellOf(row, "i")))).hasSize(1);
            c.write(PointBatch.builder().beginPoint("m", T0 + 600 * SECOND).tag("h", "h7").tag("dc", "dc9").floatField("f", 7.5).endPoint().build());
            assertLatestIsLastRowOfScan(c);
            List<String> all = latest(c, ScanRequest.all("m"), List.of());
            List<String> h1 = latest(c, new ScanRequest("m", List.of(), Long.MIN_VALUE, Long.MAX_VALUE,
                    List.of(new io.chronix.engine.read.TagPredicate.Eq("h", "h1"))), List.of());
            assertThat(h1).isEqualTo(all.stream().filter(row -> "\"h1\"".equals(cellOf(row, "h"))).toList()).hasSize(3);
            assertThat(latest(c, ScanRequest.all("m"), List.of())).isEqualTo(all);
            c.write(PointBatch.builder().beginPoint("m", T0 + 700 * SECOND).tag("h", "h8").tag("zone", "z1").integerField("i", 8).endPoint().build());
            List<String> withZone = latest(c, ScanRequest.all("m"), List.of());
            assertThat(withZone).hasSize(all.size() + 1).allSatisfy(row -> assertThat(row).contains("|zone="));
            assertThat(withZone.stream().filter(row -> "\"z1\"".equals(cellOf(row, "zone"))).toList())
                    .singleElement().satisfies(row -> assertThat(cellOf(row, "h")).isEqualTo("\"h8\""));
            assertThat(latest(c, ScanRequest.all("m"), List.of())).isEqualTo(withZone);
        }
    }

    private void assertLatestIsLastRowOfScan(Chronix c) {
        List<String> all = fx.rows(c, ScanRequest.all("m"));
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            if (i + 1 == all.size() || !seriesOf(all.get(i)).equals(seriesOf(all.get(i + 1)))) {
                expected.add(all.get(i));
            }
        }
        assertThat(expected).hasSizeGreaterThan(5);
        // canonical series order (SeriesRef's) is not the scan's, which puts a missing tag first
        List<String> canonical = latest(c, ScanRequest.all("m"), List.of());
        assertThat(canonical).containsExactlyInAnyOrderElementsOf(expected);
        for (String tag : List.of("h", "dc")) {
            List<String> ordered = new ArrayList<>(canonical); // a stable sort: ties stay in canonical order
            ordered.sort(java.util.Comparator.comparing((String row) -> cellOf(row, tag),
                    java.util.Comparator.nullsLast(java.util.Comparator.naturalOrder())));
            assertThat(latest(c, ScanRequest.all("m"), List.of(tag))).as("ordered by %s", tag).isEqualTo(ordered);
            assertThat(latest(c, ScanRequest.all("m"), List.of(tag, "u"))).as("a field among the tags: left out").isEqualTo(ordered);
        }
        List<String> byDcThenHost = new ArrayList<>(canonical);
        byDcThenHost.sort(java.util.Comparator.comparing((String row) -> cellOf(row, "dc"), java.util.Comparator.nullsLast(java.util.Comparator.<String>naturalOrder()))
                .thenComparing(row -> cellOf(row, "h"), java.util.Comparator.nullsLast(java.util.Comparator.<String>naturalOrder())));
        assertThat(latest(c, ScanRequest.all("m"), List.of("dc", "h"))).isEqualTo(byDcThenHost);
        List<String> projected = canonical.stream().map(row -> "h=" + cellOf(row, "h") + "|s=" + cellOf(row, "s") + "|u=" + cellOf(row, "u"))
                .map(row -> row.replace("=null", "=<null>")).toList();
        assertThat(latest(c, ScanRequest.all("m").withColumns("u", "h", "s"), List.of())).isEqualTo(projected);
    }

    private List<String> latest(Chronix c, ScanRequest request, List<String> orderTags) {
        try (var r = c.scanLatest(request, orderTags, fx.allocator)) {
            return EngineFixture.render(r);
        }
    }

    /** The tag cells of a rendered row of {@code m} ({@code time|dc|h|…}). */
    private static String seriesOf(String row) {
        String[] cells = row.split("\\|");
        return cells[1] + "|" + cells[2];
    }

    /** The rendered value of {@code column} in {@code row}, {@code null} for NULL. */
    private static String cellOf(String row, String column) {
        for (String cell : row.split("\\|")) {
            if (cell.startsWith(column + "=")) {
                String v = cell.substring(column.length() + 1);
                return v.equals("<null>") ? null : v;
            }
        }
        throw new IllegalArgumentException(column);
    }

    @Test
    void anEvictedLastValueIsReadAgainFromTheSegments() {
        // what a delete does once its tombstone took effect (the deletes branch calls evictLastValues)
        try (Chronix c = fx.open(dir)) {
            c.write(point("a", T0 + 5, "x", 5));
            c.flush();
            assertThat(c.evictLastValues("m", List.of(new TagPredicate.Eq("h", "a")))).isEqualTo(1);
            assertThat(c.lastValue("m", Map.of("h", "a"), fx.allocator)).contains(new LastPoint(T0 + 5, Map.of("x", 5.0)));
            assertThat(c.cacheStats().lastValueMisses()).isEqualTo(1);
        }
    }

    @Test
    void lastValueAndBlockCacheStayTrueAcrossCompactionAndDelete() {
        // The lifecycle steps of the compaction and deletes branches go here: after compact(), the
        // last value and a warm scan must equal the values before; after a delete of the newest
        // point, lastValue must fall back to the next newest. Until then: flush + restart + flush.
        BlockCache cache = BlockCache.create(8 << 20);
        List<String> expected;
        try (Chronix c = fx.open(dir, config(cache, 8))) {
            writeMixed(c, 200);
            c.flush();
            writeMixed(c, 100); // overwrites on top of segments
            expected = fx.rows(c, ScanRequest.all("m"));
            c.flush();
            assertThat(fx.rows(c, ScanRequest.all("m"))).isEqualTo(expected);
        }
        try (Chronix c = fx.open(dir, config(cache, 8))) {
            assertThat(fx.rows(c, ScanRequest.all("m"))).isEqualTo(expected);
            for (String h : Set.of("h0", "h1", "h2", "h3", "h4")) {
                String last = expected.stream().filter(r -> r.contains("|h=\"" + h + "\"|")).reduce((x, y) -> y).orElseThrow();
                assertThat(c.lastValue("m", tagsOf(last), fx.allocator).orElseThrow().timestamp()).isEqualTo(time(last));
            }
        }
    }

    private static Map<String, String> tagsOf(String row) {
        Map<String, String> tags = new java.util.HashMap<>();
        for (String cell : row.split("\\|")) {
            if ((cell.startsWith("h=") || cell.startsWith("dc=")) && !cell.endsWith("<null>")) {
                tags.put(cell.substring(0, cell.indexOf('=')), cell.substring(cell.indexOf('=') + 2, cell.length() - 1));
            }
        }
        return tags;
    }
}
