package io.chronix.archive.parquet;

import io.chronix.archive.store.FileSystemBackend;
import io.chronix.engine.Chronix;
import io.chronix.engine.storage.StorageBackend;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class FileSystemParquetColdTierTest extends ParquetColdTierContract {

    private FileSystemBackend backend;

    @Override
    protected StorageBackend backend() {
        if (backend == null) {
            backend = new FileSystemBackend(dir.resolve("cold"));
        }
        return backend;
    }

    @Test
    void everyObjectFileLiesUnderItsNamespaceDirectory() throws Exception {
        try (Chronix c = fx.open(backend(), 5, dir.resolve("ns"))) {
            c.write(ColdTierFixture.batch("../cpu"));
            c.flush();
            fx.clock.now = fx.clock.now.plus(java.time.Duration.ofDays(3));
            assertThat(c.archive(java.time.Duration.ofDays(1)).segments()).isPositive();
        }
        Path root = dir.resolve("cold");
        try (Stream<Path> s = Files.walk(root)) {
            List<Path> files = s.filter(Files::isRegularFile).toList();
            assertThat(files).isNotEmpty().allMatch(f -> root.relativize(f).toString().matches("ns_5/shard_-?\\d+/seg_\\d+_\\d+\\.parquet"));
        }
    }

    @Test
    void anObjectOfAnotherLayoutOrOtherBytesIsRefusedWithATypedError() throws Exception {
        Path foreign = dir.resolve("foreign.parquet");
        try (java.sql.Connection db = java.sql.DriverManager.getConnection("jdbc:duckdb:"); java.sql.Statement s = db.createStatement()) {
            s.execute("COPY (SELECT TIMESTAMP_NS '2026-01-01' AS \"time\", 1.0 AS v) TO '" + foreign
                    + "' (FORMAT parquet, KV_METADATA {\"chronix.format\": '2'})");
        }
        byte[] bytes = Files.readAllBytes(foreign);
        io.chronix.engine.storage.SegmentPath key = io.chronix.engine.storage.SegmentPath.parse("ns_3/shard_1/seg_1_1.parquet").orElseThrow();
        backend().put(key, bytes);
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(bytes);
        ParquetColdTier tier = fx.tier(backend(), 3, dir.resolve("ns3"));
        io.chronix.engine.catalog.SegmentEntry entry = new io.chronix.engine.catalog.SegmentEntry(1, "shard_1/seg_1_1.csx", 1, "m", 0, 1, 1, 1,
                1, 0, List.of());
        io.chronix.engine.catalog.ArchivedSegment good = new io.chronix.engine.catalog.ArchivedSegment(entry,
                new io.chronix.engine.catalog.StoredObject(key.key(), bytes.length, (int) crc.getValue(), "e1"), 0);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> tier.read(good, List.of("time"), Long.MIN_VALUE, Long.MAX_VALUE, List.of(),
                        fx.allocator, b -> { }))
                .isInstanceOf(io.chronix.engine.archive.ColdObjectException.class).hasMessageContaining("layout version 1").hasMessageContaining("found=2");
        io.chronix.engine.catalog.ArchivedSegment otherBytes = new io.chronix.engine.catalog.ArchivedSegment(entry,
                new io.chronix.engine.catalog.StoredObject(key.key(), bytes.length, (int) crc.getValue() + 1, "e2"), 0);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> tier.read(otherBytes, List.of("time"), Long.MIN_VALUE, Long.MAX_VALUE,
                        List.of(), fx.allocator, b -> { }))
                .isInstanceOf(io.chronix.engine.archive.ColdObjectException.class).hasMessageContaining("differs from the catalog");
        assertThat(tier.cache().contents()).as("nothing refused enters the cache").isEmpty();
    }
}
