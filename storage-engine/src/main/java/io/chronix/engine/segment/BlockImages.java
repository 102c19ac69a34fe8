package io.chronix.engine.segment;

import io.chronix.engine.cache.DecodedBlock;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Copies a segment column's {@link DecodedBlock} image (all of it, or stretches of its rows) into
 * a vector; a dictionary image's strings are gathered from its entries. The vectors are the ones
 * {@link SegmentArrow} creates: fixed width 8-byte, bit, or {@code Utf8}.
 */
final class BlockImages {

    private BlockImages() {
    }

    /**
     * Reusable heap buffers for gathering a dictionary image's strings before their one copy into
     * a vector. Not thread-safe: one per decoder.
     */
    static final class Scratch {
        private byte[] bytes = new byte[0];
        private byte[] offsets = new byte[0];
    }

    /** Allocates {@code v} (in its own allocator) and copies the image into it. */
    static void fill(FieldVector v, DecodedBlock b, Scratch scratch) {
        fillRanges(v, b, new int[] {0, b.valueCount()}, b.valueCount(), scratch);
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
    static void fillRanges(FieldVector v, DecodedBlock b, int[] ranges, int rows, Scratch scratch) {
        boolean whole = ranges.length == 2 && ranges[0] == 0;
        switch (v) {
            case VarCharVector s when b.codes() != null -> {
                fillDictionary(s, b, ranges, rows, scratch);
                validity(v, b, ranges, rows, whole);
                s.setLastSet(rows - 1);
                s.setValueCount(rows);
            }
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
            case BaseFixedWidthVector f -> fillFixedWidth(f, b, ranges, rows, whole);
            default -> throw new IllegalStateException("no block image for " + v.getClass().getSimpleName());
        }
    }

    /**
     * The strings of a dictionary image's rows of {@code ranges}, gathered on the heap and copied
     * into {@code s} once (data and offsets; the caller sets validity). A NULL row takes no bytes.
     */
    private static void fillDictionary(VarCharVector s, DecodedBlock b, int[] ranges, int rows, Scratch scratch) {
        long bytes = walkDictionary(b, ranges, null);
        if (bytes > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("strings of one block exceed 2 GiB [bytes=" + bytes + "]");
        }
        if (scratch.bytes.length < bytes) {
            scratch.bytes = new byte[(int) Math.max(bytes, Math.min(Integer.MAX_VALUE - 8, 2L * scratch.bytes.length))];
        }
        if (scratch.offsets.length < (rows + 1) * Integer.BYTES) {
            scratch.offsets = new byte[(rows + 1) * Integer.BYTES];
        }
        walkDictionary(b, ranges, scratch);
        s.allocateNew(Math.max(1, bytes), rows);
        s.getOffsetBuffer().setBytes(0, scratch.offsets, 0, (long) (rows + 1) * Integer.BYTES);
        s.getDataBuffer().setBytes(0, scratch.bytes, 0, bytes);
    }

    /**
     * Walks the rows of {@code ranges} of a dictionary image a run of one code at a time. Without
     * {@code out}, returns the bytes their strings take; with it, also writes the strings and the
     * {@code rows + 1} offsets into it.
     */
    private static long walkDictionary(DecodedBlock b, int[] ranges, Scratch out) {
        byte[] entries = b.data();
        byte[] entryOffsets = b.offsets();
        byte[] validity = b.validity();
        int[] codes = b.codes();
        int[] runEnds = b.runEnds();
        long bytes = 0;
        int at = 0; // rows written
        if (out != null) {
            INT_LE.set(out.offsets, 0, 0);
        }
        for (int i = 0; i < ranges.length; i += 2) {
            int row = ranges[i];
            int end = row + ranges[i + 1];
            int run = runEnds == null ? -1 : runContaining(runEnds, row);
            while (row < end) {
                int code;
                int stop;
                if (run < 0) {
                    code = codes[row];
                    stop = row + 1;
                } else {
                    code = codes[run];
                    stop = Math.min(end, runEnds[run]);
                    run++;
                }
                int base = offset(entryOffsets, code);
                int length = offset(entryOffsets, code + 1) - base;
                if (out == null && validity == null) {
                    bytes += (long) length * (stop - row);
                    row = stop;
                    continue;
                }
                for (; row < stop; row++, at++) {
                    if (validity == null || (validity[row >>> 3] & (1 << (row & 7))) != 0) {
                        if (out != null) {
                            System.arraycopy(entries, base, out.bytes, (int) bytes, length);
                        }
                        bytes += length;
                    }
                    if (out != null) {
                        INT_LE.set(out.offsets, (at + 1) * Integer.BYTES, (int) bytes);
                    }
                }
            }
        }
        return bytes;
    }

    /** The run holding {@code row}: the first whose end is past it. */
    private static int runContaining(int[] runEnds, int row) {
        int lo = 0;
        int hi = runEnds.length - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (runEnds[mid] <= row) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** An {@code int} of a byte array, little-endian, as Arrow's offset buffers hold it. */
    static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private static int offset(byte[] offsets, int row) {
        return (int) INT_LE.get(offsets, row * Integer.BYTES);
    }

    /**
     * A fixed-width vector's buffers, allocated apart and exactly: {@code allocateNew} asks for one
     * buffer holding both, rounded up to a power of two (a row group's 65,536 longs and their 8 KB
     * of validity take 1 MB, not 520 KB) and zeroes all of it, and the query's memory pool zeroes
     * all of it again when it is given back — for every value copied in, four bytes written. Here
     * each value is written once; the data buffer's bytes past the rows are zeroed (none when the
     * rows fill it), so no byte of it is left from another use, and a validity, when the block has
     * nulls, is written whole.
     */
    private static void fillFixedWidth(BaseFixedWidthVector f, DecodedBlock b, int[] ranges, int rows, boolean whole) {
        int width = f.getTypeWidth();
        long used = (long) rows * width;
        try (ArrowBuf data = f.getAllocator().buffer(Math.max(1, used))) {
            int at = 0;
            for (int i = 0; i < ranges.length; i += 2) {
                data.setBytes((long) at * width, b.data(), ranges[i] * width, (long) ranges[i + 1] * width);
                at += ranges[i + 1];
            }
            data.setZero(used, data.capacity() - used);
            // the vector takes its own references to the buffers; these are released on leaving
            if (b.validity() == null) {
                // no nulls: given an empty validity and a null count of 0, the vector makes its own, all set
                f.loadFieldBuffers(new ArrowFieldNode(rows, 0), java.util.List.of(f.getAllocator().getEmpty(), data));
                return;
            }
            try (ArrowBuf validity = f.getAllocator().buffer((rows + 7) >>> 3)) {
                validity.setZero(0, validity.capacity());
                copyBits(b.validity(), validity, ranges, rows, whole);
                f.loadFieldBuffers(new ArrowFieldNode(rows, BitVectorHelper.getNullCount(validity, rows)),
                        java.util.List.of(validity, data));
            }
        }
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
