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
        long[] codes = new long[PatchedPacking.FRAME];
        for (int f = 0; f < count; f += PatchedPacking.FRAME) {
            int n = Math.min(PatchedPacking.FRAME, count - f);
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
