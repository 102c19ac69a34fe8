package io.chronix.archive.parquet;

import io.chronix.engine.archive.ArchiveSource;
import io.chronix.engine.archive.ColdObjectException;
import io.chronix.engine.archive.ColdTier;
import io.chronix.engine.catalog.ArchivedSegment;
import io.chronix.engine.catalog.ColumnStats;
import io.chronix.engine.catalog.StoredObject;
import io.chronix.engine.error.StorageBackendException;
import io.chronix.engine.read.TagPredicate;
import io.chronix.engine.schema.Column;
import io.chronix.engine.storage.NamespaceId;
import io.chronix.engine.storage.ObjectInfo;
import io.chronix.engine.storage.SegmentPath;
import io.chronix.engine.storage.ShardId;
import io.chronix.engine.storage.StorageBackend;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.zip.CRC32C;

/**
 * The cold tier of one namespace: archived segments as Parquet objects in a {@link StorageBackend},
 * keys {@code ns_{namespace}/shard_{id}/seg_{nanos}_{counter}.parquet} built by {@link SegmentPath}
 * from ids only.
 *
 * <p>Archive: write the Parquet file locally ({@link ParquetCodec}) → upload → read the object
 * back whole and compare length and CRC-32C → stat for its ETag → keep the local file in the
 * {@link ColdCache} (so the first query after archiving is warm). Read: the cached file of
 * (key, ETag), or else a download in ranged reads of {@link #CHUNK} bytes, checked against the
 * length and CRC-32C the catalog recorded, and for the layout version in its footer, before it
 * enters the cache; then DuckDB reads it with the
 * projection, time range and tag predicates pushed down.
 *
 * <p>Threading: thread-safe.
 */
public final class ParquetColdTier implements ColdTier {

    /** Ranged-read size of a download. */
    public static final int CHUNK = 8 << 20;

    private final StorageBackend backend;
    private final NamespaceId namespace;
    private final ParquetCodec codec;
    private final ColdCache cache;
    private final ColdTierMetrics metrics;

    public ParquetColdTier(StorageBackend backend, NamespaceId namespace, ParquetCodec codec, ColdCache cache, ColdTierMetrics metrics) {
        this.backend = backend;
        this.namespace = namespace;
        this.codec = codec;
        this.cache = cache;
        this.metrics = metrics;
    }

    public ColdCache cache() {
        return cache;
    }

    /** The object key of segment object {@code name} in {@code shard}. */
    public SegmentPath path(long shard, String name) {
        return new SegmentPath(namespace, new ShardId(shard), name);
    }

    @Override
    public StoredObject archive(ArchiveSource source) {
        SegmentPath path = path(source.shard(), source.objectName());
        Path tmp = cache.directory().resolve(".tmp").resolve(UUID.randomUUID() + ".parquet");
        try {
            codec.write(source.allocator(), source.schema(), source.batches(), tmp, metadata(source));
            byte[] bytes = Files.readAllBytes(tmp);
            int crc = crc(bytes);
            long t0 = System.nanoTime();
            ObjectInfo info;
            try {
                backend.put(path, bytes);
                byte[] back = backend.get(path);
                if (back.length != bytes.length || crc(back) != crc) {
                    throw new ColdObjectException(path.key(), "read-back differs from the upload [size=" + bytes.length
                            + ", readBack=" + back.length + "]");
                }
                info = backend.stat(path);
            } catch (RuntimeException e) {
                metrics.uploadFailures.increment();
                throw e;
            }
            metrics.uploads.increment();
            metrics.uploadNanos.add(System.nanoTime() - t0);
            metrics.objectsArchived.increment();
            metrics.bytesArchived.add(bytes.length);
            cache.put(path.key(), info.etag(), tmp);
            return new StoredObject(path.key(), bytes.length, crc, info.etag());
        } catch (IOException e) {
            throw new UncheckedIOException("archiving segment failed [segment=" + source.segment().file() + ", key=" + path.key() + "]", e);
        } finally {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // emptied at the next start of the cache
            }
        }
    }

    private Map<String, String> metadata(ArchiveSource source) {
        StringBuilder kinds = new StringBuilder("time");
        for (ColumnStats c : source.segment().columns()) {
            kinds.append(',').append(c.kind() == Column.Kind.TAG ? "tag" : "field");
        }
        Map<String, String> m = new LinkedHashMap<>();
        m.put(ArchiveFormat.KEY_FORMAT, ArchiveFormat.VERSION);
        m.put(ArchiveFormat.KEY_NAMESPACE, namespace.toString());
        m.put(ArchiveFormat.KEY_SHARD, Long.toString(source.shard()));
        m.put(ArchiveFormat.KEY_SEGMENT_ID, Long.toString(source.segment().id()));
        m.put(ArchiveFormat.KEY_MEASUREMENT, source.measurement());
        m.put(ArchiveFormat.KEY_COLUMN_KINDS, kinds.toString());
        m.put(ArchiveFormat.KEY_MIN_TIME, Long.toString(source.segment().minTime()));
        m.put(ArchiveFormat.KEY_MAX_TIME, Long.toString(source.segment().maxTime()));
        return m;
    }

    @Override
    public void read(ArchivedSegment segment, List<String> columns, long from, long to, List<TagPredicate> tags,
            BufferAllocator allocator, Consumer<VectorSchemaRoot> sink) {
        StoredObject o = segment.object();
        SegmentPath path = SegmentPath.parse(o.key()).orElseThrow(() -> new ColdObjectException(o.key(), "not a cold segment key"));
        if (!path.namespace().equals(namespace)) {
            throw new ColdObjectException(o.key(), "object of another namespace [namespace=" + namespace + "]");
        }
        long missesBefore = cache.misses();
        try (ColdCache.Lease lease = cache.get(o.key(), o.etag(), file -> download(path, o, file))) {
            if (cache.misses() == missesBefore) {
                metrics.cacheHits.increment();
            } else {
                metrics.cacheMisses.increment();
            }
            codec.read(lease.file(), columns, from, to, segment.segment().minTime(), segment.segment().maxTime(), tags, allocator, sink);
        } catch (IOException e) {
            throw new UncheckedIOException("reading archived segment failed [key=" + o.key() + "]", e);
        }
    }

    private void download(SegmentPath path, StoredObject o, Path file) throws IOException {
        CRC32C crc = new CRC32C();
        long offset = 0;
        try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            while (true) {
                byte[] chunk = backend.getRange(path, offset, CHUNK);
                out.write(chunk);
                crc.update(chunk);
                offset += chunk.length;
                if (chunk.length < CHUNK || offset > o.sizeBytes()) {
                    break;
                }
            }
        }
        metrics.bytesDownloaded.add(offset);
        if (offset != o.sizeBytes() || (int) crc.getValue() != o.crc32c()) {
            throw new ColdObjectException(o.key(), "downloaded object differs from the catalog [size=" + offset + ", recorded="
                    + o.sizeBytes() + "]");
        }
        String version = codec.footerValue(file, ArchiveFormat.KEY_FORMAT);
        if (!ArchiveFormat.VERSION.equals(version)) {
            throw new ColdObjectException(o.key(), "not an archive of layout version " + ArchiveFormat.VERSION + " [found=" + version + "]");
        }
    }

    @Override
    public void delete(String objectKey) {
        SegmentPath path = SegmentPath.parse(objectKey)
                .filter(p -> p.namespace().equals(namespace))
                .orElseThrow(() -> new StorageBackendException("delete", objectKey, "not a key of namespace " + namespace));
        backend.delete(path);
        cache.invalidate(objectKey);
        metrics.objectsDeleted.increment();
    }

    @Override
    public List<String> list() {
        return backend.list(namespace).stream().map(SegmentPath::key).toList();
    }

    @Override
    public String describe() {
        return "parquet on " + backend.describe() + " under " + namespace.keyPrefix();
    }

    private static int crc(byte[] b) {
        CRC32C c = new CRC32C();
        c.update(b);
        return (int) c.getValue();
    }
}
