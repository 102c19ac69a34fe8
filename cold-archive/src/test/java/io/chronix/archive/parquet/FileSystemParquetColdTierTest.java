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
}
