package io.chronix.engine.segment.encoding;

import java.util.Arrays;

/**
 * Full-precision floats by ALP-RD, the "real doubles" mode of ALP (Afroozeh, Kuffó, Boncz, SIGMOD
 * 2024, §3.4): split each value's 64 bits at a cut {@code r} into a left part (the top {@code 64 − r}
 * bits: sign, exponent and the first mantissa bits, which take few distinct values in a block) and
 * a right part (the low {@code r} bits, close to noise). The left parts are dictionary-encoded with
 * at most {@value #MAX_DICTIONARY} entries; the right parts are bit-packed. A left part outside the
 * dictionary is an exception, stored aside with its row. The cut and the dictionary are chosen on a
 * sample of the block by estimated size.
 *
 * <pre>
 * block     := left_bits u8 (1..16) | dict_size u8 (1..8) | entry u16 LE × dict_size | exceptions u32 LE
 *              | frame* | DeltaZigzag(exception rows) | exception left part u16 LE × exceptions
 * frame     := codes: one PatchedPacking frame | right parts: one PatchedPacking frame   (128 rows, the last may be shorter)
 * value     := dict[code] &lt;&lt; (64 − left_bits) | right          (an exception row: its stored left part instead)
 * </pre>
 * Codes and right parts alternate frame by frame so a decoder combines each frame while both halves
 * are in L1. An exception's code is 0. Bits are taken raw, so NaN payloads, −0.0, ±Inf and
 * subnormals round-trip exactly. Differences from the paper: the dictionary may be smaller than 8
 * (the code width follows it), and codes and right parts go through the same patched packing as
 * every integer here, so a run of one code costs two bytes per frame.
 *
 * <p>Decoding takes a frame in one pass when it can: for a frame of 64 or 128 rows with codes of at
 * most 3 bits and right parts of 32 bits up to the cut (every frame the encoder writes for
 * full-precision data), each 64-row run goes from the packed bytes straight to the {@code double[]}
 * through {@link BitUnpack#unpackRd64} (one load, shift and mask per right part, one masked
 * dictionary look-up per code, no intermediate array), and the frame's few patched exceptions are
 * then ORed in. Any other frame (a short last frame, narrower right parts, a hostile header) takes
 * the two-pass path: both halves unpacked into {@code long[]}s, checked, combined. Both accept the
 * same bytes and give the same bits.
 */
public final class AlpRd {

    static final int MAX_LEFT_BITS = 16;
    static final int MAX_DICTIONARY = 8;
    /** Values sampled (evenly spread) to choose the cut and the dictionary. */
    private static final int SAMPLE = 2048;
    /** Estimated cost of an exception in bits: its left part and its row's delta. */
    private static final int EXCEPTION_BITS = 16 + 16;

    private AlpRd() {
    }

    /** Reusable encoder state (scratch arrays sized to the largest block seen). Not thread-safe. */
    public static final class Encoder {
        private final int[] counts = new int[1 << MAX_LEFT_BITS];
        private final byte[] codeOf = new byte[1 << MAX_LEFT_BITS];
        private final int[] touched = new int[SAMPLE];
        private final int[] histogram = new int[65];
        private final int[] bestEntries = new int[MAX_DICTIONARY];
        private final int[] entries = new int[MAX_DICTIONARY];
        private long[] codes = new long[PatchedPacking.FRAME];
        private long[] rights = new long[PatchedPacking.FRAME];
        private long[] positions = new long[1024];
        private long[] lefts = new long[1024];
        private long[] scratch = new long[1024];

        public Encoder() {
            Arrays.fill(codeOf, (byte) -1);
        }

        /**
         * Appends the block to {@code out}.
         *
         * @return false (nothing written) for an empty block
         */
        public boolean encode(double[] values, int from, int count, BlockBuffer out) {
            if (count == 0) {
                return false;
            }
            int step = (count + SAMPLE - 1) / SAMPLE; // at most SAMPLE values
            int bestLeft = MAX_LEFT_BITS;
            int bestSize = 1;
            long bestCost = Long.MAX_VALUE;
            for (int lw = 1; lw <= MAX_LEFT_BITS; lw++) {
                int shift = 64 - lw;
                int distinct = 0;
                int sampled = 0;
                for (int i = 0; i < count; i += step) {
                    int left = (int) (Double.doubleToRawLongBits(values[from + i]) >>> shift);
                    if (counts[left]++ == 0) {
                        touched[distinct++] = left;
                    }
                    sampled++;
                }
                int top = topEntries(distinct);
                long covered = 0;
                for (int k = 1; k <= top; k++) {
                    covered += counts[entries[k - 1]];
                    if (k != top && Integer.bitCount(k) != 1) {
                        continue; // a dictionary of k entries costs as many code bits as the next power of two
                    }
                    long cost = (long) sampled * (shift + codeBits(k)) + (sampled - covered) * EXCEPTION_BITS;
                    if (cost < bestCost) {
                        bestCost = cost;
                        bestLeft = lw;
                        bestSize = k;
                        System.arraycopy(entries, 0, bestEntries, 0, k);
                    }
                }
                for (int t = 0; t < distinct; t++) {
                    counts[touched[t]] = 0;
                }
            }
            write(values, from, count, out, bestLeft, bestSize);
            return true;
        }

        /** Sorts the (at most 8) most frequent of the {@code distinct} touched left parts into {@code entries}. */
        private int topEntries(int distinct) {
            int top = 0;
            for (int t = 0; t < distinct; t++) {
                int left = touched[t];
                int c = counts[left];
                int at = top < MAX_DICTIONARY ? top++ : MAX_DICTIONARY;
                while (at > 0 && counts[entries[at - 1]] < c) {
                    if (at < MAX_DICTIONARY) {
                        entries[at] = entries[at - 1];
                    }
                    at--;
                }
                if (at < MAX_DICTIONARY) {
                    entries[at] = left;
                }
            }
            return top;
        }

        private void write(double[] values, int from, int count, BlockBuffer out, int leftBits, int size) {
            int shift = 64 - leftBits;
            long rightMask = -1L >>> leftBits;
            for (int k = 0; k < size; k++) {
                codeOf[bestEntries[k]] = (byte) k;
            }
            if (positions.length < count) {
                positions = new long[count];
                lefts = new long[count];
                scratch = new long[count];
            }
            out.putByte(leftBits);
            out.putByte(size);
            for (int k = 0; k < size; k++) {
                out.putByte(bestEntries[k]);
                out.putByte(bestEntries[k] >>> 8);
            }
            int countAt = out.size();
            out.putInt(0);
            int exceptions = 0;
            for (int f = 0; f < count; f += PatchedPacking.FRAME) {
                int n = Math.min(PatchedPacking.FRAME, count - f);
                for (int i = 0; i < n; i++) {
                    long bits = Double.doubleToRawLongBits(values[from + f + i]);
                    int left = (int) (bits >>> shift);
                    int code = codeOf[left];
                    if (code < 0) {
                        positions[exceptions] = f + i;
                        lefts[exceptions++] = left;
                        code = 0;
                    }
                    codes[i] = code;
                    rights[i] = bits & rightMask;
                }
                PatchedPacking.encode(codes, 0, n, out, histogram);
                PatchedPacking.encode(rights, 0, n, out, histogram);
            }
            for (int k = 0; k < size; k++) {
                codeOf[bestEntries[k]] = -1;
            }
            out.setInt(countAt, exceptions);
            DeltaZigzag.encode(positions, 0, exceptions, out, scratch, histogram);
            for (int k = 0; k < exceptions; k++) {
                out.putByte((int) lefts[k]);
                out.putByte((int) (lefts[k] >>> 8));
            }
        }
    }

    private static void check(long[] codes, long[] rights, int f, int n, int size, int shift) {
        for (int i = 0; i < n; i++) {
            if (codes[i] < 0 || codes[i] >= size) {
                throw new EncodingException("alp-rd code outside the dictionary [code=" + codes[i] + ", dict_size=" + size + "]");
            }
            if (rights[f + i] >>> shift != 0) {
                throw new EncodingException("alp-rd right part wider than " + shift + " bits");
            }
        }
    }

    /**
     * Per-decode scratch (a decode that throws drops it): the codes of the two-pass path, and a fused
     * frame's code exceptions, cleared after each frame.
     */
    private static final class FrameScratch {
        long[] codes;
        final int[] exceptionRows = new int[PatchedPacking.FRAME];
        /** Per row of the frame: the code bits above the packed width its exceptions add (OR-ed, as the packing does). */
        final int[] exceptionHigh = new int[PatchedPacking.FRAME];
    }

    /**
     * The frame in one pass from the packed bytes to {@code out}: when its length is a multiple of
     * 64, its codes are at most {@link BitUnpack#RD_MAX_CODE_WIDTH} bits and its right parts
     * {@link BitUnpack#RD_MIN_WIDTH}..{@code shift} bits (every frame the encoder writes but runs of
     * repeated low parts), each 64-value run goes through {@link BitUnpack#unpackRd64}; the two
     * frames' exceptions are then patched into the values. It accepts exactly what the two-pass path
     * accepts, with the same values.
     *
     * @return the position after the frame, or −1 (nothing written) when the frame is not of that kind
     */
    private static int decodeFused(byte[] src, int pos, int end, double[] out, int f, int n, long[] dict, int size, int shift,
                                   FrameScratch scratch) {
        Encodings.need(pos, 2, end, "frame header");
        int codeWidth = src[pos] & 0xFF;
        int codeExceptions = src[pos + 1] & 0xFF;
        if (codeWidth > BitUnpack.RD_MAX_CODE_WIDTH) {
            return -1;
        }
        if (codeExceptions > n) {
            throw badFrameHeader(codeWidth, codeExceptions);
        }
        int codesAt = pos + 2;
        Encodings.need(codesAt, n * codeWidth >>> 3, end, "packed frame");
        int at = codesAt + (n * codeWidth >>> 3);
        int[] rows = scratch.exceptionRows;
        int[] high = scratch.exceptionHigh;
        for (int e = 0; e < codeExceptions; e++) {
            int row = PatchedPacking.exceptionRow(src, at++, end, n);
            long codeHigh = PatchedPacking.exceptionValue(src, at, end);
            at = PatchedPacking.afterExceptionValue(src, at);
            if (codeHigh >>> 3 != 0) {
                // 8 and above is outside any dictionary, whatever the low bits
                throw new EncodingException("alp-rd code outside the dictionary [code>=8, dict_size=" + size + "]");
            }
            rows[e] = row;
            high[row] |= (int) codeHigh << codeWidth;
        }
        Encodings.need(at, 2, end, "frame header");
        int rightWidth = src[at] & 0xFF;
        int rightExceptions = src[at + 1] & 0xFF;
        if (rightWidth < BitUnpack.RD_MIN_WIDTH || rightWidth > shift) {
            clear(rows, high, codeExceptions);
            return -1;
        }
        if (rightExceptions > n) {
            throw badFrameHeader(rightWidth, rightExceptions);
        }
        int rightsAt = at + 2;
        Encodings.need(rightsAt, n * rightWidth >>> 3, end, "packed frame");
        at = rightsAt + (n * rightWidth >>> 3);
        if (codeWidth > 0 && (1 << codeWidth) > size) {
            // a width that can hold a code outside the dictionary (a dictionary of 3, 5, 6 or 7)
            for (int i = 0; i < n; i++) {
                int code = code(src, codesAt, codeWidth, i);
                if (code >= size) {
                    throw codeOutside(code, size);
                }
            }
        }
        for (int r = 0; r < n; r += 64) {
            BitUnpack.unpackRd64(codeWidth, rightWidth, src, rightsAt + (r >>> 3) * rightWidth, codesAt + (r >>> 3) * codeWidth,
                    out, f + r, dict);
        }
        // a right part's high bits must stay below the cut (which also keeps them within 64 bits)
        int room = shift - rightWidth;
        for (int e = 0; e < rightExceptions; e++) {
            int row = PatchedPacking.exceptionRow(src, at++, end, n);
            long rightHigh = PatchedPacking.exceptionValue(src, at, end);
            at = PatchedPacking.afterExceptionValue(src, at);
            if (rightHigh >>> room != 0) {
                throw new EncodingException("alp-rd right part wider than " + shift + " bits");
            }
            out[f + row] = Double.longBitsToDouble(Double.doubleToRawLongBits(out[f + row]) | rightHigh << rightWidth);
        }
        long rightMask = -1L >>> (64 - shift);
        for (int e = 0; e < codeExceptions; e++) {
            int row = rows[e];
            int code = code(src, codesAt, codeWidth, row) | high[row];
            if (code >= size) {
                throw codeOutside(code, size);
            }
            out[f + row] = Double.longBitsToDouble(dict[code] | Double.doubleToRawLongBits(out[f + row]) & rightMask);
        }
        clear(rows, high, codeExceptions);
        return at;
    }

    /** Code {@code i} of a packed codes frame of {@code width} (0..3) bits: at most 10 bits from one 8-byte load. */
    private static int code(byte[] src, int codesAt, int width, int i) {
        if (width == 0) {
            return 0;
        }
        int bit = i * width;
        return (int) (Encodings.getLong(src, codesAt + (bit >>> 3)) >>> (bit & 7)) & ((1 << width) - 1);
    }

    /** Resets the high code bits of the rows of a frame's {@code exceptions} code exceptions, for the next frame. */
    private static void clear(int[] rows, int[] high, int exceptions) {
        for (int e = 0; e < exceptions; e++) {
            high[rows[e]] = 0;
        }
    }

    private static EncodingException badFrameHeader(int width, int exceptions) {
        return new EncodingException("bad frame header [width=" + width + ", exceptions=" + exceptions + "]");
    }

    private static EncodingException codeOutside(int code, int size) {
        return new EncodingException("alp-rd code outside the dictionary [code=" + code + ", dict_size=" + size + "]");
    }

    /**
     * Any frame: codes and right parts unpacked into arrays by {@link PatchedPacking}, checked when
     * their headers allow a value outside the block's ranges, then combined.
     */
    private static int decodeTwoPass(byte[] src, int pos, int end, double[] out, int f, int n, long[] dict, int size, int shift,
                                     long[] ints, FrameScratch scratch) {
        long[] codes = scratch.codes;
        if (codes == null) {
            codes = scratch.codes = new long[PatchedPacking.FRAME];
        }
        // a frame without exceptions whose width cannot hold a bad value needs no per-value check
        // (pos < end here, and every buffer has PAD bytes past end, so peeking the header is safe)
        int codeWidth = src[pos] & 0xFF;
        boolean codesFit = src[pos + 1] == 0 && codeWidth < 4 && (1 << codeWidth) <= size;
        pos = PatchedPacking.decodeFrame(src, pos, end, codes, 0, n);
        boolean rightsFit = src[pos + 1] == 0 && (src[pos] & 0xFF) <= shift;
        pos = PatchedPacking.decodeFrame(src, pos, end, ints, f, n);
        if (!codesFit || !rightsFit) {
            check(codes, ints, f, n, size, shift);
        }
        for (int i = 0; i < n; i++) {
            out[f + i] = Double.longBitsToDouble(dict[(int) codes[i] & (MAX_DICTIONARY - 1)] | ints[f + i]);
        }
        return pos;
    }

    private static int codeBits(int dictionarySize) {
        return 32 - Integer.numberOfLeadingZeros(dictionarySize - 1);
    }

    /**
     * Decodes {@code count} values; {@code ints} is scratch of at least {@code count} longs.
     *
     * @return the position after the data
     */
    public static int decode(byte[] src, int pos, int end, double[] out, int count, long[] ints) {
        if (count == 0) {
            return pos;
        }
        Encodings.need(pos, 2, end, "alp-rd header");
        int leftBits = src[pos] & 0xFF;
        int size = src[pos + 1] & 0xFF;
        pos += 2;
        if (leftBits < 1 || leftBits > MAX_LEFT_BITS || size < 1 || size > MAX_DICTIONARY) {
            throw new EncodingException("bad alp-rd header [left_bits=" + leftBits + ", dict_size=" + size + "]");
        }
        int shift = 64 - leftBits;
        Encodings.need(pos, 2 * size + 4, end, "alp-rd dictionary");
        // eight slots whatever the size: a code is masked into range before the frame check has run
        long[] dict = new long[MAX_DICTIONARY];
        for (int k = 0; k < size; k++) {
            long left = (src[pos] & 0xFF) | (src[pos + 1] & 0xFF) << 8;
            pos += 2;
            if (left >>> leftBits != 0) {
                throw new EncodingException("alp-rd dictionary entry wider than the left part [entry=" + left + "]");
            }
            dict[k] = left << shift;
        }
        int exceptions = Encodings.getInt(src, pos);
        pos += 4;
        if (exceptions < 0 || exceptions > count) {
            throw new EncodingException("bad alp-rd exception count [exceptions=" + exceptions + "]");
        }
        FrameScratch scratch = new FrameScratch();
        for (int f = 0; f < count; f += PatchedPacking.FRAME) {
            int n = Math.min(PatchedPacking.FRAME, count - f);
            int next = (n & 63) == 0 ? decodeFused(src, pos, end, out, f, n, dict, size, shift, scratch) : -1;
            pos = next >= 0 ? next : decodeTwoPass(src, pos, end, out, f, n, dict, size, shift, ints, scratch);
        }
        if (exceptions > 0) {
            pos = DeltaZigzag.decode(src, pos, end, ints, 0, exceptions);
            Encodings.need(pos, 2 * exceptions, end, "alp-rd exceptions");
            long rightMask = -1L >>> leftBits;
            for (int k = 0; k < exceptions; k++) {
                long p = ints[k];
                if (p < 0 || p >= count) {
                    throw new EncodingException("alp-rd exception position out of range [position=" + p + "]");
                }
                long left = (src[pos] & 0xFF) | (src[pos + 1] & 0xFF) << 8;
                pos += 2;
                if (left >>> leftBits != 0) {
                    throw new EncodingException("alp-rd exception wider than the left part [left=" + left + "]");
                }
                long right = Double.doubleToRawLongBits(out[(int) p]) & rightMask;
                out[(int) p] = Double.longBitsToDouble(left << shift | right);
            }
        }
        return pos;
    }
}
