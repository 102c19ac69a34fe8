package io.chronix.engine.segment;

import io.chronix.engine.error.EngineException;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Reading or writing a segment or sidecar failed in the operating system (not damage in the
 * bytes — that is {@link io.chronix.engine.error.CorruptFileException}). A failed write leaves no
 * published file: the temporary file is removed.
 */
public final class SegmentIoException extends EngineException {

    private final Path path;

    public SegmentIoException(String operation, Path path, IOException cause) {
        super(describe("segment I/O failed", "operation", operation, "path", path, "cause", cause.toString()), cause);
        this.path = path;
    }

    public Path path() {
        return path;
    }
}
