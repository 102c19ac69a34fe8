package io.chronix.engine.segment.encoding;

/**
 * Timestamps: delta-of-delta (Pelkonen et al., "Gorilla", VLDB 2015, §4.1.1), with the second
 * differences zigzagged and {@link PatchedPacking patched-bit-packed} rather than written with
 * Gorilla's variable-length control codes — same idea, but a regular interval becomes all-zero
 * frames of two bytes per 128 values, and decoding is word loads and adds instead of a bit-by-bit
 * branchy parse, which is what lets it run at memory speed.
 *
 * <pre>
 * block := first value i64 LE | frames of zigzag(dod[1..n)), where dod[i] = (t[i]-t[i-1]) - (t[i-1]-t[i-2]), t[-1] = t[0]
 * </pre>
 * All arithmetic wraps (mod 2^64), so any sequence of longs round-trips, Long.MIN_VALUE to MAX_VALUE.
 *
 * <p>Stateless; the caller supplies the scratch arrays.
 */
public final class DeltaOfDelta {

    private DeltaOfDelta() {
    }

    /** @param scratch at least {@code count} longs; {@code histogram} at least 65 ints */
    public static void encode(long[] values, int from, int count, BlockBuffer out, long[] scratch, int[] histogram) {
        if (count == 0) {
            return;
        }
        out.putLong(values[from]);
        long prev = values[from];
        long prevDelta = 0;
        for (int i = 1; i < count; i++) {
            long v = values[from + i];
            long delta = v - prev;
            scratch[i - 1] = Encodings.zigzag(delta - prevDelta);
            prevDelta = delta;
            prev = v;
        }
        PatchedPacking.encode(scratch, 0, count - 1, out, histogram);
    }

    /**
     * Decodes {@code count} values from {@code src[pos, end)} into {@code out[0, count)}.
     *
     * @return the position after the block's data
     */
    public static int decode(byte[] src, int pos, int end, long[] out, int count) {
        if (count == 0) {
            return pos;
        }
        Encodings.need(pos, 8, end, "first timestamp");
        long t = Encodings.getLong(src, pos);
        pos += 8;
        out[0] = t;
        long delta = 0;
        for (int f = 1; f < count; f += PatchedPacking.FRAME) {
            int n = Math.min(PatchedPacking.FRAME, count - f);
            if (pos <= end - 2 && src[pos] == 0 && src[pos + 1] == 0) {
                // all-zero frame (a regular interval): no unpacking, one add per value
                pos += 2;
                for (int i = f, e = f + n; i < e; i++) {
                    t += delta;
                    out[i] = t;
                }
                continue;
            }
            pos = PatchedPacking.decodeFrame(src, pos, end, out, f, n);
            for (int i = f, e = f + n; i < e; i++) {
                delta += Encodings.unzigzag(out[i]);
                t += delta;
                out[i] = t;
            }
        }
        return pos;
    }
}
