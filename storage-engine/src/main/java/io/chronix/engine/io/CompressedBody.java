package io.chronix.engine.io;

import com.github.luben.zstd.Zstd;
import io.chronix.engine.error.CorruptFileException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;

/**
 * The one reader of a sidecar body stored as {@code plain_length u32 | one Zstandard frame}, the
 * layout {@code .summary} and {@code .series} version 2 share. The result is the file's header
 * followed by the plain body, so a parser's offsets (and the offsets its errors name) are those of
 * the body as if it were stored plain.
 */
public final class CompressedBody {

    private CompressedBody() {
    }

    /**
     * @param bytes      the whole file, its CRC already checked
     * @param headerSize where the body starts
     * @param crcAt      where the body ends (the trailing CRC)
     * @param maxPlain   the largest plain length accepted
     * @param what       the file's kind, for messages ("summary", "sidecar")
     * @throws CorruptFileException with path and offset if any length is off or the frame is damaged
     */
    public static byte[] decompress(Path path, byte[] bytes, int headerSize, int crcAt, int maxPlain, String what) {
        int packedAt = headerSize + Integer.BYTES;
        if (crcAt < packedAt) {
            throw new CorruptFileException(path, headerSize, what + " body too short for its plain length");
        }
        int plainLength = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt(headerSize);
        if (plainLength < 0 || plainLength > maxPlain) {
            throw new CorruptFileException(path, headerSize, "plain length out of range [plainLength=" + plainLength + "]");
        }
        byte[] plain = new byte[headerSize + plainLength];
        System.arraycopy(bytes, 0, plain, 0, headerSize);
        long got;
        try {
            got = Zstd.decompressByteArray(plain, headerSize, plainLength, bytes, packedAt, crcAt - packedAt);
        } catch (RuntimeException e) {
            throw new CorruptFileException(path, packedAt, what + " body does not decompress: " + e.getMessage());
        }
        if (got != plainLength) {
            throw new CorruptFileException(path, packedAt, what + " body decompresses to " + got + " bytes, not " + plainLength);
        }
        return plain;
    }
}
