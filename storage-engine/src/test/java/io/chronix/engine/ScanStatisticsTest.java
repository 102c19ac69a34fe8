package io.chronix.engine;

import io.chronix.engine.model.PointBatch;
import io.chronix.engine.read.RowCount;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.read.ScanResult;
import io.chronix.engine.read.ScanStatistics;
import io.chronix.engine.read.TagPredicate;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.IntStream;

import static io.chronix.engine.EngineFixture.SECOND;
import static io.chronix.engine.EngineFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a scan reports it read against what the measurement holds ({@link ScanStatistics}). The
 * layout is fixed so every figure is known: four hosts, one point a second for 30 minutes, in
 * 10-minute shards, flushed into three segments of 2,400 rows (host by host, 600 rows each) in
 * row groups of 40 rows — 60 row groups a segment, 15 a host.
 */
class ScanStatisticsTest extends TenMinuteShardsTest {

    private static final long MINUTE = 60 * SECOND;
    private static final List<String> HOSTS = List.of("a", "b", "c", "d");


    private void writeHalfAnHour() {
        PointBatch.Builder b = PointBatch.builder();
        for (int s = 0; s < 1800; s++) {
            for (String host : HOSTS) {
                b.beginPoint("cpu", T0 + s * SECOND).tag("host", host).floatField("usage", s).endPoint();
            }
        }
        engine.write(b.build());
        engine.flush();
    }

    private static ScanRequest oneHostOneMinute() {
        // host b, 00:12:00–00:12:59: its rows 120–179 in the second segment, rows 720–779 there,
        // which row groups 18 (720–759) and 19 (760–799) hold, both wholly host b's; of their 80
        // rows only the minute's 60 are read (each series' rows are cut to the time range)
        return new ScanRequest("cpu", List.of(), T0 + 12 * MINUTE, T0 + 13 * MINUTE - 1, List.of(new TagPredicate.Eq("host", "b")));
    }

    @Test
    void aOneHostOneMinuteScanReadsOneSegmentAndTwoRowGroups() {
        openWithRowGroupsOf(40);
        writeHalfAnHour();
        assertThat(engine.segmentCount()).isEqualTo(3);
        ScanStatistics expected = new ScanStatistics(3, 1, 60, 2, 7200, 60);
        try (ScanResult r = engine.scan(oneHostOneMinute(), fx.allocator)) {
            assertThat(r.rowCount()).isEqualTo(60);
            assertThat(r.statistics()).isEqualTo(expected);
            assertThat(r.statistics().prunedShare()).isEqualTo(1 - 60 / 7200.0);
        }
        try (ScanResult r = engine.scanUnordered(oneHostOneMinute(), fx.allocator)) {
            assertThat(r.settledSegments()).as("read by the pass-through").isEqualTo(1);
            assertThat(r.statistics()).isEqualTo(expected);
        }
        // the whole measurement: every segment, row group and row
        try (ScanResult r = engine.scanUnordered(ScanRequest.all("cpu"), fx.allocator)) {
            assertThat(r.statistics()).isEqualTo(new ScanStatistics(3, 3, 180, 180, 7200, 7200));
            assertThat(r.statistics().prunedShare()).isZero();
        }
        // a range no segment overlaps: nothing opened
        try (ScanResult r = engine.scan(ScanRequest.all("cpu").withTimeRange(T0 + 40 * MINUTE, T0 + 50 * MINUTE), fx.allocator)) {
            assertThat(r.statistics()).isEqualTo(new ScanStatistics(3, 0, 0, 0, 7200, 0));
            assertThat(r.statistics().prunedShare()).isEqualTo(1.0);
        }
    }

    /**
     * Two series stored one after the other (hosts b and c), a window that starts and ends inside
     * their runs: each series' rows are cut to the window on its own, so exactly the window's rows
     * are read, and they are the right ones. In row groups of 40 the two runs lie in different
     * groups; in one row group a segment they are one stretch of rows whose time does not ascend
     * across the boundary between the hosts.
     */
    @ParameterizedTest(name = "row groups of {0}")
    // rows 150–209 of b and of c: in groups of 40, groups 18–20 (b's rows 720–839 of the segment)
    // and 33–35 (c's); in groups of 2,400, the second segment's one group
    @CsvSource({"40, 60, 6", "2400, 1, 1"})
    void adjacentSeriesAreEachCutToTheWindow(int rowGroupRows, int rowGroupsOfSegmentRead, int rowGroupsRead) {
        assertWindowRead(rowGroupRows, new ScanStatistics(3, 1, rowGroupsOfSegmentRead, rowGroupsRead, 7200, 120));
    }

    private void assertWindowRead(int rowGroupRows, ScanStatistics expected) {
        openWithRowGroupsOf(rowGroupRows);
        writeHalfAnHour();
        // 00:12:30–00:13:29: seconds 750–809, rows 150–209 of each host's 600 in the second segment
        ScanRequest window = new ScanRequest("cpu", List.of(), T0 + 12 * MINUTE + 30 * SECOND, T0 + 13 * MINUTE + 29 * SECOND,
                List.of(new TagPredicate.In("host", Set.of("b", "c"))));
        List<Double> seconds = IntStream.range(750, 810).mapToObj(i -> (double) i).toList();
        for (boolean ordered : new boolean[] {true, false}) {
            try (ScanResult r = ordered ? engine.scan(window, fx.allocator) : engine.scanUnordered(window, fx.allocator)) {
                Map<String, List<Double>> byHost = new TreeMap<>();
                for (VectorSchemaRoot b : r.batches()) {
                    VarCharVector host = (VarCharVector) b.getVector("host");
                    Float8Vector usage = (Float8Vector) b.getVector("usage");
                    for (int i = 0; i < b.getRowCount(); i++) {
                        byHost.computeIfAbsent(new String(host.get(i), StandardCharsets.UTF_8), h -> new ArrayList<>()).add(usage.get(i));
                    }
                }
                String as = "row groups of " + rowGroupRows + ", ordered=" + ordered;
                assertThat(byHost).as(as).containsOnlyKeys("b", "c");
                assertThat(byHost.get("b")).as(as).containsExactlyInAnyOrderElementsOf(seconds);
                assertThat(byHost.get("c")).as(as).containsExactlyInAnyOrderElementsOf(seconds);
                assertThat(r.statistics()).as(as).isEqualTo(expected);
            }
        }
    }

    @Test
    void memtableRowsCountAsReadAndAsHeld() {
        openWithRowGroupsOf(40);
        writeHalfAnHour();
        PointBatch.Builder b = PointBatch.builder();
        for (int s = 0; s < 10; s++) {
            b.beginPoint("cpu", T0 + 35 * MINUTE + s * SECOND).tag("host", "a").floatField("usage", s).endPoint();
        }
        engine.write(b.build());
        try (ScanResult r = engine.scanUnordered(ScanRequest.all("cpu").withTags(new TagPredicate.Eq("host", "a")), fx.allocator)) {
            assertThat(r.rowCount()).isEqualTo(1810);
            // host a's rows are the first 15 row groups of each segment
            assertThat(r.statistics()).isEqualTo(new ScanStatistics(3, 3, 180, 45, 7210, 1810));
        }
    }

    @Test
    void aCountFromTheCatalogReadsNoSegment() {
        openWithRowGroupsOf(40);
        writeHalfAnHour();
        RowCount all = engine.count(ScanRequest.all("cpu"), fx.allocator);
        assertThat(all.rows()).isEqualTo(7200);
        assertThat(all.statistics()).isEqualTo(new ScanStatistics(3, 0, 0, 0, 7200, 0));
        RowCount one = engine.count(oneHostOneMinute(), fx.allocator);
        assertThat(one.rows()).isEqualTo(60);
        assertThat(one.statistics()).isEqualTo(new ScanStatistics(3, 1, 60, 2, 7200, 60));
    }

    @Test
    void theNewestRowsComeFromTheCacheOrFromOneRowGroupOfASegment() {
        openWithRowGroupsOf(40);
        writeHalfAnHour();
        ScanRequest all = ScanRequest.all("cpu");
        try (ScanResult r = engine.scanLatest(all, fx.allocator)) {
            assertThat(r.rowCount()).isEqualTo(4);
            assertThat(r.statistics()).as("every entry complete: written by this process").isEqualTo(new ScanStatistics(3, 0, 0, 0, 7200, 4));
        }
        engine.close();
        openWithRowGroupsOf(40);
        try (ScanResult r = engine.scanLatest(all, fx.allocator)) {
            assertThat(r.rowCount()).isEqualTo(4);
            // each host's newest row is in the last segment (an older one cannot hold a newer row),
            // in the last of its 15 row groups: one segment opened, four row groups decoded
            assertThat(r.statistics()).as("after a restart: a reverse scan per host").isEqualTo(new ScanStatistics(3, 1, 60, 4, 7200, 4));
        }
        try (ScanResult r = engine.scanLatest(all, fx.allocator)) {
            assertThat(r.statistics()).as("the misses filled the cache").isEqualTo(new ScanStatistics(3, 0, 0, 0, 7200, 4));
        }
    }

    @Test
    void aMeasurementNeverWrittenHoldsNothing() {
        openWithRowGroupsOf(40);
        writeHalfAnHour();
        try (ScanResult r = engine.scan(ScanRequest.all("mem"), fx.allocator)) {
            assertThat(r.statistics()).isEqualTo(ScanStatistics.NONE);
            assertThat(r.statistics().prunedShare()).isZero();
        }
    }
}
