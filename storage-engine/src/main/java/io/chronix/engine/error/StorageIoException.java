package io.chronix.engine.error;

import java.nio.file.Path;

/**
 * A file operation of the engine outside the WAL (catalog, data directory, segment files) failed:
 * the message names the operation, the file and, where there is one, the offset ({@code -1}
 * otherwise).
 */
public final class StorageIoException extends EngineException {

    private final String operation;
    private final Path path;
    private final long offset;

    public StorageIoException(String operation, Path path, long offset, Throwable cause) {
        super(describe(operation + " failed", "path", path, "offset", offset, "cause", String.valueOf(cause)), cause);
        this.operation = operation;
        this.path = path;
        this.offset = offset;
    }

    public String operation() {
        return operation;
    }

    public Path path() {
        return path;
    }

    public long offset() {
        return offset;
    }
}
