package io.chronix.engine.segment;

import io.chronix.engine.cache.DecodedBlock;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Copies between a decoded vector of a segment column and its {@link DecodedBlock} image. The
 * vectors are the ones {@link SegmentArrow} creates: fixed width 8-byte, bit, or {@code Utf8}.
 */
final class BlockImages {

    private BlockImages() {
    }

    /** The image of a freshly decoded vector (its buffers copied to the heap). */
    static DecodedBlock of(FieldVector v) {
        int n = v.getValueCount();
        int validityBytes = (n + 7) >>> 3;
        byte[] validity = null;
        if (v.getNullCount() > 0) {
            validity = new byte[validityBytes];
            v.getValidityBuffer().getBytes(0, validity);
        }
        return switch (v) {
            case VarCharVector s -> {
                byte[] offsets = new byte[(n + 1) * 4];
                s.getOffsetBuffer().getBytes(0, offsets);
                byte[] data = new byte[n == 0 ? 0 : s.getOffsetBuffer().getInt((long) n * 4)];
                s.getDataBuffer().getBytes(0, data);
                yield new DecodedBlock(n, validity, data, offsets);
            }
            case BitVector bits -> {
                byte[] data = new byte[validityBytes];
                bits.getDataBuffer().getBytes(0, data);
                yield new DecodedBlock(n, validity, data, null);
            }
            case BaseFixedWidthVector f -> {
                byte[] data = new byte[n * f.getTypeWidth()];
                f.getDataBuffer().getBytes(0, data);
                yield new DecodedBlock(n, validity, data, null);
            }
            default -> throw new IllegalStateException("no block image for " + v.getClass().getSimpleName());
        };
    }

    /** Allocates {@code v} (in its own allocator) and copies the image into it. */
    static void fill(FieldVector v, DecodedBlock b) {
        fillRanges(v, b, new int[] {0, b.valueCount()}, b.valueCount());
    }

    /**
     * Checks {@code [start0, count0, …]} against a block of {@code valueCount} rows: ascending, not
     * overlapping, inside it, no empty range. Returns the rows they hold.
     */
    static int checkRanges(int[] ranges, int valueCount) {
        if (ranges.length % 2 != 0) {
            throw new IllegalArgumentException("ranges come in (start, count) pairs [length=" + ranges.length + "]");
        }
        long rows = 0;
        long end = 0;
        for (int i = 0; i < ranges.length; i += 2) {
            int start = ranges[i];
            int count = ranges[i + 1];
            if (start < end || count < 1 || (long) start + count > valueCount) {
                throw new IllegalArgumentException("row range out of order or outside the block [start=" + start + ", count=" + count
                        + ", previousEnd=" + end + ", rows=" + valueCount + "]");
            }
            end = (long) start + count;
            rows += count;
        }
        return (int) rows;
    }

    /**
     * Allocates {@code v} for {@code rows} values (the sum of the counts) and copies the image's
     * rows of {@code ranges} ({@code [start0, count0, …]}, checked by {@link #checkRanges}) into it,
     * one after the other.
     */
    static void fillRanges(FieldVector v, DecodedBlock b, int[] ranges, int rows) {
        boolean whole = ranges.length == 2 && ranges[0] == 0;
        switch (v) {
            case VarCharVector s -> {
                byte[] offsets = b.offsets();
                long bytes = 0;
                for (int i = 0; i < ranges.length; i += 2) {
                    bytes += offset(offsets, ranges[i] + ranges[i + 1]) - offset(offsets, ranges[i]);
                }
                s.allocateNew(Math.max(1, bytes), rows);
                ArrowBuf out = s.getOffsetBuffer();
                // the shifted offsets are built on the heap and copied in once: written one by one
                // into the Arrow buffer, each paid its bounds checks (7 % of a half-day aggregate)
                byte[] shifted = whole ? offsets : new byte[(rows + 1) * Integer.BYTES];
                int at = 0;
                int dataAt = 0;
                for (int i = 0; i < ranges.length; i += 2) {
                    int start = ranges[i];
                    int count = ranges[i + 1];
                    int base = offset(offsets, start);
                    int length = offset(offsets, start + count) - base;
                    s.getDataBuffer().setBytes(dataAt, b.data(), base, length);
                    if (!whole) { // whole: base is 0, the offsets as they are
                        for (int k = 1; k <= count; k++) {
                            INT_LE.set(shifted, (at + k) * Integer.BYTES, dataAt + offset(offsets, start + k) - base);
                        }
                    }
                    at += count;
                    dataAt += length;
                }
                out.setBytes(0, shifted, 0, (long) (rows + 1) * Integer.BYTES);
                validity(v, b, ranges, rows, whole);
                s.setLastSet(rows - 1);
                s.setValueCount(rows);
            }
            case BitVector bits -> {
                bits.allocateNew(rows);
                copyBits(b.data(), bits.getDataBuffer(), ranges, rows, whole);
                validity(v, b, ranges, rows, whole);
                bits.setValueCount(rows);
            }
            case BaseFixedWidthVector f -> {
                f.allocateNew(rows);
                int width = f.getTypeWidth();
                int at = 0;
                for (int i = 0; i < ranges.length; i += 2) {
                    f.getDataBuffer().setBytes((long) at * width, b.data(), ranges[i] * width, (long) ranges[i + 1] * width);
                    at += ranges[i + 1];
                }
                validity(v, b, ranges, rows, whole);
                f.setValueCount(rows);
            }
            default -> throw new IllegalStateException("no block image for " + v.getClass().getSimpleName());
        }
    }

    /** An {@code int} of a byte array, little-endian, as Arrow's offset buffers hold it. */
    static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private static int offset(byte[] offsets, int row) {
        return (int) INT_LE.get(offsets, row * Integer.BYTES);
    }

    private static void validity(FieldVector v, DecodedBlock b, int[] ranges, int rows, boolean whole) {
        if (b.validity() == null) {
            v.getValidityBuffer().setOne(0, (rows + 7) >>> 3);
        } else {
            copyBits(b.validity(), v.getValidityBuffer(), ranges, rows, whole);
        }
    }

    /** Copies the bits of {@code ranges} from an LSB-first bitmap into a zeroed one, packed. */
    private static void copyBits(byte[] from, ArrowBuf to, int[] ranges, int rows, boolean whole) {
        if (whole) {
            to.setBytes(0, from, 0, (rows + 7) >>> 3);
            return;
        }
        int at = 0;
        for (int i = 0; i < ranges.length; i += 2) {
            for (int k = ranges[i], end = k + ranges[i + 1]; k < end; k++, at++) {
                if ((from[k >>> 3] & (1 << (k & 7))) != 0) {
                    BitVectorHelper.setBit(to, at);
                }
            }
        }
    }
}
