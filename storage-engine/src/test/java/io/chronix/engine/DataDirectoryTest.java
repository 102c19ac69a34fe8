package io.chronix.engine;

import io.chronix.engine.error.CorruptFileException;
import io.chronix.engine.error.DirectoryLockedException;
import io.chronix.engine.error.UnsupportedFormatVersionException;
import io.chronix.engine.model.PointBatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DataDirectoryTest {

    @TempDir
    Path dir;
    final EngineFixture fx = new EngineFixture();

    @AfterEach
    void tearDown() {
        fx.close();
    }

    @Test
    void newDirectoryGetsLayoutAndVersion() throws Exception {
        try (Chronix c = fx.open(dir)) {
            assertThat(Files.readString(dir.resolve("VERSION"))).isEqualTo("1\n");
            assertThat(dir.resolve("LOCK")).exists();
            assertThat(dir.resolve("wal")).isDirectory();
            assertThat(dir.resolve("catalog/manifest.cxct")).exists();
            assertThat(dir.resolve("tmp")).isDirectory();
        }
    }

    @Test
    void anotherVersionIsRefusedNamingBoth() throws Exception {
        fx.open(dir).close();
        Files.writeString(dir.resolve("VERSION"), "7\n");
        assertThatThrownBy(() -> fx.open(dir))
                .isInstanceOf(UnsupportedFormatVersionException.class)
                .hasMessageContaining("found=7").hasMessageContaining("expected=1");
        // the refused open released the lock
        Files.writeString(dir.resolve("VERSION"), "1\n");
        fx.open(dir).close();
    }

    @Test
    void missingVersionBesideACatalogIsRefused() throws Exception {
        fx.open(dir).close();
        Files.delete(dir.resolve("VERSION"));
        assertThatThrownBy(() -> fx.open(dir)).isInstanceOf(CorruptFileException.class).hasMessageContaining("VERSION");
    }

    @Test
    void secondOpenOfTheSameDirectoryFailsNamingTheLock() {
        try (Chronix first = fx.open(dir)) {
            assertThatThrownBy(() -> fx.open(dir))
                    .isInstanceOf(DirectoryLockedException.class)
                    .hasMessageContaining(dir.resolve("LOCK").toString());
        }
        fx.open(dir).close();
    }

    @Test
    void tmpIsEmptiedAtOpen() throws Exception {
        fx.open(dir).close();
        Files.writeString(dir.resolve("tmp/seg_1_1.csx.tmp"), "half a segment");
        Files.writeString(dir.resolve("tmp/other"), "x");
        fx.open(dir).close();
        try (var s = Files.list(dir.resolve("tmp"))) {
            assertThat(s.toList()).isEmpty();
        }
    }

    @Test
    void segmentFilesTheCatalogDoesNotHoldAreDeletedAtOpen() throws Exception {
        try (Chronix c = fx.open(dir)) {
            c.write(PointBatch.builder().beginPoint("m", EngineFixture.T0).floatField("v", 1).endPoint().build());
            c.flush();
        }
        Path shard = Files.list(dir.resolve("segments")).findFirst().orElseThrow();
        Path orphan = shard.resolve("seg_1_999999.csx");
        Files.writeString(orphan, "crashed flush");
        try (Chronix c = fx.open(dir)) {
            assertThat(orphan).doesNotExist();
            assertThat(c.segmentCount()).isEqualTo(1);
        }
    }

    @Test
    void closedEngineRefusesCalls() {
        Chronix c = fx.open(dir);
        c.close();
        c.close();
        assertThatThrownBy(c::measurements).isInstanceOf(io.chronix.engine.error.EngineClosedException.class);
    }
}
