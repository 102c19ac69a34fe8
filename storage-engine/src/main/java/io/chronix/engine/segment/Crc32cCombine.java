package io.chronix.engine.segment;

/**
 * CRC-32C of a concatenation from the CRCs of its pieces: {@code crc(A ‖ B)} from {@code crc(A)},
 * {@code crc(B)} and {@code |B|}, the way zlib's {@code crc32_combine} does it — appending |B| zero
 * bits to {@code crc(A)} is a linear map over GF(2), applied by repeated squaring of the one-bit
 * shift matrix in O(log |B|). The streaming segment writer needs it because the header, whose
 * counts are known only at the end, comes first in the file but is checksummed last.
 */
final class Crc32cCombine {

    /** The reflected Castagnoli polynomial. */
    private static final long POLY = 0x82F63B78L;

    private Crc32cCombine() {
    }

    /**
     * @param crcA   CRC-32C of the first piece (as {@link java.util.zip.CRC32C#getValue()} gives it)
     * @param crcB   CRC-32C of the second piece
     * @param lengthB the second piece's length in bytes
     */
    static long combine(long crcA, long crcB, long lengthB) {
        if (lengthB <= 0) {
            return crcA;
        }
        long[] even = new long[32];
        long[] odd = new long[32];
        odd[0] = POLY; // the operator for one zero bit
        long row = 1;
        for (int n = 1; n < 32; n++) {
            odd[n] = row;
            row <<= 1;
        }
        square(even, odd); // two zero bits
        square(odd, even); // four
        long crc = crcA;
        long len = lengthB;
        do {
            square(even, odd); // the first pass gives one zero byte
            if ((len & 1) != 0) {
                crc = times(even, crc);
            }
            len >>>= 1;
            if (len == 0) {
                break;
            }
            square(odd, even);
            if ((len & 1) != 0) {
                crc = times(odd, crc);
            }
            len >>>= 1;
        } while (len != 0);
        return (crc ^ crcB) & 0xFFFFFFFFL;
    }

    private static long times(long[] matrix, long vector) {
        long sum = 0;
        for (int i = 0; vector != 0; i++, vector >>>= 1) {
            if ((vector & 1) != 0) {
                sum ^= matrix[i];
            }
        }
        return sum;
    }

    private static void square(long[] square, long[] matrix) {
        for (int n = 0; n < 32; n++) {
            square[n] = times(matrix, matrix[n]);
        }
    }
}
