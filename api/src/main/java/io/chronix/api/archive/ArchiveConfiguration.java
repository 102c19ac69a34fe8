package io.chronix.api.archive;

import io.chronix.api.config.DataDirectory;
import io.chronix.archive.parquet.ArchiveFormat;
import io.chronix.archive.parquet.ColdTierMetrics;
import io.chronix.archive.parquet.ParquetCodec;
import io.chronix.engine.storage.StorageBackend;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The archive's DuckDB instance, counters and per-namespace cold tiers. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ArchiveProperties.class)
class ArchiveConfiguration {

    @Bean(destroyMethod = "close")
    ParquetCodec parquetCodec(ArchiveProperties properties, DataDirectory data) {
        Path spill = data.root().resolve("archive-spill");
        try {
            Files.createDirectories(spill);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the archive's spill directory [dir=" + spill + "]", e);
        }
        return new ParquetCodec(properties.threads(), ArchiveFormat.ROW_GROUP_ROWS, spill);
    }

    @Bean
    ColdTierMetrics coldTierMetrics() {
        return new ColdTierMetrics();
    }

    @Bean
    ColdTiers coldTiers(StorageBackend store, ParquetCodec codec, ColdTierMetrics metrics, ArchiveProperties properties) {
        return new ColdTiers(store, codec, metrics, properties.cacheSize().toBytes());
    }
}
