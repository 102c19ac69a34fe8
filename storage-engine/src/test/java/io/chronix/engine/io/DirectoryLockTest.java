package io.chronix.engine.io;

import io.chronix.engine.error.DirectoryLockedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DirectoryLockTest {

    @TempDir
    Path dir;

    @Test
    void secondHolderIsRefusedWithTheLockFileNamed() {
        try (DirectoryLock first = DirectoryLock.acquire(dir)) {
            assertThatThrownBy(() -> DirectoryLock.acquire(dir))
                    .isInstanceOf(DirectoryLockedException.class)
                    .hasMessageContaining(dir.resolve("LOCK").toString());
            assertThat(DirectoryLock.holderOf(dir)).isEqualTo(Long.toString(ProcessHandle.current().pid()));
        }
    }

    @Test
    void lockIsFreeAgainAfterCloseAndCloseIsIdempotent() {
        DirectoryLock first = DirectoryLock.acquire(dir);
        first.close();
        first.close();
        try (DirectoryLock second = DirectoryLock.acquire(dir)) {
            assertThat(second.file()).exists();
        }
    }
}
