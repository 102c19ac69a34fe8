package io.chronix.engine.error;

import java.nio.file.Path;

/**
 * A write found the device full (ENOSPC). The append that hit it failed and wrote nothing that a
 * reader will see; the file was cut back to its last whole record, so appends succeed again once
 * space is freed.
 */
public final class DiskFullException extends EngineException {

    private final Path path;
    private final long offset;

    public DiskFullException(Path path, long offset, Throwable cause) {
        super(describe("no space left on device", "path", path, "offset", offset), cause);
        this.path = path;
        this.offset = offset;
    }

    public Path path() {
        return path;
    }

    /** Where the failed record would have started. */
    public long offset() {
        return offset;
    }
}
