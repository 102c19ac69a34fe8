package io.chronix.engine.wal;

import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * One record as a reader found it: sequence, type, payload (decompressed if it was stored
 * compressed), and where its frame starts.
 *
 * <p>The payload buffer is a view into the reader's buffer and is valid only during the visitor
 * call that receives it; {@link #payloadBytes()} copies it for keeping.
 *
 * @param storedLength the frame's {@code length} field: payload bytes as stored
 */
public record WalRecord(long sequence, WalRecordType type, ByteBuffer payload, Path file, long offset, int storedLength,
        boolean compressed) {

    public byte[] payloadBytes() {
        ByteBuffer p = payload.duplicate();
        byte[] bytes = new byte[p.remaining()];
        p.get(bytes);
        return bytes;
    }

    /** Receives records in sequence order. */
    @FunctionalInterface
    public interface Visitor {
        void accept(WalRecord record);
    }
}
