package io.chronix.archive.store;

import io.chronix.archive.testing.S3TestServer;
import io.chronix.engine.error.StorageBackendException;
import io.chronix.engine.storage.StorageBackend;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;

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
    void aMissingBucketIsReportedWhenCreationIsOff() {
        S3Config c = S3TestServer.get().newBucketConfig();
        S3Backend noCreate = new S3Backend(new S3Config(c.endpoint(), c.bucket(), c.accessKey(), c.secretKey(), c.region(), false, c.connectTimeout()));
        assertThatThrownBy(noCreate::checkAvailable).isInstanceOf(StorageBackendException.class)
                .hasMessageContaining("bucket does not exist");
    }
}
