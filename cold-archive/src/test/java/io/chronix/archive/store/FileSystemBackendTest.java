package io.chronix.archive.store;

import io.chronix.engine.error.StorageBackendException;
import io.chronix.engine.storage.StorageBackend;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FileSystemBackendTest extends StorageBackendContract {

    @TempDir
    Path dir;

    private FileSystemBackend backend;

    @BeforeEach
    void open() {
        backend = new FileSystemBackend(dir.resolve("cold"));
        backend.checkAvailable();
    }

    @Override
    protected StorageBackend backend() {
        return backend;
    }

    @Test
    void putLeavesNoTemporaryFileBehind() throws Exception {
        backend.put(new io.chronix.engine.storage.SegmentPath(new io.chronix.engine.storage.NamespaceId(1),
                new io.chronix.engine.storage.ShardId(0), "x"), new byte[100]);
        try (var files = Files.list(dir.resolve("cold/.tmp"))) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void aRootThatIsAFileIsUnavailable() throws Exception {
        Path file = Files.writeString(dir.resolve("plain-file"), "x");
        assertThatThrownBy(() -> new FileSystemBackend(file).checkAvailable())
                .isInstanceOf(StorageBackendException.class)
                .hasMessageContaining(file.toString());
    }
}
