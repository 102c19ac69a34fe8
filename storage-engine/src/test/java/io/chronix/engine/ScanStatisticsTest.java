package io.chronix.engine;

import io.chronix.engine.model.PointBatch;
import io.chronix.engine.read.RowCount;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.read.ScanResult;
import io.chronix.engine.read.ScanStatistics;
import io.chronix.engine.read.TagPredicate;
import org.junit.jupiter.api.Test;

import java.util.List;

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
        // which row groups 18 (720–759) and 19 (760–799) hold, both wholly host b's
        return new ScanRequest("cpu", List.of(), T0 + 12 * MINUTE, T0 + 13 * MINUTE - 1, List.of(new TagPredicate.Eq("host", "b")));
    }

    @Test
    void aOneHostOneMinuteScanReadsOneSegmentAndTwoRowGroups() {
        openWithRowGroupsOf(40);
        writeHalfAnHour();
        assertThat(engine.segmentCount()).isEqualTo(3);
        ScanStatistics expected = new ScanStatistics(3, 1, 60, 2, 7200, 80);
        try (ScanResult r = engine.scan(oneHostOneMinute(), fx.allocator)) {
            assertThat(r.rowCount()).isEqualTo(60);
            assertThat(r.statistics()).isEqualTo(expected);
            assertThat(r.statistics().prunedShare()).isEqualTo(1 - 80 / 7200.0);
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
        assertThat(one.statistics()).isEqualTo(new ScanStatistics(3, 1, 60, 2, 7200, 80));
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
