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
        Encodings.need(pos, 8, end, "first value");
        long v = Encodings.getLong(src, pos);
        pos += 8;
        out[outFrom] = v;
        for (int f = 1; f < count; f += PatchedPacking.FRAME) {
            int n = Math.min(PatchedPacking.FRAME, count - f);
            if (pos <= end - 2 && src[pos] == 0 && src[pos + 1] == 0) {
                // all-zero frame: a constant run
                pos += 2;
                java.util.Arrays.fill(out, outFrom + f, outFrom + f + n, v);
                continue;
            }
            int w = src[pos] & 0xFF;
            if (pos <= end - 2 && src[pos + 1] == 0 && w <= 56) {
                // no exceptions: unpack and integrate in one pass
                int base = pos + 2;
                int bytes = (n * w + 7) >>> 3;
                Encodings.need(base, bytes, end, "packed frame");
                long mask = (1L << w) - 1;
                long bit = 0;
                for (int i = outFrom + f, e = outFrom + f + n; i < e; i++, bit += w) {
                    long z = (Encodings.getLong(src, base + (int) (bit >>> 3)) >>> (bit & 7)) & mask;
                    v += Encodings.unzigzag(z);
                    out[i] = v;
                }
                pos = base + bytes;
                continue;
            }
            pos = PatchedPacking.decodeFrame(src, pos, end, out, outFrom + f, n);
            for (int i = outFrom + f, e = outFrom + f + n; i < e; i++) {
                v += Encodings.unzigzag(out[i]);
                out[i] = v;
            }
        }
        return pos;
    }
}
