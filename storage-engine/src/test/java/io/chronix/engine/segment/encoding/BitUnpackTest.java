package io.chronix.engine.segment.encoding;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BitUnpackTest {

    @Test
    void checkedInSourceIsWhatTheGeneratorWrites() throws IOException {
        String onDisk = Files.readString(Path.of(BitUnpackGenerator.FILE), StandardCharsets.UTF_8);
        assertThat(onDisk).as("BitUnpack.java was edited by hand or the generator changed: rerun BitUnpackGenerator")
                .isEqualTo(BitUnpackGenerator.generate());
    }

    @Test
    void everyWidthUnpacksWhatAPlainBitStreamHolds() {
        Random r = new Random(Long.getLong("chronix.test.seed", 4L));
        for (int w = 1; w < 64; w++) {
            for (int round = 0; round < 20; round++) {
                long[] values = new long[64];
                long mask = (1L << w) - 1;
                for (int i = 0; i < 64; i++) {
                    values[i] = switch (round % 4) {
                        case 0 -> mask;             // every bit set: catches a missing mask or word
                        case 1 -> 1L << (i % w);    // one bit: catches a wrong shift
                        default -> r.nextLong() & mask;
                    };
                }
                byte[] packed = pack(values, w);
                long[] out = new long[64 + 3];
                out[0] = 0x5A5A;
                out[66] = 0x5A5A;
                BitUnpack.unpack64(w, packed, 5, out, 1);
                assertThat(out[0]).isEqualTo(0x5A5A);
                assertThat(out[66]).as("writes past the 64 values").isEqualTo(0x5A5A);
                for (int i = 0; i < 64; i++) {
                    assertThat(out[1 + i]).as("width %d value %d", w, i).isEqualTo(values[i]);
                }
            }
        }
    }

    @Test
    void everyWidthIntegratesZigzagDeltasAsTheReferenceDoes() {
        Random r = new Random(Long.getLong("chronix.test.seed", 5L));
        for (int w = 1; w < 64; w++) {
            for (int round = 0; round < 20; round++) {
                long[] zigzags = new long[64];
                long mask = (1L << w) - 1;
                for (int i = 0; i < 64; i++) {
                    zigzags[i] = switch (round % 4) {
                        case 0 -> mask;                       // the most negative delta of this width
                        case 1 -> mask - 1;                   // the most positive one
                        default -> r.nextLong() & mask;
                    };
                }
                byte[] packed = pack(zigzags, w);
                long start = r.nextLong();
                long[] expected = new long[64];
                long v = start;
                for (int i = 0; i < 64; i++) {
                    v += Encodings.unzigzag(zigzags[i]);
                    expected[i] = v;
                }
                long[] longs = new long[65];
                double[] doubles = new double[65];
                assertThat(BitUnpack.unpackDelta64(w, packed, 5, longs, 1, start)).isEqualTo(v);
                assertThat(BitUnpack.unpackDeltaToDouble64(w, packed, 5, doubles, 1, start)).isEqualTo(v);
                for (int i = 0; i < 64; i++) {
                    assertThat(longs[1 + i]).as("width %d value %d", w, i).isEqualTo(expected[i]);
                    assertThat(doubles[1 + i]).as("width %d value %d", w, i).isEqualTo((double) expected[i]);
                }
                assertThat(longs[0]).isZero();
                assertThat(doubles[0]).isZero();
            }
        }
    }

    @Test
    void everyAlpRdWidthPairCombinesCodesAndRightPartsAsTheReferenceDoes() {
        Random r = new Random(Long.getLong("chronix.test.seed", 6L));
        long[] dict = new long[8];
        for (int k = 0; k < 8; k++) {
            dict[k] = (long) (r.nextInt(1 << 12) | 1) << 52 | (k == 0 ? 0 : 1L << 63);
        }
        for (int cw = 0; cw <= BitUnpack.RD_MAX_CODE_WIDTH; cw++) {
            for (int w = BitUnpack.RD_MIN_WIDTH; w < 64; w++) {
                for (int round = 0; round < 8; round++) {
                    long[] rights = new long[64];
                    long[] codes = new long[64];
                    long mask = (1L << w) - 1;
                    for (int i = 0; i < 64; i++) {
                        rights[i] = switch (round % 4) {
                            case 0 -> mask;
                            case 1 -> 1L << (i % w);
                            default -> r.nextLong() & mask;
                        };
                        codes[i] = cw == 0 ? 0 : round % 4 == 0 ? (1 << cw) - 1 : r.nextInt(1 << cw);
                    }
                    // both streams unaligned and with bytes after them, as in a frame: the loads may read past a run
                    byte[] packedRights = pack(rights, w);
                    byte[] src = Arrays.copyOf(packedRights, packedRights.length + 8 * cw + 16);
                    byte[] packedCodes = pack(codes, cw);
                    System.arraycopy(packedCodes, 5, src, packedRights.length, 8 * cw);
                    double[] out = new double[66];
                    out[0] = 1.5;
                    out[65] = 2.5;
                    BitUnpack.unpackRd64(cw, w, src, 5, packedRights.length, out, 1, dict);
                    assertThat(out[0]).isEqualTo(1.5);
                    assertThat(out[65]).as("writes past the 64 values").isEqualTo(2.5);
                    for (int i = 0; i < 64; i++) {
                        assertThat(Double.doubleToRawLongBits(out[1 + i])).as("code width %d, width %d, value %d", cw, w, i)
                                .isEqualTo(dict[(int) codes[i]] | rights[i]);
                    }
                }
            }
        }
    }

    @Test
    void alpRdWidthsWithoutAFusedMethodAreRefused() {
        byte[] src = new byte[1024];
        long[] dict = new long[8];
        for (int[] widths : new int[][] {{0, BitUnpack.RD_MIN_WIDTH - 1}, {3, 64}, {BitUnpack.RD_MAX_CODE_WIDTH + 1, 50}, {-1, 50}}) {
            assertThatThrownBy(() -> BitUnpack.unpackRd64(widths[0], widths[1], src, 0, 512, new double[64], 0, dict))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void widthsOutsideOneToSixtyThreeAreRefused() {
        for (int w : new int[] {0, 64, -1}) {
            assertThatThrownBy(() -> BitUnpack.unpack64(w, new byte[1024], 0, new long[64], 0))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> BitUnpack.unpackDelta64(w, new byte[1024], 0, new long[64], 0, 0))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> BitUnpack.unpackDeltaToDouble64(w, new byte[1024], 0, new double[64], 0, 0))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    /** Bit by bit, LSB first, at byte offset 5 (so the loads are unaligned): the reference layout. */
    private static byte[] pack(long[] values, int w) {
        byte[] b = new byte[5 + 8 * w];
        long bit = 0;
        for (long v : values) {
            for (int k = 0; k < w; k++, bit++) {
                if ((v >>> k & 1) != 0) {
                    b[5 + (int) (bit >>> 3)] |= (byte) (1 << (bit & 7));
                }
            }
        }
        return b;
    }
}
