package io.chronix.engine.catalog;

import java.util.Objects;

/**
 * An object the cold tier stored and verified.
 *
 * @param key the object key, {@code ns_{namespace}/shard_{id}/{name}}
 * @param sizeBytes the object's length
 * @param crc32c CRC-32C of the object's bytes, as read back after the upload
 * @param etag the store's version tag of the object (S3 ETag; the filesystem backend's own tag);
 *     with the key it names a cached copy
 */
public record StoredObject(String key, long sizeBytes, int crc32c, String etag) {

    public StoredObject {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(etag, "etag");
        if (key.isEmpty() || sizeBytes < 0) {
            throw new IllegalArgumentException("bad stored object [key=" + key + ", size=" + sizeBytes + "]");
        }
    }
}
