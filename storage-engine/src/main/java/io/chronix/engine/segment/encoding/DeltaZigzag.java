package io.chronix.engine.segment.encoding;

/**
 * Integers (signed and unsigned alike, as 64-bit patterns): first value, then zigzagged deltas,
 * {@link PatchedPacking patched-bit-packed}. A random walk or a slowly moving gauge needs a few bits
 * per value; a counter's constant increments zigzag to one repeated small number.
 *
 * <pre>
 * block := first value i64 LE | frames of zigzag(v[i] - v[i-1]) for i in [1, n)
 * </pre>
 * Wrapping arithmetic: every long round-trips.
 */
public final class DeltaZigzag {

    private DeltaZigzag() {
    }

    public static void encode(long[] values, int from, int count, BlockBuffer out, long[] scratch, int[] histogram) {
        if (count == 0) {
            return;
        }
        out.putLong(values[from]);
        long prev = values[from];
        for (int i = 1; i < count; i++) {
            long v = values[from + i];
            scratch[i - 1] = Encodings.zigzag(v - prev);
            prev = v;
        }
        PatchedPacking.encode(scratch, 0, count - 1, out, histogram);
    }

    /** Decodes {@code count} values into {@code out[outFrom, outFrom+count)}; returns the position after the data. */
    public static int decode(byte[] src, int pos, int end, long[] out, int outFrom, int count) {
        if (count == 0) {
            return pos;
        }
        pos = first(src, pos, end, out, outFrom);
        for (int f = 1; f < count; f += PatchedPacking.FRAME) {
            pos = frame(src, pos, end, out, outFrom + f, Math.min(PatchedPacking.FRAME, count - f));
        }
        return pos;
    }

    /** Reads the first value into {@code out[o]}; returns the position of the first frame. */
    static int first(byte[] src, int pos, int end, long[] out, int o) {
        Encodings.need(pos, 8, end, "first value");
        out[o] = Encodings.getLong(src, pos);
        return pos + 8;
    }

    /**
     * Decodes one frame of {@code n} deltas into {@code out[o, o+n)}, integrating from {@code
     * out[o-1]}; returns the position after the frame. Lets a caller (ALP) consume each frame while
     * it is still in L1.
     */
    static int frame(byte[] src, int pos, int end, long[] out, int o, int n) {
        long v = out[o - 1];
        if (pos <= end - 2 && src[pos] == 0 && src[pos + 1] == 0) {
            // all-zero frame: a constant run
            java.util.Arrays.fill(out, o, o + n, v);
            return pos + 2;
        }
        int w = src[pos] & 0xFF;
        if (n == PatchedPacking.FRAME && w < 64 && pos <= end - 2 - 16 * w && src[pos + 1] == 0) {
            // a whole frame without exceptions: unpack and integrate in one pass, width-specialised
            v = BitUnpack.unpackDelta64(w, src, pos + 2, out, o, v);
            BitUnpack.unpackDelta64(w, src, pos + 2 + 8 * w, out, o + 64, v);
            return pos + 2 + 16 * w;
        }
        pos = PatchedPacking.decodeFrame(src, pos, end, out, o, n);
        for (int i = o, e = o + n; i < e; i++) {
            v += Encodings.unzigzag(out[i]);
            out[i] = v;
        }
        return pos;
    }
}
