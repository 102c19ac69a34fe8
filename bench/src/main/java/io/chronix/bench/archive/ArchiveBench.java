package io.chronix.bench.archive;

import io.chronix.archive.parquet.ArchiveFormat;
import io.chronix.archive.parquet.ColdCache;
import io.chronix.archive.parquet.ColdTierMetrics;
import io.chronix.archive.parquet.ParquetCodec;
import io.chronix.archive.parquet.ParquetColdTier;
import io.chronix.archive.store.FileSystemBackend;
import io.chronix.bench.engine.EngineBench;
import io.chronix.bench.generator.CpuOnlyConfig;
import io.chronix.engine.Chronix;
import io.chronix.engine.maintenance.MaintenanceScheduler;
import io.chronix.engine.storage.NamespaceId;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** A namespace of TSBS cpu-only data over a Parquet cold tier on the filesystem, for the archive benchmarks. */
final class ArchiveBench implements AutoCloseable {

    /** 100 hosts × 1 day at 10 s: 864,000 rows of 10 fields. */
    static final CpuOnlyConfig DAY = CpuOnlyConfig.of(100, Duration.ofDays(1), 123, false);

    final Path dir;
    final MaintenanceScheduler scheduler = MaintenanceScheduler.create(1);
    final ParquetCodec codec;
    final ParquetColdTier tier;
    final Chronix engine;

    ArchiveBench(String prefix) throws IOException {
        dir = EngineBench.newDirectory(prefix);
        Files.createDirectories(dir.resolve("spill"));
        codec = new ParquetCodec(1, ArchiveFormat.ROW_GROUP_ROWS, dir.resolve("spill"));
        tier = new ParquetColdTier(new FileSystemBackend(dir.resolve("cold")), new NamespaceId(1), codec,
                new ColdCache(dir.resolve("ns").resolve("cold-cache"), 1L << 30), new ColdTierMetrics());
        engine = Chronix.open(dir.resolve("ns"), EngineBench.config().withFlushThresholdBytes(1L << 40), scheduler, tier);
        EngineBench.load(engine, DAY, 10);
        engine.flush();
    }

    @Override
    public void close() throws IOException {
        engine.close();
        scheduler.close();
        codec.close();
        EngineBench.delete(dir);
    }
}
