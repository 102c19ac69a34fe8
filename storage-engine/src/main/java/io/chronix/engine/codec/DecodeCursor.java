package io.chronix.engine.codec;

import io.chronix.engine.error.PayloadDecodeException;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Bounds-checked reads over a payload. Every read that would pass the end, every over-long varint
 * and every count larger than the bytes left is a {@link PayloadDecodeException} with the offset,
 * never an index exception and never a huge allocation.
 *
 * <p>Threading: single-threaded.
 */
final class DecodeCursor {

    private final ByteBuffer buf;
    private final int start;

    DecodeCursor(ByteBuffer payload) {
        this.buf = payload.duplicate();
        this.start = buf.position();
    }

    int offset() {
        return buf.position() - start;
    }

    int remaining() {
        return buf.remaining();
    }

    PayloadDecodeException error(String reason) {
        return new PayloadDecodeException(offset(), reason);
    }

    int readByte() {
        if (!buf.hasRemaining()) {
            throw error("unexpected end of payload");
        }
        return buf.get() & 0xFF;
    }

    long readVarLong() {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = readByte();
            if (shift == 63 && (b & 0xFE) != 0) {
                throw error("varint overflows 64 bits");
            }
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
        throw error("varint longer than 10 bytes");
    }

    long readZigZag() {
        long v = readVarLong();
        return (v >>> 1) ^ -(v & 1);
    }

    long readLongLE() {
        if (buf.remaining() < 8) {
            throw error("unexpected end of payload");
        }
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v |= (long) (buf.get() & 0xFF) << (8 * i);
        }
        return v;
    }

    /** A count of items each at least {@code minBytesEach} long; refused if the bytes left cannot hold it. */
    int readCount(int minBytesEach, String what) {
        long n = readVarLong();
        if (n < 0 || n > (long) buf.remaining() / minBytesEach) {
            throw error(what + " count " + Long.toUnsignedString(n) + " exceeds the " + buf.remaining() + " bytes left");
        }
        return (int) n;
    }

    /** An id that must be below {@code bound}. */
    int readId(int bound, String what) {
        long id = readVarLong();
        if (id < 0 || id >= bound) {
            throw error(what + " id " + Long.toUnsignedString(id) + " out of range [0, " + bound + ")");
        }
        return (int) id;
    }

    String readString() {
        int n = readCount(1, "string byte");
        int pos = buf.position();
        String s;
        if (buf.hasArray()) {
            s = new String(buf.array(), buf.arrayOffset() + pos, n, StandardCharsets.UTF_8);
        } else {
            byte[] tmp = new byte[n];
            buf.get(pos, tmp);
            s = new String(tmp, StandardCharsets.UTF_8);
        }
        buf.position(pos + n);
        return s;
    }
}
