package io.chronix.engine.error;

import java.nio.file.Path;

/**
 * A WAL file operation failed for a reason other than a full disk or a failed fsync: the message
 * names the operation, the file and, where there is one, the offset ({@code -1} otherwise).
 */
public final class WalIoException extends EngineException {

    private final String operation;
    private final Path path;
    private final long offset;

    public WalIoException(String operation, Path path, long offset, Throwable cause) {
        super(describe("WAL " + operation + " failed", "path", path, "offset", offset, "cause", String.valueOf(cause)), cause);
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
