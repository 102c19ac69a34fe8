package io.chronix.archive.parquet;

import io.chronix.engine.Chronix;
import io.chronix.engine.archive.ArchiveReport;
import io.chronix.engine.catalog.ArchivedSegment;
import io.chronix.engine.model.PointBatch;
import io.chronix.engine.storage.NamespaceId;
import io.chronix.engine.storage.SegmentPath;
import io.chronix.engine.storage.StorageBackend;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static io.chronix.archive.parquet.ColdTierFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What archiving to Parquet does over every backend: rows and NULLs survive archive, restart and
 * an empty cache; another Parquet reader sees the same rows; keys are built from ids only.
 */
abstract class ParquetColdTierContract {

    @TempDir
    Path dir;
    ColdTierFixture fx;

    protected abstract StorageBackend backend();

    @BeforeEach
    void setUpFixture() throws Exception {
        Files.createDirectories(dir.resolve("spill"));
        fx = new ColdTierFixture(dir.resolve("spill"));
    }

    @AfterEach
    void tearDownFixture() {
        fx.close();
    }

    private List<String> both(Chronix c) {
        List<String> rows = new ArrayList<>(fx.rows(c, "cpu"));
        rows.addAll(fx.rows(c, "mem"));
        return rows;
    }

    private ArchiveReport ageAndArchive(Chronix c) {
        fx.clock.now = fx.clock.now.plus(Duration.ofDays(3));
        return c.archive(Duration.ofDays(1));
    }

    @Test
    void archivedRowsAnswerTheSameAfterARestartAndFromAnEmptyCache() throws Exception {
        Path ns = dir.resolve("ns");
        List<String> expected;
        try (Chronix c = fx.open(backend(), 41, ns)) {
            c.write(ColdTierFixture.batch("cpu"));
            c.write(ColdTierFixture.batch("mem"));
            c.flush();
            expected = both(c);
            int segments = c.segmentCount();
            ArchiveReport r = ageAndArchive(c);
            assertThat(r.failure()).isEmpty();
            assertThat(r.segments()).isEqualTo(segments);
            assertThat(r.rows()).isEqualTo(80);
            assertThat(c.segmentCount()).isZero();
            assertThat(both(c)).isEqualTo(expected);
            assertThat(fx.metrics.cacheHits()).as("the archiving pass leaves the cache warm").isPositive();
            assertThat(backend().list(new NamespaceId(41))).hasSize(segments);
        }
        deleteTree(ns.resolve("cold-cache"));
        long misses = fx.metrics.cacheMisses();
        try (Chronix c = fx.open(backend(), 41, ns)) {
            assertThat(both(c)).isEqualTo(expected);
            assertThat(fx.metrics.cacheMisses()).isGreaterThan(misses);
            long hits = fx.metrics.cacheHits();
            assertThat(both(c)).isEqualTo(expected);
            assertThat(fx.metrics.cacheHits()).isGreaterThan(hits);
            assertThat(c.coldBytes()).isEqualTo(c.archivedSegments().stream().mapToLong(a -> a.object().sizeBytes()).sum());
        }
    }

    @Test
    void anotherParquetReaderSeesTheSameRowsNullsAndTypes() throws Exception {
        Path ns = dir.resolve("ns");
        try (Chronix c = fx.open(backend(), 42, ns)) {
            c.write(ColdTierFixture.batch("cpu"));
            c.flush();
            List<String> expected = fx.rows(c, "cpu");
            ageAndArchive(c);
            List<String> read = new ArrayList<>();
            // a trusted DuckDB instance of the test's own, nothing shared with the tier's
            try (Connection db = DriverManager.getConnection("jdbc:duckdb:")) {
                for (ArchivedSegment a : c.archivedSegments()) {
                    Path copy = dir.resolve("copy-" + a.segment().id() + ".parquet");
                    Files.write(copy, backend().get(SegmentPath.parse(a.key()).orElseThrow()));
                    String f = "'" + copy + "'";
                    try (Statement s = db.createStatement()) {
                        try (ResultSet rs = s.executeQuery("SELECT * REPLACE (epoch_ns(\"time\") AS \"time\") FROM read_parquet(" + f + ")")) {
                            read.addAll(ColdTierFixture.rows(rs));
                        }
                        try (ResultSet rs = s.executeQuery("SELECT name FROM parquet_schema(" + f + ") WHERE name <> 'duckdb_schema'")) {
                            List<String> names = new ArrayList<>();
                            while (rs.next()) {
                                names.add(rs.getString(1));
                            }
                            assertThat(names).as("canonical order").containsExactly("time", "host", "rack", "bytes", "errors", "note", "ok", "usage");
                        }
                        try (ResultSet rs = s.executeQuery("SELECT type, logical_type FROM parquet_schema(" + f + ") WHERE name = 'time'")) {
                            assertThat(rs.next()).isTrue();
                            assertThat(rs.getString(1)).isEqualTo("INT64");
                            assertThat(rs.getString(2)).contains("NANOS");
                        }
                        try (ResultSet rs = s.executeQuery("SELECT DISTINCT compression FROM parquet_metadata(" + f + ")")) {
                            assertThat(rs.next()).isTrue();
                            assertThat(rs.getString(1)).isEqualToIgnoringCase("ZSTD");
                            assertThat(rs.next()).isFalse();
                        }
                        try (ResultSet rs = s.executeQuery("SELECT count(*) FROM parquet_metadata(" + f + ") WHERE path_in_schema = 'time'"
                                + " AND stats_min_value IS NOT NULL AND stats_max_value IS NOT NULL")) {
                            assertThat(rs.next()).isTrue();
                            assertThat(rs.getLong(1)).as("min/max statistics on time").isPositive();
                        }
                        try (ResultSet rs = s.executeQuery("SELECT decode(value) FROM parquet_kv_metadata(" + f + ") WHERE decode(key) = '"
                                + ArchiveFormat.KEY_MEASUREMENT + "'")) {
                            assertThat(rs.next()).isTrue();
                            assertThat(rs.getString(1)).isEqualTo("cpu");
                        }
                    }
                }
            }
            assertThat(sorted(read)).isEqualTo(sorted(expected));
            assertThat(read).anyMatch(r -> r.contains("rack=<null>")).anyMatch(r -> r.contains("errors=<null>"));
        }
    }

    @Test
    void keysOfTwoNamespacesNeverShareAPrefix() {
        try (Chronix a = fx.open(backend(), 7, dir.resolve("a")); Chronix b = fx.open(backend(), 77, dir.resolve("b"))) {
            for (Chronix c : List.of(a, b)) {
                c.write(ColdTierFixture.batch("cpu"));
                c.flush();
            }
            ageAndArchive(a);
            b.archive(Duration.ofDays(1));
            List<String> keysA = backend().list(new NamespaceId(7)).stream().map(SegmentPath::key).toList();
            List<String> keysB = backend().list(new NamespaceId(77)).stream().map(SegmentPath::key).toList();
            assertThat(keysA).isNotEmpty().allMatch(k -> k.startsWith("ns_7/")).noneMatch(k -> k.startsWith("ns_77/"));
            assertThat(keysB).isNotEmpty().allMatch(k -> k.startsWith("ns_77/"));
            assertThat(keysA).doesNotContainAnyElementsOf(keysB);
            // each engine reads its own rows only
            assertThat(fx.rows(a, "cpu")).hasSize(40);
            assertThat(fx.rows(b, "cpu")).hasSize(40);
        }
    }

    @Test
    void hostileNamesCannotShapeAKey() {
        String measurement = "../../etc/passwd";
        PointBatch hostile = PointBatch.builder()
                .beginPoint(measurement, T0).tag("a/../../b", "..\\..").tag("x", "'; DROP TABLE t; --").floatField("/etc/shadow", 1.0)
                .stringField("f\"q", "v\"'").endPoint()
                .build();
        try (Chronix c = fx.open(backend(), 9, dir.resolve("h"))) {
            c.write(hostile);
            c.flush();
            List<String> expected = fx.rows(c, measurement);
            ageAndArchive(c);
            List<String> keys = backend().list(new NamespaceId(9)).stream().map(SegmentPath::key).toList();
            assertThat(keys).hasSize(1).allMatch(k -> k.matches("ns_9/shard_-?\\d+/seg_\\d+_\\d+\\.parquet"));
            assertThat(fx.rows(c, measurement)).isEqualTo(expected).hasSize(1);
        }
    }

    @Test
    void retentionDeletesArchivedObjectsPastTheCutoffAndColdBytesFollow() {
        try (Chronix c = fx.open(backend(), 43, dir.resolve("r"))) {
            c.write(ColdTierFixture.batch("cpu"));
            c.flush();
            ageAndArchive(c);
            int before = backend().list(new NamespaceId(43)).size();
            long cutoff = T0 + 10 * 60 * ColdTierFixture.SECOND;
            List<ArchivedSegment> removed = c.removeArchivedBefore(cutoff);
            assertThat(removed).isNotEmpty();
            assertThat(backend().list(new NamespaceId(43))).hasSize(before - removed.size());
            assertThat(c.coldBytes()).isEqualTo(c.archivedSegments().stream().mapToLong(a -> a.object().sizeBytes()).sum());
            assertThat(fx.rows(c, "cpu")).hasSize(20).allMatch(r -> Long.parseLong(r.substring(5, r.indexOf('|'))) >= cutoff);
        }
    }

    private static List<String> sorted(List<String> rows) {
        return rows.stream().sorted().toList();
    }

    static void deleteTree(Path p) throws Exception {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path f : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }
}
