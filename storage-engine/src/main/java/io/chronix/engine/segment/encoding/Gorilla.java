package io.chronix.engine.segment.encoding;

/**
 * Floats by XOR with the previous value (Pelkonen et al., "Gorilla: A Fast, Scalable, In-Memory
 * Time Series Database", VLDB 2015, §4.1.2). Bits are written LSB-first into little-endian words.
 *
 * <pre>
 * block   := first value's 64 bits | value* (n-1 of them)
 * value   := '0'                                   XOR is zero: same as previous
 *          | '1' '0' meaningful                    XOR fits the previous leading/trailing window
 *          | '1' '1' leading:5 length-1:6 meaningful   new window (leading capped at 31)
 * </pre>
 * ({@code '1' '0'} is read as the two-bit number 1, {@code '1' '1'} as 3.) The comparison is on
 * raw bits, so NaN payloads, -0.0 and infinities round-trip exactly.
 */
public final class Gorilla {

    private Gorilla() {
    }

    /** Upper bound of the encoded size of {@code count} values. */
    static int maxBytes(int count) {
        return count * 10 + 16;
    }

    public static void encode(double[] values, int from, int count, BlockBuffer out) {
        if (count == 0) {
            return;
        }
        out.ensure(maxBytes(count));
        int base = out.size();
        int at = base;
        long acc = 0;
        int filled = 0;
        long prev = Double.doubleToRawLongBits(values[from]);
        // first value: 64 raw bits
        out.rawLong(at, prev);
        at += 8;
        int prevLead = -1;
        int prevTrail = 0;
        for (int i = 1; i < count; i++) {
            long bits = Double.doubleToRawLongBits(values[from + i]);
            long x = bits ^ prev;
            prev = bits;
            long code;
            int len;
            if (x == 0) {
                code = 0;
                len = 1;
            } else {
                int lead = Math.min(31, Long.numberOfLeadingZeros(x));
                int trail = Long.numberOfTrailingZeros(x);
                if (prevLead >= 0 && lead >= prevLead && trail >= prevTrail) {
                    int m = 64 - prevLead - prevTrail;
                    // control '10' then m meaningful bits: up to 66 bits, written in two parts
                    acc |= 1L << filled;
                    filled += 2;
                    if (filled >= 64) {
                        out.rawLong(at, acc);
                        at += 8;
                        filled -= 64;
                        acc = filled == 0 ? 0 : 1L >>> (2 - filled);
                    }
                    code = x >>> prevTrail;
                    len = m;
                } else {
                    int m = 64 - lead - trail;
                    long header = 3L | ((long) lead << 2) | ((long) (m - 1) << 7);
                    // 13 header bits
                    acc |= header << filled;
                    int old = filled;
                    filled += 13;
                    if (filled >= 64) {
                        out.rawLong(at, acc);
                        at += 8;
                        filled -= 64;
                        acc = filled == 0 ? 0 : header >>> (64 - old);
                    }
                    prevLead = lead;
                    prevTrail = trail;
                    code = x >>> trail;
                    len = m;
                }
            }
            // append len (1..64) bits of code
            acc |= code << filled;
            int old = filled;
            filled += len;
            if (filled >= 64) {
                out.rawLong(at, acc);
                at += 8;
                filled -= 64;
                acc = filled == 0 ? 0 : code >>> (64 - old);
            }
        }
        if (filled > 0) {
            out.rawLong(at, acc);
            at += (filled + 7) >>> 3;
        }
        out.advance(at - base);
    }

    /** Decodes {@code count} values from {@code src[pos, end)}; returns the position after the data. */
    public static int decode(byte[] src, int pos, int end, double[] out, int count) {
        if (count == 0) {
            return pos;
        }
        Encodings.need(pos, 8, end, "first float");
        long prev = Encodings.getLong(src, pos);
        out[0] = Double.longBitsToDouble(prev);
        long bit = (long) (pos + 8) * 8;
        long limit = (long) end * 8;
        int lead = -1;
        int trail = 0;
        for (int i = 1; i < count; i++) {
            if (bit + 2 > limit && !(bit + 1 <= limit && peek(src, bit, 1) == 0)) {
                throw new EncodingException("gorilla stream ends early [value=" + i + "]");
            }
            long ctl = peek(src, bit, 2);
            if ((ctl & 1) == 0) {
                bit += 1;
                out[i] = Double.longBitsToDouble(prev);
                continue;
            }
            bit += 2;
            int m;
            if (ctl == 3) {
                if (bit + 11 > limit) {
                    throw new EncodingException("gorilla stream ends early [value=" + i + "]");
                }
                long h = peek(src, bit, 11);
                bit += 11;
                lead = (int) (h & 31);
                m = (int) (h >>> 5) + 1;
                trail = 64 - lead - m;
                if (trail < 0) {
                    throw new EncodingException("gorilla window out of range [leading=" + lead + ", length=" + m + "]");
                }
            } else {
                if (lead < 0) {
                    throw new EncodingException("gorilla reuses a window before defining one [value=" + i + "]");
                }
                m = 64 - lead - trail;
            }
            if (bit + m > limit) {
                throw new EncodingException("gorilla stream ends early [value=" + i + "]");
            }
            long x = m <= 56 ? peek(src, bit, m) : (peek(src, bit, 32) | (peek(src, bit + 32, m - 32) << 32));
            bit += m;
            prev ^= x << trail;
            out[i] = Double.longBitsToDouble(prev);
        }
        return (int) ((bit + 7) >>> 3);
    }

    /** {@code len} (1..56) bits at bit offset {@code bit}. */
    private static long peek(byte[] src, long bit, int len) {
        long word = Encodings.getLong(src, (int) (bit >>> 3)) >>> (bit & 7);
        return word & ((1L << len) - 1);
    }
}
