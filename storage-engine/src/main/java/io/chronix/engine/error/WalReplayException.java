package io.chronix.engine.error;

import java.nio.file.Path;

/**
 * An intact WAL record that replay cannot apply: its points use a field that neither the catalog,
 * nor a {@code Schema} record before it, nor one later in the replayed log declares; or they give a
 * field another type than its declaration; or a declaration contradicts an earlier one. The frame
 * checks out, so this is not a torn or damaged file but a log whose records do not fit together;
 * the engine refuses to open rather than guess. {@code chronix-tool wal verify} reports the same
 * records.
 */
public final class WalReplayException extends EngineException {

    private final Path file;
    private final long offset;
    private final long sequence;
    private final String reason;

    public WalReplayException(Path file, long offset, long sequence, String reason) {
        this(file, offset, sequence, reason, null);
    }

    public WalReplayException(Path file, long offset, long sequence, String reason, Throwable cause) {
        super(describe("WAL record cannot be replayed: " + reason, "file", file, "offset", offset, "sequence", sequence), cause);
        this.file = file;
        this.offset = offset;
        this.sequence = sequence;
        this.reason = reason;
    }

    /** The WAL file holding the record. */
    public Path file() {
        return file;
    }

    /** Byte offset of the record's frame in {@link #file()}. */
    public long offset() {
        return offset;
    }

    public long sequence() {
        return sequence;
    }

    /** What is missing or contradicts, e.g. {@code field "usage" (FLOAT) of measurement "cpu" is declared nowhere}. */
    public String reason() {
        return reason;
    }
}
