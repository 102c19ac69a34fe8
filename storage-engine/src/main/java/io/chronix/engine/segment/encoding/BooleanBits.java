package io.chronix.engine.segment.encoding;

/**
 * Booleans as one bit per value, LSB first — the layout of an Arrow {@code Bool} data buffer, so
 * the reader copies the block into the vector without a per-value step.
 *
 * <pre>
 * block := ceil(n / 8) bytes; bit i of the block is value i
 * </pre>
 */
public final class BooleanBits {

    private BooleanBits() {
    }

    public static int bytesFor(int count) {
        return (count + 7) >>> 3;
    }

    public static void encode(boolean[] values, int from, int count, BlockBuffer out) {
        int bytes = bytesFor(count);
        out.ensure(bytes);
        byte[] buf = out.array();
        int base = out.size();
        java.util.Arrays.fill(buf, base, base + bytes, (byte) 0);
        for (int i = 0; i < count; i++) {
            if (values[from + i]) {
                buf[base + (i >>> 3)] |= (byte) (1 << (i & 7));
            }
        }
        out.advance(bytes);
    }

    /** Value {@code i} of an encoded block at {@code pos}. */
    public static boolean get(byte[] src, int pos, int i) {
        return (src[pos + (i >>> 3)] & (1 << (i & 7))) != 0;
    }
}
