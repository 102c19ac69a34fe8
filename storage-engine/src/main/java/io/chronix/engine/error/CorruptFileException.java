package io.chronix.engine.error;

import java.nio.file.Path;

/**
 * A file the engine wrote does not read back as written: a checksum mismatch, an impossible length,
 * a sequence that goes backwards, a foreign magic. Never a crash artefact the engine can explain —
 * those (a torn WAL tail) are repaired and reported instead.
 */
public final class CorruptFileException extends EngineException {

    private final Path path;
    private final long offset;
    private final String reason;

    public CorruptFileException(Path path, long offset, String reason) {
        super(describe("corrupt file", "path", path, "offset", offset, "reason", reason));
        this.path = path;
        this.offset = offset;
        this.reason = reason;
    }

    public Path path() {
        return path;
    }

    /** Byte offset in the file where the damage starts. */
    public long offset() {
        return offset;
    }

    public String reason() {
        return reason;
    }
}
