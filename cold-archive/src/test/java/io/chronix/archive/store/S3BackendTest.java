package io.chronix.archive.store;

import io.chronix.archive.testing.S3TestServer;
import io.chronix.engine.error.StorageBackendException;
import io.chronix.engine.storage.NamespaceId;
import io.chronix.engine.storage.SegmentPath;
import io.chronix.engine.storage.ShardId;
import io.chronix.engine.storage.StorageBackend;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class S3BackendTest extends StorageBackendContract {

    private S3Backend backend;

    @BeforeEach
    void open() {
        backend = S3TestServer.get().newBackend();
    }

    @Override
    protected StorageBackend backend() {
        return backend;
    }

    @Test
    void anEndpointThatDoesNotAnswerIsReportedAtCheck() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // closed again: nothing listens there
        }
        S3Backend dead = new S3Backend(new S3Config(URI.create("http://127.0.0.1:" + port), "bucket-x", "k", "s", null, true, Duration.ofSeconds(1)));
        assertThatThrownBy(dead::checkAvailable).isInstanceOf(StorageBackendException.class)
                .hasMessageContaining("does not answer").hasMessageContaining("127.0.0.1:" + port);
    }

    @Test
    void largeObjectsGoUpInPartsAndComeBackWhole() {
        S3Backend small = new S3Backend(S3TestServer.get().newBucketConfig(), RetryPolicy.DEFAULT, S3Backend.MIN_PART_SIZE);
        small.checkAvailable();
        byte[] data = new byte[(int) (2 * S3Backend.MIN_PART_SIZE + 12345)];
        new java.util.Random(11).nextBytes(data);
        SegmentPath p = new SegmentPath(new NamespaceId(1), new ShardId(1), "big");
        small.put(p, data);
        assertThat(small.get(p)).isEqualTo(data);
        // a multipart object's ETag is the digest of the part digests, suffixed with the part count
        assertThat(small.stat(p).etag()).endsWith("-3");
        assertThat(small.stat(p).sizeBytes()).isEqualTo(data.length);
    }

    @Test
    void transientFailuresAreRetriedWithBackoffAndThenReported() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        S3Backend dead = new S3Backend(new S3Config(URI.create("http://127.0.0.1:" + port), "bucket-x", "k", "s", null, true,
                Duration.ofSeconds(1)), new RetryPolicy(3, Duration.ofMillis(5), Duration.ofMillis(10)), S3Backend.DEFAULT_PART_SIZE);
        SegmentPath p = new SegmentPath(new NamespaceId(1), new ShardId(1), "x");
        assertThatThrownBy(() -> dead.put(p, new byte[] {1})).isInstanceOf(StorageBackendException.class)
                .hasMessageContaining("ns_1/shard_1/x");
        assertThat(dead.retries()).as("two retries after the first attempt").isEqualTo(2);
    }

    @Test
    void aClientErrorIsNotRetried() {
        S3Config good = S3TestServer.get().newBucketConfig();
        backend.put(new SegmentPath(new NamespaceId(1), new ShardId(1), "x"), new byte[] {1});
        S3Backend wrongKey = new S3Backend(new S3Config(good.endpoint(), backend.bucket(), good.accessKey(), "not-the-secret",
                good.region(), false, good.connectTimeout()), new RetryPolicy(4, Duration.ofMillis(5), Duration.ofMillis(10)),
                S3Backend.DEFAULT_PART_SIZE);
        assertThatThrownBy(() -> wrongKey.get(new SegmentPath(new NamespaceId(1), new ShardId(1), "x")))
                .isInstanceOf(StorageBackendException.class);
        assertThat(wrongKey.retries()).as("a 403 is final").isZero();
        assertThat(RetryPolicy.isTransient(new java.io.IOException("reset"))).isTrue();
        assertThat(RetryPolicy.isTransient(new IllegalArgumentException("bad"))).isFalse();
    }

    @Test
    void aMissingBucketIsReportedWhenCreationIsOff() {
        S3Config c = S3TestServer.get().newBucketConfig();
        S3Backend noCreate = new S3Backend(new S3Config(c.endpoint(), c.bucket(), c.accessKey(), c.secretKey(), c.region(), false, c.connectTimeout()));
        assertThatThrownBy(noCreate::checkAvailable).isInstanceOf(StorageBackendException.class)
                .hasMessageContaining("bucket does not exist");
    }
}
