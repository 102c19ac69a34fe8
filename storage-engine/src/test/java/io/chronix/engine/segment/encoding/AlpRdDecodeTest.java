package io.chronix.engine.segment.encoding;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

/**
 * ALP-RD decoding against the format as documented (docs/format/segment.md), not against the
 * encoder: blocks are written here frame by frame with a chosen code width and right-part width
 * (values wider than a frame's width become its patched exceptions), so every width pair — those
 * the fused one-pass path takes and those left to the two-pass path — frame boundaries, short last
 * frames, both kinds of exceptions and the block's left-part exceptions are covered, and the
 * expected values come from {@code dict[code] << r | right}.
 */
class AlpRdDecodeTest {

    private static long seed(String test) {
        long seed = Long.getLong("chronix.test.seed", System.nanoTime());
        System.out.println(test + " seed=" + seed);
        return seed;
    }

    /** One block as the format defines it; {@link #write} lays it out with the chosen frame widths. */
    private static final class Block {
        final int leftBits;
        final int[] dict;
        final long[] codes;
        final long[] rights;
        final List<int[]> exceptions = new ArrayList<>(); // {row, left}
        int codeWidth;
        int rightWidth;
        /** Extra patched exceptions per frame, written after the natural ones: {frame, row in frame, high}. */
        final List<long[]> extraCodeExceptions = new ArrayList<>();
        final List<long[]> extraRightExceptions = new ArrayList<>();

        Block(int leftBits, int[] dict, int count) {
            this.leftBits = leftBits;
            this.dict = dict;
            codes = new long[count];
            rights = new long[count];
        }

        int shift() {
            return 64 - leftBits;
        }

        long[] expected() {
            long[] bits = new long[codes.length];
            for (int i = 0; i < bits.length; i++) {
                bits[i] = (long) dict[(int) codes[i]] << shift() | rights[i];
            }
            for (int[] e : exceptions) {
                bits[e[0]] = (long) e[1] << shift() | rights[e[0]];
            }
            return bits;
        }

        byte[] write() {
            BlockBuffer out = new BlockBuffer(64);
            out.putByte(leftBits);
            out.putByte(dict.length);
            for (int d : dict) {
                out.putByte(d);
                out.putByte(d >>> 8);
            }
            out.putInt(exceptions.size());
            for (int f = 0, frame = 0; f < codes.length; f += PatchedPacking.FRAME, frame++) {
                int n = Math.min(PatchedPacking.FRAME, codes.length - f);
                frame(out, codes, f, n, codeWidth, extras(extraCodeExceptions, frame));
                frame(out, rights, f, n, rightWidth, extras(extraRightExceptions, frame));
            }
            long[] rows = new long[exceptions.size()];
            for (int k = 0; k < rows.length; k++) {
                rows[k] = exceptions.get(k)[0];
            }
            DeltaZigzag.encode(rows, 0, rows.length, out, new long[Math.max(1, rows.length)], new int[65]);
            for (int[] e : exceptions) {
                out.putByte(e[1]);
                out.putByte(e[1] >>> 8);
            }
            return Arrays.copyOf(out.array(), out.size() + Encodings.PAD);
        }

        int length() {
            return write().length - Encodings.PAD;
        }

        private static List<long[]> extras(List<long[]> all, int frame) {
            List<long[]> mine = new ArrayList<>();
            for (long[] e : all) {
                if (e[0] == frame) {
                    mine.add(e);
                }
            }
            return mine;
        }
    }

    /** A patched-packing frame of {@code width} bits, written bit by bit: values wider than it are exceptions. */
    private static void frame(BlockBuffer out, long[] v, int from, int n, int width, List<long[]> extra) {
        List<long[]> exceptions = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (width < 64 && v[from + i] >>> width != 0) {
                exceptions.add(new long[] {i, v[from + i] >>> width});
            }
        }
        exceptions.addAll(extra.stream().map(e -> new long[] {e[1], e[2]}).toList());
        out.putByte(width);
        out.putByte(exceptions.size());
        byte[] packed = new byte[(n * width + 7) / 8];
        long bit = 0;
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < width; k++, bit++) {
                if ((v[from + i] >>> k & 1) != 0) {
                    packed[(int) (bit >>> 3)] |= (byte) (1 << (bit & 7));
                }
            }
        }
        out.putBytes(packed, 0, packed.length);
        for (long[] e : exceptions) {
            out.putByte((int) e[0]);
            out.putVarLong(e[1]);
        }
    }

    private static int codeBits(int size) {
        return 32 - Integer.numberOfLeadingZeros(size - 1);
    }

    /** A block of {@code count} values: codes mostly within {@code codeWidth} bits, rights mostly within {@code rightWidth}. */
    private static Block block(Random r, int leftBits, int size, int codeWidth, int rightWidth, int count) {
        int[] dict = new int[size];
        for (int k = 0; k < size; k++) {
            dict[k] = r.nextInt(1 << leftBits);
        }
        Block b = new Block(leftBits, dict, count);
        b.codeWidth = codeWidth;
        b.rightWidth = rightWidth;
        int shift = b.shift();
        long full = -1L >>> leftBits;
        long narrow = rightWidth == 0 ? 0 : -1L >>> (64 - rightWidth);
        int packedCodes = Math.min(size, 1 << codeWidth);
        for (int i = 0; i < count; i++) {
            // about one value in 16 needs an exception in its codes frame or its rights frame
            b.codes[i] = r.nextInt(16) == 0 ? r.nextInt(size) : r.nextInt(packedCodes);
            b.rights[i] = (r.nextInt(16) == 0 ? r.nextLong() & full : r.nextLong() & narrow);
            if (i % 37 == 5) {
                b.rights[i] = narrow;                 // every bit of the width set
            }
        }
        for (int i = r.nextInt(7); i < count; i += 1 + r.nextInt(90)) {
            b.exceptions.add(new int[] {i, r.nextInt(1 << leftBits)});
        }
        assert shift >= rightWidth;
        return b;
    }

    private static void assertDecodes(Block b, String what) {
        byte[] src = b.write();
        int len = src.length - Encodings.PAD;
        int n = b.codes.length;
        double[] out = new double[n + 1];
        out[n] = 12.5;
        assertThat(AlpRd.decode(src, 0, len, out, n, new long[n])).as("%s: position after the block", what).isEqualTo(len);
        long[] expected = b.expected();
        for (int i = 0; i < n; i++) {
            if (Double.doubleToRawLongBits(out[i]) != expected[i]) {
                fail(what + ": value " + i + " of " + n + " is " + Long.toHexString(Double.doubleToRawLongBits(out[i]))
                        + ", expected " + Long.toHexString(expected[i]));
            }
        }
        assertThat(out[n]).as("%s: nothing written past the values", what).isEqualTo(12.5);
    }

    @Test
    void everyCodeWidthAndRightWidthDecodesBitExactly() {
        Random r = new Random(seed("alpRdWidths"));
        int[] counts = {64, 128, 192, 256, 1, 63, 65, 129, 200, 3 * 128 + 17};
        int blocks = 0;
        for (int leftBits : new int[] {1, 6, 7, 11, 12, 16}) {
            int shift = 64 - leftBits;
            for (int size = 1; size <= AlpRd.MAX_DICTIONARY; size++) {
                for (int codeWidth = 0; codeWidth <= 3; codeWidth++) {
                    for (int rightWidth = 0; rightWidth <= shift; rightWidth++) {
                        int count = counts[r.nextInt(counts.length)];
                        Block b = block(r, leftBits, size, codeWidth, rightWidth, count);
                        assertDecodes(b, "left_bits " + leftBits + ", dict " + size + ", code width " + codeWidth + ", right width "
                                + rightWidth + ", " + count + " values");
                        blocks++;
                    }
                }
            }
        }
        assertThat(blocks).isGreaterThan(6 * 8 * 4 * 48);
    }

    @Test
    void everyCountAroundTheRunAndFrameBoundariesDecodes() {
        Random r = new Random(seed("alpRdCounts"));
        for (int count = 1; count <= 3 * PatchedPacking.FRAME + 70; count++) {
            int codeWidth = r.nextInt(4);
            int size = Math.max(1, Math.min(AlpRd.MAX_DICTIONARY, (1 << codeWidth) + r.nextInt(2) - 1));
            assertDecodes(block(r, 12, size, codeWidth, 50 + r.nextInt(3), count), count + " values");
        }
    }

    @Test
    void repeatedExceptionRowsAddTheirBitsInBothPaths() {
        // the patched packing ORs an exception's high bits into its value, so two for one row add up;
        // 128 values go through the fused path, 100 through the two-pass one
        for (int count : new int[] {128, 100}) {
            Random r = new Random(3);
            Block b = block(r, 12, 8, 1, 50, count);
            b.exceptions.clear();
            Arrays.fill(b.codes, 0);
            Arrays.fill(b.rights, 0);
            b.codes[7] = 1;
            b.extraCodeExceptions.add(new long[] {0, 7, 1});   // code 1 | 1 << 1 = 3
            b.extraCodeExceptions.add(new long[] {0, 7, 2});   // | 2 << 1 = 7
            b.extraRightExceptions.add(new long[] {0, 9, 1});  // right 1 << 50
            b.extraRightExceptions.add(new long[] {0, 9, 2});  // | 2 << 50
            long[] expected = b.expected();
            expected[7] = (long) b.dict[7] << 52;
            expected[9] = (long) b.dict[0] << 52 | 3L << 50;
            byte[] src = b.write();
            double[] out = new double[count];
            AlpRd.decode(src, 0, src.length - Encodings.PAD, out, count, new long[count]);
            for (int i = 0; i < count; i++) {
                assertThat(Double.doubleToRawLongBits(out[i])).as("%d values, value %d", count, i).isEqualTo(expected[i]);
            }
        }
    }

    @Test
    void impossibleCodesAndRightPartsAreRefusedInBothPaths() {
        for (int count : new int[] {128, 100}) {
            String path = count + " values";
            Random r = new Random(5);
            // a dictionary of 5 packs its codes in 3 bits, which can hold 5, 6 and 7
            Block packed = block(r, 12, 5, 3, 52, count);
            packed.codes[count - 1] = 6;
            assertRefused(packed, path, "code outside the dictionary");
            // a code exception taking a code of a dictionary of 4 to 4..7
            Block high = block(r, 12, 4, 2, 52, count);
            high.extraCodeExceptions.add(new long[] {0, 3, 1});
            assertRefused(high, path, "code outside the dictionary");
            // a code exception of 8 or more high bits, outside any dictionary
            Block huge = block(r, 12, 8, 3, 52, count);
            huge.extraCodeExceptions.add(new long[] {0, 3, 1L << 40});
            assertRefused(huge, path, "code outside the dictionary");
            // a right part's exception reaching the cut (right width = the cut: no room at all)
            Block right = block(r, 12, 8, 3, 52, count);
            right.extraRightExceptions.add(new long[] {0, 11, 1});
            assertRefused(right, path, "right part wider");
            // ... and one reaching it from below
            Block below = block(r, 12, 8, 3, 40, count);
            below.extraRightExceptions.add(new long[] {0, 11, 1L << 12});
            assertRefused(below, path, "right part wider");
            // an exception row past the frame
            Block row = block(r, 12, 8, 3, 52, count);
            row.extraRightExceptions.add(new long[] {0, count, 1});
            assertRefused(row, path, "index out of range");
            Block codeRow = block(r, 12, 8, 0, 52, count);
            codeRow.extraCodeExceptions.add(new long[] {0, 200, 1});
            assertRefused(codeRow, path, "index out of range");
            // a right width wider than the cut
            Block wide = block(r, 12, 8, 3, 52, count);
            wide.rightWidth = 53;
            wide.rights[0] = 1L << 52;
            assertRefused(wide, path, "right part wider");
            // at the edge of what is allowed: a right exception that fills the cut exactly is a value
            Block edge = block(r, 12, 8, 3, 40, count);
            edge.exceptions.clear();
            Arrays.fill(edge.rights, 0);
            edge.extraRightExceptions.add(new long[] {0, 11, (1L << 12) - 1});
            long[] expected = edge.expected();
            expected[11] |= ((1L << 12) - 1) << 40;
            byte[] src = edge.write();
            double[] out = new double[count];
            AlpRd.decode(src, 0, src.length - Encodings.PAD, out, count, new long[count]);
            assertThat(Double.doubleToRawLongBits(out[11])).as(path).isEqualTo(expected[11]);
        }
    }

    private static void assertRefused(Block b, String path, String reason) {
        byte[] src = b.write();
        int n = b.codes.length;
        var thrown = assertThatThrownBy(() -> AlpRd.decode(src, 0, src.length - Encodings.PAD, new double[n], n, new long[n]))
                .as(path).isInstanceOf(EncodingException.class);
        if (reason != null) {
            thrown.hasMessageContaining(reason);
        }
    }

    @Test
    void encoderOutputRoundTripsThroughBothPathsAndEveryCodeWidth() {
        Random r = new Random(seed("alpRdEncoder"));
        AlpRd.Encoder enc = new AlpRd.Encoder();
        BlockBuffer out = new BlockBuffer(16);
        Set<String> seen = new HashSet<>();
        int[] counts = {1, 63, 64, 65, 127, 128, 129, 191, 192, 193, 1000, 4096 + 37};
        for (int round = 0; round < 200; round++) {
            int count = counts[round % counts.length];
            double[] v = new double[count];
            int exponents = 1 + r.nextInt(12);
            double x = 50;
            for (int i = 0; i < count; i++) {
                v[i] = switch (round % 5) {
                    case 0 -> x = Math.min(100, Math.max(0, x + r.nextGaussian()));   // TSBS's full-precision walk
                    case 1 -> Math.scalb(1 + r.nextDouble(), r.nextInt(exponents)) * (r.nextInt(9) == 0 ? -1 : 1);
                    case 2 -> i % 200 < 100 ? 7.25 : Math.scalb(r.nextDouble(), -r.nextInt(exponents));  // runs of one value
                    case 3 -> r.nextInt(50) == 0 ? Double.longBitsToDouble(r.nextLong()) : 1e6 + r.nextDouble();
                    // 1, 2, 4 or 8 exponents under random mantissas: a dictionary of that many left parts, so every
                    // code width is reached whatever the seed (the other shapes reach width 1 only by chance)
                    default -> Math.scalb(1 + r.nextDouble(), r.nextInt(1 << (round / 5 % 4)));
                };
            }
            out.reset();
            enc.encode(v, 0, count, out);
            byte[] src = Arrays.copyOf(out.array(), out.size() + Encodings.PAD);
            double[] back = new double[count];
            assertThat(AlpRd.decode(src, 0, out.size(), back, count, new long[count])).isEqualTo(out.size());
            for (int i = 0; i < count; i++) {
                if (Double.doubleToRawLongBits(back[i]) != Double.doubleToRawLongBits(v[i])) {
                    fail("round " + round + ", value " + i + " of " + count + ": " + v[i] + " came back as " + back[i]);
                }
            }
            seen.addAll(frameKinds(src, out.size(), count));
        }
        // guard: the encoder's output exercised the fused path at every code width, and the two-pass path
        assertThat(seen).contains("fused, code width 0", "fused, code width 1", "fused, code width 2", "fused, code width 3",
                "two-pass");
    }

    /** Which path each frame of an encoded block takes, read from its frame headers. */
    private static Set<String> frameKinds(byte[] src, int end, int count) {
        Set<String> kinds = new HashSet<>();
        int leftBits = src[0] & 0xFF;
        int pos = 2 + 2 * (src[1] & 0xFF) + 4;
        long[] scratch = new long[PatchedPacking.FRAME];
        for (int f = 0; f < count; f += PatchedPacking.FRAME) {
            int n = Math.min(PatchedPacking.FRAME, count - f);
            int codeWidth = src[pos] & 0xFF;
            pos = PatchedPacking.decodeFrame(src, pos, end, scratch, 0, n);
            int rightWidth = src[pos] & 0xFF;
            pos = PatchedPacking.decodeFrame(src, pos, end, scratch, 0, n);
            boolean fused = n % 64 == 0 && codeWidth <= BitUnpack.RD_MAX_CODE_WIDTH && rightWidth >= BitUnpack.RD_MIN_WIDTH
                    && rightWidth <= 64 - leftBits;
            kinds.add(fused ? "fused, code width " + codeWidth : "two-pass");
        }
        return kinds;
    }
}
