package io.chronix.engine.read;

import org.apache.arrow.memory.ArrowBuf;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Bulk copies out of Arrow buffers into Java arrays, Arrow's little-endian layout read as such.
 *
 * <p>Why not {@code ArrowBuf.nioBuffer(…).asLongBuffer().get(…)}: each {@code nioBuffer} call
 * builds its {@code ByteBuffer} through a reflective constructor, which cost 3 % of a small query's
 * request thread (three calls per row group); and why not {@code ArrowBuf.getLong} per value: each
 * pays the buffer's bounds and reference-count checks. A memory segment over the buffer's first
 * bytes, checked once against its capacity, is neither.
 *
 * <p>Threading: stateless. The buffer must stay open for the call.
 */
public final class ArrowBulk {

    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private ArrowBulk() {
    }

    /** The buffer's first {@code count} 64-bit integers into {@code to[0..count)}. */
    public static void longs(ArrowBuf from, long[] to, int count) {
        if (count > 0) {
            MemorySegment.copy(head(from, (long) count * Long.BYTES), LONG, 0, to, 0, count);
        }
    }

    /** The buffer's first {@code count} doubles into {@code to[0..count)}. */
    public static void doubles(ArrowBuf from, double[] to, int count) {
        if (count > 0) {
            MemorySegment.copy(head(from, (long) count * Double.BYTES), DOUBLE, 0, to, 0, count);
        }
    }

    /** The buffer's first {@code count} 32-bit integers into {@code to[0..count)}. */
    public static void ints(ArrowBuf from, int[] to, int count) {
        if (count > 0) {
            MemorySegment.copy(head(from, (long) count * Integer.BYTES), INT, 0, to, 0, count);
        }
    }

    /** The buffer's first {@code bytes} bytes as a segment; refused past its capacity. */
    private static MemorySegment head(ArrowBuf buf, long bytes) {
        if (bytes > buf.capacity()) {
            throw new IndexOutOfBoundsException("copy of " + bytes + " bytes out of an Arrow buffer of " + buf.capacity());
        }
        return MemorySegment.ofAddress(buf.memoryAddress()).reinterpret(bytes);
    }
}
