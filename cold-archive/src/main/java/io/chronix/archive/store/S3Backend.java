package io.chronix.archive.store;

import io.chronix.engine.error.SegmentNotFoundException;
import io.chronix.engine.error.StorageBackendException;
import io.chronix.engine.storage.NamespaceId;
import io.chronix.engine.storage.ObjectInfo;
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

import io.minio.StatObjectResponse;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Cold segments in one S3 bucket (MinIO in production), keys from {@link SegmentPath}. S3 makes a
 * put visible whole or not at all, which is the contract of {@link StorageBackend#put}.
 *
 * <p>Objects larger than {@link #partSize()} are uploaded in parts (S3 multipart upload: parts of
 * that size, completed in one request, invisible until then). Every data call goes through a
 * {@link RetryPolicy}: transient failures are retried with back-off, 4xx answers are not.
 * {@link #checkAvailable()} does not retry: it reports the store's state now.
 */
public final class S3Backend implements StorageBackend {

    /** 16 MiB parts: 4 in flight stay small, and 10,000 parts (S3's limit) cover 160 GB. */
    public static final long DEFAULT_PART_SIZE = 16L << 20;
    /** S3's smallest part. */
    public static final long MIN_PART_SIZE = 5L << 20;

    private final S3Config config;
    private final MinioClient client;
    private final RetryPolicy retry;
    private final long partSize;
    private final LongAdder retries = new LongAdder();

    public S3Backend(S3Config config) {
        this(config, RetryPolicy.DEFAULT, DEFAULT_PART_SIZE);
    }

    /**
     * @param partSize objects above this size go up in parts of this size (at least 5 MiB)
     */
    public S3Backend(S3Config config, RetryPolicy retry, long partSize) {
        if (partSize < MIN_PART_SIZE) {
            throw new IllegalArgumentException("part size below S3's 5 MiB minimum [partSize=" + partSize + "]");
        }
        this.retry = retry;
        this.partSize = partSize;
        this.config = config;
        this.client = MinioClient.builder()
                .endpoint(config.endpoint().toString())
                .credentials(config.accessKey(), config.secretKey())
                .region(config.region())
                .httpClient(httpClient(), true)
                .build();
        long connectMillis = config.connectTimeout().toMillis();
        client.setTimeout(connectMillis, TimeUnit.MINUTES.toMillis(5), TimeUnit.MINUTES.toMillis(5));
    }

    /**
     * minio's default OkHttp client, but with a dispatcher of daemon threads: OkHttp's own are not
     * daemons and idle for 60 s, which kept a service that failed its start-up check alive that long.
     */
    private static okhttp3.OkHttpClient httpClient() {
        java.util.concurrent.ThreadFactory daemons = r -> {
            Thread t = new Thread(r, "chronix-s3-http");
            t.setDaemon(true);
            return t;
        };
        long fiveMinutes = TimeUnit.MINUTES.toMillis(5);
        return io.minio.http.HttpUtils.newDefaultHttpClient(fiveMinutes, fiveMinutes, fiveMinutes).newBuilder()
                .dispatcher(new okhttp3.Dispatcher(java.util.concurrent.Executors.newCachedThreadPool(daemons)))
                .build();
    }

    /** The underlying client, for tests and tools that need a raw view of the bucket. */
    public MinioClient client() {
        return client;
    }

    public String bucket() {
        return config.bucket();
    }

    public long partSize() {
        return partSize;
    }

    /** Retries of transient failures since this backend was made (for metrics and tests). */
    public long retries() {
        return retries.sum();
    }

    private <T> T call(RetryPolicy.Call<T> c) throws Exception {
        return retry.run(c, retries);
    }

    @Override
    public void put(SegmentPath path, byte[] data) {
        try {
            // a fresh stream per attempt: a retried upload starts from the first byte
            call(() -> client.putObject(PutObjectArgs.builder()
                    .bucket(config.bucket())
                    .object(path.key())
                    .stream(new ByteArrayInputStream(data), data.length, data.length > partSize ? partSize : -1)
                    .contentType("application/octet-stream")
                    .build()));
        } catch (Exception e) {
            throw new StorageBackendException("put", path.key(), e);
        }
    }

    @Override
    public byte[] get(SegmentPath path) {
        try {
            return call(() -> {
                try (GetObjectResponse in = client.getObject(GetObjectArgs.builder()
                        .bucket(config.bucket()).object(path.key()).build())) {
                    return in.readAllBytes();
                }
            });
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
        try {
            return call(() -> {
                try (GetObjectResponse in = client.getObject(GetObjectArgs.builder()
                        .bucket(config.bucket()).object(path.key()).offset(offset).length(length).build())) {
                    return in.readAllBytes();
                }
            });
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
            call(() -> {
                client.removeObject(RemoveObjectArgs.builder().bucket(config.bucket()).object(path.key()).build());
                return null;
            });
        } catch (Exception e) {
            throw new StorageBackendException("delete", path.key(), e);
        }
    }

    @Override
    public List<SegmentPath> list(NamespaceId namespace) {
        List<SegmentPath> result = new ArrayList<>();
        try {
            call(() -> {
                result.clear();
                for (Result<Item> r : client.listObjects(ListObjectsArgs.builder()
                        .bucket(config.bucket()).prefix(namespace.keyPrefix()).recursive(true).build())) {
                    SegmentPath.parse(r.get().objectName()).ifPresent(result::add);
                }
                return null;
            });
        } catch (Exception e) {
            throw new StorageBackendException("list", namespace.keyPrefix(), e);
        }
        return result;
    }

    @Override
    public boolean exists(SegmentPath path) {
        try {
            call(() -> client.statObject(StatObjectArgs.builder().bucket(config.bucket()).object(path.key()).build()));
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
    public ObjectInfo stat(SegmentPath path) {
        try {
            StatObjectResponse r = call(() -> client.statObject(StatObjectArgs.builder().bucket(config.bucket()).object(path.key()).build()));
            String etag = r.etag() == null ? "" : r.etag().replace("\"", "");
            return new ObjectInfo(r.size(), etag);
        } catch (ErrorResponseException e) {
            String code = e.errorResponse().code();
            if ("NoSuchKey".equals(code) || "NoSuchObject".equals(code) || e.response().code() == 404) {
                throw new SegmentNotFoundException(path.key());
            }
            throw new StorageBackendException("stat", path.key(), e);
        } catch (Exception e) {
            throw new StorageBackendException("stat", path.key(), e);
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
