package io.chronix.engine.segment.encoding;

/**
 * Patched frame-of-reference bit packing of unsigned 64-bit values, the back end of every integer
 * encoding here (after a delta and zigzag step has made the values small).
 *
 * <h2>Design</h2>
 * Values go in frames of {@value #FRAME} (the last may be shorter). Each frame picks the bit width
 * {@code w} that minimises its size when the few values wider than {@code w} are stored aside as
 * exceptions (PFOR, Zukowski et al., "Super-Scalar RAM-CPU Cache Compression", ICDE 2006): the
 * frame keeps their low {@code w} bits, and each exception adds its index and the high bits. A
 * series boundary inside a segment — one huge delta among thousands of tiny ones — thus costs a
 * few bytes instead of widening the whole frame to 64 bits. A frame of all-zero values (a regular
 * timestamp interval after delta-of-delta) is two bytes.
 *
 * <pre>
 * frame := width u8 (0..64) | exceptions u8 | packed: ceil(count*width/8) bytes, LSB first | exception*
 * exception := index u8 | high bits (value >>> width) as unsigned LEB128
 * </pre>
 *
 * Decoding unpacks each run of 64 values with {@link BitUnpack}'s straight-line code for its
 * width (a frame of 128 is two runs); only a short last frame's tail takes the generic loop, which
 * reads 8 bytes at a time and so may touch up to {@link Encodings#PAD} bytes past {@code end}. It
 * validates every width, count and index against the block and throws {@link EncodingException}
 * on anything impossible.
 */
public final class PatchedPacking {

    public static final int FRAME = 128;

    private PatchedPacking() {
    }

    /** Appends {@code values[from, from+count)} (unsigned) as frames. {@code scratch} is per-caller state. */
    public static void encode(long[] values, int from, int count, BlockBuffer out, int[] histogram) {
        for (int f = 0; f < count; f += FRAME) {
            encodeFrame(values, from + f, Math.min(FRAME, count - f), out, histogram);
        }
    }

    private static void encodeFrame(long[] v, int from, int n, BlockBuffer out, int[] hist) {
        java.util.Arrays.fill(hist, 0, 65, 0);
        int maxBits = 0;
        for (int i = 0; i < n; i++) {
            int b = 64 - Long.numberOfLeadingZeros(v[from + i]);
            hist[b]++;
            if (b > maxBits) {
                maxBits = b;
            }
        }
        int bestW = maxBits;
        long bestCost = (long) n * maxBits;
        // cost in bits of width w: n*w packed + per exception 8 (index) + 8 per 7 high bits
        for (int w = maxBits - 1; w >= 0; w--) {
            long cost = (long) n * w;
            int exceptions = 0;
            for (int b = w + 1; b <= maxBits; b++) {
                if (hist[b] != 0) {
                    exceptions += hist[b];
                    cost += (long) hist[b] * (8 + 8L * ((b - w + 6) / 7));
                }
            }
            if (exceptions > 255 || cost >= bestCost + (long) n) {
                // widths only get costlier once exceptions dominate; stop early
                if (exceptions > 255) {
                    break;
                }
                continue;
            }
            if (cost < bestCost) {
                bestCost = cost;
                bestW = w;
            }
        }
        int w = bestW;
        int exceptions = 0;
        for (int b = w + 1; b <= maxBits; b++) {
            exceptions += hist[b];
        }
        out.putByte(w);
        out.putByte(exceptions);
        int bytes = (n * w + 7) >>> 3;
        out.ensure(bytes + 8);
        if (w > 0) {
            byte[] buf = out.array();
            int base = out.size();
            long mask = w == 64 ? -1L : (1L << w) - 1;
            long acc = 0;
            int filled = 0;
            int at = base;
            for (int i = 0; i < n; i++) {
                long x = v[from + i] & mask;
                acc |= x << filled;
                filled += w;
                if (filled >= 64) {
                    out.rawLong(at, acc);
                    at += 8;
                    filled -= 64;
                    acc = filled == 0 ? 0 : x >>> (w - filled);
                }
            }
            if (filled > 0) {
                out.rawLong(at, acc);
            }
            out.advance(bytes);
        }
        if (exceptions > 0) {
            for (int i = 0; i < n; i++) {
                long x = v[from + i];
                if (64 - Long.numberOfLeadingZeros(x) > w) {
                    out.putByte(i);
                    out.putVarLong(x >>> w);
                }
            }
        }
    }

    /**
     * Decodes {@code count} values from {@code src[pos, end)} into {@code out[outFrom...]}.
     *
     * @return the position after the last frame
     */
    public static int decode(byte[] src, int pos, int end, long[] out, int outFrom, int count) {
        for (int f = 0; f < count; f += FRAME) {
            pos = decodeFrame(src, pos, end, out, outFrom + f, Math.min(FRAME, count - f));
        }
        return pos;
    }

    static int decodeFrame(byte[] src, int pos, int end, long[] out, int o, int n) {
        Encodings.need(pos, 2, end, "frame header");
        int w = src[pos] & 0xFF;
        int exceptions = src[pos + 1] & 0xFF;
        pos += 2;
        if (w > 64 || exceptions > n) {
            throw new EncodingException("bad frame header [width=" + w + ", exceptions=" + exceptions + "]");
        }
        int bytes = (n * w + 7) >>> 3;
        Encodings.need(pos, bytes, end, "packed frame");
        unpack(src, pos, w, out, o, n);
        pos += bytes;
        for (int e = 0; e < exceptions; e++) {
            int idx = exceptionRow(src, pos++, end, n);
            long high = exceptionValue(src, pos, end);
            pos = afterExceptionValue(src, pos);
            if (w == 64 || (w > 0 && (high >>> (64 - w)) != 0)) {
                throw new EncodingException("frame exception value overflows 64 bits");
            }
            out[o + idx] |= high << w;
        }
        return pos;
    }

    /** A frame exception's row byte at {@code at}, checked against the frame length {@code n}. */
    static int exceptionRow(byte[] src, int at, int end, int n) {
        Encodings.need(at, 1, end, "frame exception");
        int row = src[at] & 0xFF;
        if (row >= n) {
            throw new EncodingException("frame exception index out of range [index=" + row + ", count=" + n + "]");
        }
        return row;
    }

    /** A frame exception's high bits at {@code at}: unsigned LEB128 of at most 64 bits, checked. */
    static long exceptionValue(byte[] src, int at, int end) {
        long value = 0;
        for (int shift = 0; ; shift += 7) {
            Encodings.need(at, 1, end, "frame exception value");
            int b = src[at++];
            if (shift == 63 && (b & 0x7E) != 0 || shift > 63) {
                throw new EncodingException("frame exception value overflows 64 bits");
            }
            value |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                return value;
            }
        }
    }

    /** The position after the exception value at {@code at}, once {@link #exceptionValue} has read it. */
    static int afterExceptionValue(byte[] src, int at) {
        while (src[at++] < 0) {
            // continuation bytes, already checked
        }
        return at;
    }

    private static void unpack(byte[] src, int pos, int w, long[] out, int o, int n) {
        if (w == 0) {
            java.util.Arrays.fill(out, o, o + n, 0L);
            return;
        }
        if (w == 64) {
            for (int i = 0; i < n; i++) {
                out[o + i] = Encodings.getLong(src, pos + 8 * i);
            }
            return;
        }
        // whole runs of 64 values are 8·w bytes each: the width-specialised straight-line code
        int whole = n & ~63;
        for (int i = 0; i < whole; i += 64) {
            BitUnpack.unpack64(w, src, pos + i / 8 * w, out, o + i);
        }
        if (whole == n) {
            return;
        }
        // the tail of a short last frame: generic, 8-byte loads (PAD covers the overhang)
        long mask = (1L << w) - 1;
        long bit = (long) whole * w;
        if (w <= 56) {
            for (int i = whole; i < n; i++, bit += w) {
                int at = pos + (int) (bit >>> 3);
                out[o + i] = (Encodings.getLong(src, at) >>> (bit & 7)) & mask;
            }
            return;
        }
        for (int i = whole; i < n; i++, bit += w) {
            int at = pos + (int) (bit >>> 3);
            int sh = (int) (bit & 7);
            long word = Encodings.getLong(src, at) >>> sh;
            if (sh + w > 64) {
                word |= (src[at + 8] & 0xFFL) << (64 - sh);
            }
            out[o + i] = word & mask;
        }
    }
}
