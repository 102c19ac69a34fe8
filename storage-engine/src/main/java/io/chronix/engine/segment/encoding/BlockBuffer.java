package io.chronix.engine.segment.encoding;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A growable little-endian byte buffer the encoders write into, reused across blocks ({@link
 * #reset()}) so a segment write allocates a handful of arrays, not one per block. Always keeps at
 * least {@link Encodings#PAD} spare bytes past {@link #size()}, so 8-byte stores never need a bounds
 * special case.
 *
 * <p>Not thread-safe.
 */
public final class BlockBuffer {

    static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private byte[] buf;
    private int pos;

    public BlockBuffer(int initialCapacity) {
        buf = new byte[Math.max(64, initialCapacity) + Encodings.PAD];
    }

    public void reset() {
        pos = 0;
    }

    /** Drops everything written after the first {@code size} bytes. */
    public void truncate(int size) {
        if (size < 0 || size > pos) {
            throw new IllegalArgumentException("truncate beyond size [size=" + size + ", written=" + pos + "]");
        }
        pos = size;
    }

    /** Bytes written. */
    public int size() {
        return pos;
    }

    /** The backing array; valid bytes are {@code [0, size())}, followed by at least PAD spare bytes. */
    public byte[] array() {
        return buf;
    }

    public void ensure(int extra) {
        long need = (long) pos + extra + Encodings.PAD;
        if (need > buf.length) {
            if (need > Integer.MAX_VALUE - 16) {
                throw new IllegalStateException("encoded block exceeds 2 GiB");
            }
            buf = Arrays.copyOf(buf, (int) Math.max(need, Math.min(Integer.MAX_VALUE - 16L, buf.length * 2L)));
        }
    }

    public void putByte(int b) {
        ensure(1);
        buf[pos++] = (byte) b;
    }

    public void putInt(int v) {
        ensure(4);
        INT.set(buf, pos, v);
        pos += 4;
    }

    public void putLong(long v) {
        ensure(8);
        LONG.set(buf, pos, v);
        pos += 8;
    }

    /** Unsigned LEB128. */
    public void putVarLong(long v) {
        ensure(10);
        while ((v & ~0x7FL) != 0) {
            buf[pos++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[pos++] = (byte) v;
    }

    public void putBytes(byte[] src, int off, int len) {
        ensure(len);
        System.arraycopy(src, off, buf, pos, len);
        pos += len;
    }

    /** Overwrites 4 bytes at {@code at} (a length written before its content). */
    public void setInt(int at, int v) {
        INT.set(buf, at, v);
    }

    /** Stores 8 bytes at {@code at} without moving the position; caller ensured room. */
    void rawLong(int at, long v) {
        LONG.set(buf, at, v);
    }

    /** Moves the position forward by {@code n} bytes already written with {@link #rawLong}. */
    void advance(int n) {
        pos += n;
    }
}
