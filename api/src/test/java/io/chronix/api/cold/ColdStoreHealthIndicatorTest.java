package io.chronix.api.cold;

import io.chronix.archive.store.FileSystemBackend;
import io.chronix.archive.store.RetryPolicy;
import io.chronix.archive.store.S3Backend;
import io.chronix.archive.store.S3Config;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class ColdStoreHealthIndicatorTest {

    @Test
    void anUnreachableStoreIsDownWithItsEndpointNamed() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        S3Backend dead = new S3Backend(new S3Config(URI.create("http://127.0.0.1:" + port), "cold-bucket", "k", "s", null, false,
                Duration.ofMillis(500)), RetryPolicy.NONE, S3Backend.DEFAULT_PART_SIZE);
        Health h = new ColdStoreHealthIndicator(dead).health(true);
        assertThat(h.getStatus()).isEqualTo(Status.DOWN);
        assertThat(h.getDetails().get("store").toString()).contains("127.0.0.1:" + port).contains("cold-bucket");
        assertThat(h.getDetails().get("error").toString()).contains("does not answer");
        assertThat(h.getDetails().toString()).doesNotContain("\"s\"");
    }

    @Test
    void aUsableStoreIsUp(@TempDir Path dir) {
        Health h = new ColdStoreHealthIndicator(new FileSystemBackend(dir)).health(true);
        assertThat(h.getStatus()).isEqualTo(Status.UP);
        assertThat(h.getDetails().get("store").toString()).contains(dir.toString());
    }
}
