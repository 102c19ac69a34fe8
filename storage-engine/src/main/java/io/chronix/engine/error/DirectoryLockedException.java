package io.chronix.engine.error;

import java.nio.file.Path;

/** Another process (or another open instance in this one) holds the directory's {@code LOCK}. */
public final class DirectoryLockedException extends EngineException {

    private final Path lockFile;

    public DirectoryLockedException(Path lockFile) {
        super(describe("directory is locked by another process", "lock", lockFile));
        this.lockFile = lockFile;
    }

    public Path lockFile() {
        return lockFile;
    }
}
