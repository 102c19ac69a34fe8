package io.chronix.engine.codec;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable byte array the codec encodes into. Reuse one per writer ({@link #clear()}, or lend them
 * from an {@link EncodeBufferPool}) and encoding a batch allocates nothing once the array has grown
 * to fit.
 *
 * <p>Threading: single-threaded.
 */
public final class EncodeBuffer {

    private byte[] bytes;
    private int length;

    public EncodeBuffer() {
        this(256);
    }

    public EncodeBuffer(int initialCapacity) {
        bytes = new byte[Math.max(16, initialCapacity)];
    }

    public EncodeBuffer clear() {
        length = 0;
        return this;
    }

    public int length() {
        return length;
    }

    /** Bytes it holds before it must grow. */
    public int capacity() {
        return bytes.length;
    }

    /** The encoded bytes as a buffer over this object's array, valid until the next write or clear. */
    public ByteBuffer view() {
        return ByteBuffer.wrap(bytes, 0, length);
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(bytes, length);
    }

    void writeByte(int b) {
        ensure(1);
        bytes[length++] = (byte) b;
    }

    /** Unsigned LEB128: seven bits a byte, low group first, high bit set on all but the last. */
    void writeVarLong(long v) {
        ensure(10);
        while ((v & ~0x7FL) != 0) {
            bytes[length++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        bytes[length++] = (byte) v;
    }

    void writeVarInt(int v) {
        writeVarLong(v & 0xFFFF_FFFFL);
    }

    /** Zigzag maps small negative and positive numbers alike to small unsigned ones. */
    void writeZigZag(long v) {
        writeVarLong((v << 1) ^ (v >> 63));
    }

    void writeLongLE(long v) {
        ensure(8);
        for (int i = 0; i < 8; i++) {
            bytes[length++] = (byte) (v >>> (8 * i));
        }
    }

    /** A varint byte length, then UTF-8. ASCII, the usual case, is copied without a temporary array. */
    void writeString(String s) {
        int n = s.length();
        boolean ascii = true;
        for (int i = 0; i < n && ascii; i++) {
            ascii = s.charAt(i) < 0x80;
        }
        if (ascii) {
            writeVarInt(n);
            ensure(n);
            for (int i = 0; i < n; i++) {
                bytes[length++] = (byte) s.charAt(i);
            }
        } else {
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            writeVarInt(utf8.length);
            ensure(utf8.length);
            System.arraycopy(utf8, 0, bytes, length, utf8.length);
            length += utf8.length;
        }
    }

    private void ensure(int more) {
        if (length + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
        }
    }
}
