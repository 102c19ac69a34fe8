package io.chronix.api.engine;

import io.chronix.api.config.DataDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.util.unit.DataSize;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code diskSpace} looks at the data directory, not at the working directory, against the threshold. */
class DataDiskHealthIndicatorTest {

    @TempDir
    Path tmp;

    private static EngineProperties threshold(DataSize t) {
        EngineProperties d = EngineProperties.defaults();
        return new EngineProperties(d.fsyncPolicy(), d.fsyncInterval(), d.shardDuration(), d.oooToleranceShards(), d.futureTolerance(),
                d.flushThreshold(), d.memtableBudget(), d.idleTimeout(), d.sweepInterval(), 1, Duration.ofSeconds(10), t);
    }

    @Test
    void upWithRoomDownBelowTheThresholdNamingTheDataDirectory() throws Exception {
        try (DataDirectory data = DataDirectory.open(tmp.resolve("data"))) {
            Files.createDirectories(data.namespaces());
            Health up = new DataDiskHealthIndicator(data, threshold(DataSize.ofBytes(1))).health(true);
            assertThat(up.getStatus()).isEqualTo(Status.UP);
            assertThat(up.getDetails()).containsEntry("path", data.root().toString()).containsKey("free").containsEntry("threshold", 1L);
            Health down = new DataDiskHealthIndicator(data, threshold(DataSize.ofBytes(Long.MAX_VALUE))).health(true);
            assertThat(down.getStatus()).isEqualTo(Status.DOWN);
            assertThat(down.getDetails()).containsEntry("path", data.root().toString());
        }
    }
}
