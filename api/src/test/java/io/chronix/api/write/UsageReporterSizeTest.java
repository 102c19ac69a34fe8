package io.chronix.api.write;

import io.chronix.api.archive.ColdTiers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Stored bytes of a namespace: its engine directory, without the local copies of cold objects (those count as cold bytes). */
class UsageReporterSizeTest {

    @TempDir
    Path dir;

    @Test
    void theEngineDirectoryCountsAndTheColdCacheDoesNot() throws Exception {
        Files.createDirectories(dir.resolve("segments/shard_1"));
        Files.write(dir.resolve("segments/shard_1/seg_1_1.csx"), new byte[1000]);
        Files.write(dir.resolve("VERSION"), new byte[6]);
        Files.createDirectories(dir.resolve(ColdTiers.CACHE_DIRECTORY));
        Files.write(dir.resolve(ColdTiers.CACHE_DIRECTORY).resolve("obj"), new byte[5000]);
        assertThat(UsageReporter.directorySize(dir)).isEqualTo(1006);
        assertThat(UsageReporter.directorySize(dir.resolve("missing"))).isZero();
    }
}
