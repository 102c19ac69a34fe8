package io.chronix.engine;

import io.chronix.engine.archive.ArchiveSource;
import io.chronix.engine.archive.ColdTier;
import io.chronix.engine.catalog.ArchivedSegment;
import io.chronix.engine.catalog.StoredObject;
import io.chronix.engine.error.StorageBackendException;
import io.chronix.engine.read.BatchListReader;
import io.chronix.engine.read.TagPredicate;
import io.chronix.engine.storage.NamespaceId;
import io.chronix.engine.storage.SegmentPath;
import io.chronix.engine.storage.ShardId;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.Consumer;
import java.util.zip.CRC32C;

/**
 * A cold tier for engine tests: objects are Arrow IPC streams in a map, keys as the real tier
 * builds them. {@link #down} makes every call fail as an unreachable store does.
 */
final class MemoryColdTier implements ColdTier {

    final Map<String, byte[]> objects = new ConcurrentSkipListMap<>();
    final NamespaceId namespace;
    volatile boolean down;

    MemoryColdTier(long namespace) {
        this.namespace = new NamespaceId(namespace);
    }

    private void check(String op, String key) {
        if (down) {
            throw new StorageBackendException(op, key, "store down (test)");
        }
    }

    @Override
    public StoredObject archive(ArchiveSource source) {
        String key = new SegmentPath(namespace, new ShardId(source.shard()), source.objectName()).key();
        check("put", key);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (BatchListReader in = new BatchListReader(source.allocator(), source.schema(), source.batches());
             ArrowStreamWriter w = new ArrowStreamWriter(in.getVectorSchemaRoot(), null, out)) {
            w.start();
            while (in.loadNextBatch()) {
                w.writeBatch();
            }
            w.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        byte[] bytes = out.toByteArray();
        objects.put(key, bytes);
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        return new StoredObject(key, bytes.length, (int) crc.getValue(), Integer.toHexString(java.util.Arrays.hashCode(bytes)));
    }

    @Override
    public void read(ArchivedSegment segment, List<String> columns, long from, long to, List<TagPredicate> tags,
            BufferAllocator allocator, Consumer<VectorSchemaRoot> sink) {
        check("get", segment.key());
        byte[] bytes = objects.get(segment.key());
        if (bytes == null) {
            throw new StorageBackendException("get", segment.key(), "no such object");
        }
        try (ArrowStreamReader r = new ArrowStreamReader(new ByteArrayInputStream(bytes), allocator)) {
            while (r.loadNextBatch()) {
                sink.accept(r.getVectorSchemaRoot());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void delete(String objectKey) {
        check("delete", objectKey);
        objects.remove(objectKey);
    }

    @Override
    public List<String> list() {
        check("list", namespace.keyPrefix());
        return List.copyOf(objects.keySet());
    }

    @Override
    public String describe() {
        return "memory " + namespace.keyPrefix();
    }
}
