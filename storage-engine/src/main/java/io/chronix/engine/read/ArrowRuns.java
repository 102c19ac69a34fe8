package io.chronix.engine.read;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.util.TransferPair;

/**
 * Copies runs of rows of one vector into another, packed one after the other: for the scan's
 * settled segments cut by a range or a predicate ({@link SegmentPassThrough}), and for answers that
 * keep some rows of a scan's batches.
 *
 * <p>Threading: stateless.
 */
public final class ArrowRuns {

    private ArrowRuns() {
    }

    /**
     * Allocates {@code dst} (empty, of the same vector class as {@code src}) for {@code rows} values
     * and copies the rows of {@code runs} ({@code [start0, length0, start1, …]}, {@code runCount}
     * pairs, ascending, summing to {@code rows}) into it.
     */
    public static void copy(FieldVector src, FieldVector dst, int[] runs, int runCount, int rows) {
        switch (src) {
            case BitVector b -> copyEach(src, dst, runs, runCount, rows);
            case BaseFixedWidthVector f -> copyFixedRuns(f, (BaseFixedWidthVector) dst, runs, runCount, rows);
            case VarCharVector v -> copyVarCharRuns(v, (VarCharVector) dst, runs, runCount, rows);
            default -> copyEach(src, dst, runs, runCount, rows);
        }
    }

    /** Value by value, for the vector kinds without a run copy (booleans). */
    private static void copyEach(FieldVector src, FieldVector dst, int[] runs, int runCount, int rows) {
        dst.setInitialCapacity(rows);
        dst.allocateNew();
        TransferPair copier = src.makeTransferPair(dst);
        int at = 0;
        for (int k = 0; k < runCount; k++) {
            for (int i = runs[2 * k], end = i + runs[2 * k + 1]; i < end; i++) {
                copier.copyValueSafe(i, at++);
            }
        }
        dst.setValueCount(rows);
    }

    /**
     * One memory copy per run. Value by value, each 8-byte value was a call into the JVM's array
     * copy: 15 % of a half-day aggregate's samples, for the two shards the range cuts.
     */
    private static void copyFixedRuns(BaseFixedWidthVector src, BaseFixedWidthVector dst, int[] runs, int runCount, int rows) {
        dst.allocateNew(rows);
        long width = src.getTypeWidth();
        ArrowBuf from = src.getDataBuffer();
        ArrowBuf to = dst.getDataBuffer();
        long at = 0;
        for (int k = 0; k < runCount; k++) {
            to.setBytes(at * width, from, runs[2 * k] * width, runs[2 * k + 1] * width);
            at += runs[2 * k + 1];
        }
        copyValidity(src, dst, runs, runCount, rows);
        dst.setValueCount(rows);
    }

    /** The bytes of each run in one copy; the offsets shifted to where the run lands. */
    private static void copyVarCharRuns(VarCharVector src, VarCharVector dst, int[] runs, int runCount, int rows) {
        long bytes = 0;
        for (int k = 0; k < runCount; k++) {
            bytes += src.getStartOffset(runs[2 * k] + runs[2 * k + 1]) - src.getStartOffset(runs[2 * k]);
        }
        dst.allocateNew(Math.max(1, bytes), rows);
        ArrowBuf fromOffsets = src.getOffsetBuffer();
        ArrowBuf toOffsets = dst.getOffsetBuffer();
        toOffsets.setInt(0, 0);
        int at = 0;
        int dataAt = 0;
        for (int k = 0; k < runCount; k++) {
            int start = runs[2 * k];
            int count = runs[2 * k + 1];
            int base = fromOffsets.getInt((long) start * Integer.BYTES);
            int length = fromOffsets.getInt((long) (start + count) * Integer.BYTES) - base;
            dst.getDataBuffer().setBytes(dataAt, src.getDataBuffer(), base, length);
            for (int i = 1; i <= count; i++) {
                toOffsets.setInt((long) (at + i) * Integer.BYTES, dataAt + fromOffsets.getInt((long) (start + i) * Integer.BYTES) - base);
            }
            at += count;
            dataAt += length;
        }
        copyValidity(src, dst, runs, runCount, rows);
        dst.setLastSet(rows - 1);
        dst.setValueCount(rows);
    }

    /** The runs' validity bits, packed; all set at once when the source has no NULL. */
    private static void copyValidity(FieldVector src, FieldVector dst, int[] runs, int runCount, int rows) {
        ArrowBuf to = dst.getValidityBuffer();
        if (src.getNullCount() == 0) {
            to.setOne(0, (rows + 7) >>> 3);
            return;
        }
        ArrowBuf from = src.getValidityBuffer();
        int at = 0;
        for (int k = 0; k < runCount; k++) {
            for (int i = runs[2 * k], end = i + runs[2 * k + 1]; i < end; i++, at++) {
                if (BitVectorHelper.get(from, i) != 0) {
                    BitVectorHelper.setBit(to, at);
                }
            }
        }
    }
}
