package io.chronix.archive.parquet;

import io.chronix.archive.store.RetryPolicy;
import io.chronix.archive.store.S3Backend;
import io.chronix.archive.testing.S3TestServer;
import io.chronix.engine.Chronix;
import io.chronix.engine.archive.ArchiveReport;
import io.chronix.engine.storage.StorageBackend;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class S3ParquetColdTierTest extends ParquetColdTierContract {

    private S3Backend backend;

    @Override
    protected StorageBackend backend() {
        if (backend == null) {
            backend = S3TestServer.get().newBackend();
        }
        return backend;
    }

    @Test
    void uploadsFailingWhileTheServerIsDownAreRetriedByTheNextPassWithoutLoss() throws Exception {
        try (S3TestServer.Private server = S3TestServer.startPrivate()) {
            S3Backend s3 = new S3Backend(server.newBucketConfig(), new RetryPolicy(2, Duration.ofMillis(10), Duration.ofMillis(20)),
                    S3Backend.DEFAULT_PART_SIZE);
            s3.checkAvailable();
            List<String> expected;
            try (Chronix c = fx.open(s3, 51, dir.resolve("ns"))) {
                c.write(ColdTierFixture.batch("cpu"));
                c.flush();
                expected = fx.rows(c, "cpu");
                int segments = c.segmentCount();
                server.stop();
                fx.clock.now = fx.clock.now.plus(Duration.ofDays(3));
                ArchiveReport failed = c.archive(Duration.ofDays(1));
                assertThat(failed.failure()).isPresent();
                assertThat(failed.pending()).isEqualTo(segments);
                assertThat(c.segmentCount()).isEqualTo(segments);
                assertThat(fx.rows(c, "cpu")).isEqualTo(expected);
                assertThat(fx.metrics.uploadFailures()).isPositive();
                assertThat(s3.retries()).as("transient failures were retried").isPositive();

                server.start();
                ArchiveReport moved = c.archive(Duration.ofDays(1));
                assertThat(moved.failure()).isEmpty();
                assertThat(moved.segments()).isEqualTo(segments);
                assertThat(fx.rows(c, "cpu")).isEqualTo(expected);
            }
            try (Chronix c = fx.open(s3, 51, dir.resolve("ns"))) {
                assertThat(c.segmentCount()).isZero();
                assertThat(fx.rows(c, "cpu")).isEqualTo(expected);
            }
        }
    }
}
