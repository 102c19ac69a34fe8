/**
 * Backends of {@link io.chronix.engine.storage.StorageBackend}: {@link io.chronix.archive.store.S3Backend}
 * (minio-java; MinIO or any S3) and {@link io.chronix.archive.store.FileSystemBackend} (the embedded
 * default). Keys come only from {@link io.chronix.engine.storage.SegmentPath}.
 *
 * <p>Threading: both backends are safe for concurrent use.
 */
package io.chronix.archive.store;
