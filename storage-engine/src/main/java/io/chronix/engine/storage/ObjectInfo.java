package io.chronix.engine.storage;

import java.util.Objects;

/**
 * What a store says about one object without reading it.
 *
 * @param etag the store's version tag: S3's ETag (quotes stripped), or the filesystem backend's
 *     tag from size and modification time. Two different contents under one key never share one.
 */
public record ObjectInfo(long sizeBytes, String etag) {

    public ObjectInfo {
        Objects.requireNonNull(etag, "etag");
    }
}
