package io.chronix.archive.store;

import io.chronix.engine.error.SegmentNotFoundException;
import io.chronix.engine.error.StorageBackendException;
import io.chronix.engine.storage.NamespaceId;
import io.chronix.engine.storage.SegmentPath;
import io.chronix.engine.storage.StorageBackend;
import io.minio.BucketExistsArgs;
import io.minio.GetObjectArgs;
import io.minio.GetObjectResponse;
import io.minio.ListObjectsArgs;
import io.minio.MakeBucketArgs;
import io.minio.MinioClient;
import io.minio.PutObjectArgs;
import io.minio.RemoveObjectArgs;
import io.minio.Result;
import io.minio.StatObjectArgs;
import io.minio.errors.ErrorResponseException;
import io.minio.messages.Item;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Cold segments in one S3 bucket (MinIO in production), keys from {@link SegmentPath}. S3 makes a
 * put visible whole or not at all, which is the contract of {@link StorageBackend#put}.
 */
public final class S3Backend implements StorageBackend {

    private final S3Config config;
    private final MinioClient client;

    public S3Backend(S3Config config) {
        this.config = config;
        this.client = MinioClient.builder()
                .endpoint(config.endpoint().toString())
                .credentials(config.accessKey(), config.secretKey())
                .region(config.region())
                .build();
        long connectMillis = config.connectTimeout().toMillis();
        client.setTimeout(connectMillis, TimeUnit.MINUTES.toMillis(5), TimeUnit.MINUTES.toMillis(5));
    }

    /** The underlying client, for tests and tools that need a raw view of the bucket. */
    public MinioClient client() {
        return client;
    }

    public String bucket() {
        return config.bucket();
    }

    @Override
    public void put(SegmentPath path, byte[] data) {
        try {
            client.putObject(PutObjectArgs.builder()
                    .bucket(config.bucket())
                    .object(path.key())
                    .stream(new ByteArrayInputStream(data), data.length, -1)
                    .contentType("application/octet-stream")
                    .build());
        } catch (Exception e) {
            throw new StorageBackendException("put", path.key(), e);
        }
    }

    @Override
    public byte[] get(SegmentPath path) {
        try (GetObjectResponse in = client.getObject(GetObjectArgs.builder()
                .bucket(config.bucket()).object(path.key()).build())) {
            return in.readAllBytes();
        } catch (ErrorResponseException e) {
            throw notFoundOr("get", path, e);
        } catch (Exception e) {
            throw new StorageBackendException("get", path.key(), e);
        }
    }

    @Override
    public byte[] getRange(SegmentPath path, long offset, long length) {
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("offset and length must be non-negative [offset=" + offset + ", length=" + length + "]");
        }
        if (length == 0) {
            return new byte[0];
        }
        try (GetObjectResponse in = client.getObject(GetObjectArgs.builder()
                .bucket(config.bucket()).object(path.key()).offset(offset).length(length).build())) {
            return in.readAllBytes();
        } catch (ErrorResponseException e) {
            if ("InvalidRange".equals(e.errorResponse().code())) {
                return new byte[0]; // offset at or past the end: nothing left to read
            }
            throw notFoundOr("getRange", path, e);
        } catch (Exception e) {
            throw new StorageBackendException("getRange", path.key(), e);
        }
    }

    @Override
    public void delete(SegmentPath path) {
        try {
            client.removeObject(RemoveObjectArgs.builder().bucket(config.bucket()).object(path.key()).build());
        } catch (Exception e) {
            throw new StorageBackendException("delete", path.key(), e);
        }
    }

    @Override
    public List<SegmentPath> list(NamespaceId namespace) {
        List<SegmentPath> result = new ArrayList<>();
        try {
            for (Result<Item> r : client.listObjects(ListObjectsArgs.builder()
                    .bucket(config.bucket()).prefix(namespace.keyPrefix()).recursive(true).build())) {
                SegmentPath.parse(r.get().objectName()).ifPresent(result::add);
            }
        } catch (Exception e) {
            throw new StorageBackendException("list", namespace.keyPrefix(), e);
        }
        return result;
    }

    @Override
    public boolean exists(SegmentPath path) {
        try {
            client.statObject(StatObjectArgs.builder().bucket(config.bucket()).object(path.key()).build());
            return true;
        } catch (ErrorResponseException e) {
            String code = e.errorResponse().code();
            if ("NoSuchKey".equals(code) || "NoSuchObject".equals(code) || e.response().code() == 404) {
                return false;
            }
            throw new StorageBackendException("exists", path.key(), e);
        } catch (Exception e) {
            throw new StorageBackendException("exists", path.key(), e);
        }
    }

    @Override
    public void checkAvailable() {
        String where = config.endpoint() + "/" + config.bucket();
        boolean exists;
        try {
            exists = client.bucketExists(BucketExistsArgs.builder().bucket(config.bucket()).build());
        } catch (Exception e) {
            throw new StorageBackendException("check", where, "S3 endpoint does not answer: " + rootMessage(e));
        }
        if (exists) {
            return;
        }
        if (!config.createBucket()) {
            throw new StorageBackendException("check", where, "bucket does not exist");
        }
        try {
            client.makeBucket(MakeBucketArgs.builder().bucket(config.bucket()).region(config.region()).build());
        } catch (Exception e) {
            throw new StorageBackendException("check", where, "cannot create bucket: " + rootMessage(e));
        }
    }

    @Override
    public String describe() {
        return "s3 " + config.endpoint() + "/" + config.bucket();
    }

    private static RuntimeException notFoundOr(String op, SegmentPath path, ErrorResponseException e) {
        String code = e.errorResponse().code();
        if ("NoSuchKey".equals(code) || "NoSuchObject".equals(code)) {
            return new SegmentNotFoundException(path.key());
        }
        return new StorageBackendException(op, path.key(), e);
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
    }
}
