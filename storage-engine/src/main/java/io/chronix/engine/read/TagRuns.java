package io.chronix.engine.read;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A batch's tag column copied into Java arrays (offsets, bytes and NULLs) in bulk, and where its
 * value changes from row to row. Scans hand rows over series by series, so a tag's value repeats
 * over runs of rows; whatever depends only on the value (a group, a predicate's answer) is then
 * decided once per run. Used by the pass-through's tag predicates and the query layer's
 * aggregation.
 *
 * <p>Threading: one batch at a time, one thread; {@link #load} reuses the arrays.
 */
public final class TagRuns {

    private int[] offsets = new int[0];
    private byte[] bytes = new byte[0];
    private boolean[] nulls = new boolean[0];
    private boolean anyNull;

    /** Copies the first {@code rows} values of {@code v}. */
    public void load(VarCharVector v, int rows) {
        if (offsets.length < rows + 1) {
            offsets = new int[rows + 1];
        }
        ArrowBulk.ints(v.getOffsetBuffer(), offsets, rows + 1);
        int length = offsets[rows] - offsets[0];
        if (bytes.length < offsets[rows]) {
            bytes = new byte[Math.max(offsets[rows], bytes.length * 2)];
        }
        v.getDataBuffer().getBytes(offsets[0], bytes, offsets[0], length);
        anyNull = v.getNullCount() > 0;
        if (anyNull) {
            nulls = nullsOf(v, rows, nulls);
        }
    }

    public boolean isNull(int i) {
        return anyNull && nulls[i];
    }

    /** Row {@code i}'s UTF-8 bytes, a copy; {@code null} for NULL. */
    public byte[] value(int i) {
        return isNull(i) ? null : Arrays.copyOfRange(bytes, offsets[i], offsets[i + 1]);
    }

    /** Row {@code i}'s value as a string; {@code null} for NULL. */
    public String string(int i) {
        return isNull(i) ? null : new String(bytes, offsets[i], offsets[i + 1] - offsets[i], StandardCharsets.UTF_8);
    }

    /** Whether row {@code i} holds exactly {@code utf8} (false for NULL). */
    public boolean holds(int i, byte[] utf8) {
        return !isNull(i) && Arrays.equals(bytes, offsets[i], offsets[i + 1], utf8, 0, utf8.length);
    }

    /**
     * Marks in {@code changed[i]} whether row {@code i}'s values in {@code columns} differ from
     * row {@code i - 1}'s (row 0 always). A run of values of one length is one value repeated
     * exactly when its bytes equal themselves shifted by that length: one vectorised comparison
     * per run, not one call per row (a quarter of a grouped day's samples, compared row by row).
     */
    public static void markChanges(TagRuns[] columns, int rows, boolean[] changed) {
        Arrays.fill(changed, 0, rows, false);
        if (rows > 0) {
            changed[0] = true;
        }
        for (TagRuns c : columns) {
            c.markChanges(rows, changed);
        }
    }

    private void markChanges(int rows, boolean[] changed) {
        int[] o = offsets;
        if (anyNull) {
            for (int i = 1; i < rows; i++) {
                if (nulls[i] || nulls[i - 1] ? nulls[i] != nulls[i - 1] : !Arrays.equals(bytes, o[i - 1], o[i], bytes, o[i], o[i + 1])) {
                    changed[i] = true;
                }
            }
            return;
        }
        int i = 1; // rows before i are marked
        while (i < rows) {
            int length = o[i] - o[i - 1];
            int j = i;
            while (j < rows && o[j + 1] - o[j] == length) {
                j++;
            }
            if (j == i) { // row i's length is not row i - 1's
                changed[i] = true;
                i++;
                continue;
            }
            // rows i - 1 … j - 1 have one length: each equals the one before iff the bytes do, shifted by it
            int m = length == 0 ? -1 : Arrays.mismatch(bytes, o[i - 1], o[j - 1], bytes, o[i], o[j]);
            if (m < 0) {
                i = j;
                continue;
            }
            int differs = i + m / length; // the row holding the first byte unlike the one a length before
            changed[differs] = true;
            i = differs + 1;
        }
    }

    /** Which of the vector's first {@code rows} values are NULL, in {@code into} if it is large enough. */
    public static boolean[] nullsOf(FieldVector v, int rows, boolean[] into) {
        boolean[] to = into.length < rows ? new boolean[rows] : into;
        for (int i = 0; i < rows; i++) {
            to[i] = v.isNull(i);
        }
        return to;
    }
}
