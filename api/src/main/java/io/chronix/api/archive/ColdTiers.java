package io.chronix.api.archive;

import io.chronix.archive.parquet.ColdCache;
import io.chronix.archive.parquet.ColdTierMetrics;
import io.chronix.archive.parquet.ParquetCodec;
import io.chronix.archive.parquet.ParquetColdTier;
import io.chronix.engine.archive.ColdTier;
import io.chronix.engine.storage.NamespaceId;
import io.chronix.engine.storage.StorageBackend;

import java.nio.file.Path;

/**
 * Makes the cold tier of one namespace: Parquet through the shared trusted DuckDB instance, over
 * the service's object store, keys under {@code ns_<id>/}, cache under {@code <ns-dir>/cold-cache/}.
 */
public final class ColdTiers {

    public static final String CACHE_DIRECTORY = "cold-cache";

    private final StorageBackend store;
    private final ParquetCodec codec;
    private final ColdTierMetrics metrics;
    private final long cacheBytes;

    public ColdTiers(StorageBackend store, ParquetCodec codec, ColdTierMetrics metrics, long cacheBytes) {
        this.store = store;
        this.codec = codec;
        this.metrics = metrics;
        this.cacheBytes = cacheBytes;
    }

    public ColdTier create(NamespaceId namespace, Path namespaceDir) {
        return new ParquetColdTier(store, namespace, codec, new ColdCache(namespaceDir.resolve(CACHE_DIRECTORY), cacheBytes), metrics);
    }

    public ColdTierMetrics metrics() {
        return metrics;
    }
}
