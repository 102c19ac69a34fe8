package io.chronix.engine.memtable;

import io.chronix.engine.model.FieldType;
import io.chronix.engine.model.PointBatch;

import java.util.Arrays;

/**
 * One series' points in one memtable, as primitive columns: timestamps in arrival order and, per
 * field ordinal, either 64-bit values or string references, with a presence bitmap (an absent
 * field is absent, never 0). Appending a point copies primitives into arrays; nothing is allocated
 * per point.
 *
 * <p>Layout: the timestamps and each column's presence bitmap are flat arrays that double when
 * full (one long, or one bit, per row). A column's values live in chunks of {@link #CHUNK} rows —
 * row {@code r} in chunk {@code r >>> CHUNK_SHIFT} at {@code r & (CHUNK - 1)} — so a growing series
 * never copies its values: it allocates its next chunk. Only the first chunk starts small (8 rows)
 * and doubles up to {@code CHUNK}, so a series with a handful of points costs a handful of slots.
 * A chunk's rows line up with one word of the presence bitmap.
 *
 * <p>While timestamps arrive strictly increasing the buffer is <em>normalized</em> (sorted, one row
 * per timestamp). An older or equal timestamp breaks that; {@link #normalize()} restores it by a
 * stable sort and a merge of equal timestamps in which, field by field, the later arrival wins.
 *
 * <p>Threading: every method takes this object's monitor.
 */
final class SeriesBuffer {

    static final int CHUNK_SHIFT = 6;
    /** Rows per value chunk: one presence word. */
    static final int CHUNK = 1 << CHUNK_SHIFT;
    private static final int FIRST = 8;

    private final SeriesRef series;
    private long[] ts = new long[FIRST];
    private int size;
    private boolean normalized = true;
    private long[][][] bits = new long[0][][];
    private String[][][] strings = new String[0][][];
    private long[][] present = new long[0][];
    private FieldType[] types = new FieldType[0];

    SeriesBuffer(SeriesRef series) {
        this.series = series;
    }

    SeriesRef series() {
        return series;
    }

    synchronized void add(long t, PointBatch batch, int point, int[] ordinals, int ordinalBase) {
        int r = size;
        if (r == ts.length) {
            grow();
        }
        if (r > 0 && t <= ts[r - 1]) {
            normalized = false;
        }
        ts[r] = t;
        int n = batch.fieldCount(point);
        int k = r >>> CHUNK_SHIFT;
        int off = r & (CHUNK - 1);
        for (int f = 0; f < n; f++) {
            int ord = ordinals[ordinalBase + f];
            FieldType type = batch.fieldType(point, f);
            ensureColumn(ord, type);
            if (type == FieldType.STRING) {
                String[][] ch = strings[ord];
                String[] c = k < ch.length ? ch[k] : null;
                if (c == null || off >= c.length) {
                    c = stringChunk(ord, k, off);
                }
                c[off] = batch.stringValue(point, f);
            } else {
                long[][] ch = bits[ord];
                long[] c = k < ch.length ? ch[k] : null;
                if (c == null || off >= c.length) {
                    c = bitsChunk(ord, k, off);
                }
                c[off] = batch.fieldBits(point, f);
            }
            present[ord][k] |= 1L << off;
        }
        size = r + 1;
    }

    /** Chunk {@code k} of column {@code ord}, made to hold offset {@code off}: allocated, or (the first) doubled. */
    private long[] bitsChunk(int ord, int k, int off) {
        long[][] ch = bits[ord];
        if (k >= ch.length) {
            ch = bits[ord] = Arrays.copyOf(ch, Math.max(k + 1, ch.length * 2));
        }
        long[] c = ch[k];
        return ch[k] = c == null ? new long[chunkLength(k, off)] : Arrays.copyOf(c, chunkLength(k, off));
    }

    private String[] stringChunk(int ord, int k, int off) {
        String[][] ch = strings[ord];
        if (k >= ch.length) {
            ch = strings[ord] = Arrays.copyOf(ch, Math.max(k + 1, ch.length * 2));
        }
        String[] c = ch[k];
        return ch[k] = c == null ? new String[chunkLength(k, off)] : Arrays.copyOf(c, chunkLength(k, off));
    }

    /** A chunk after the first is whole; the first is the smallest power of two from 8 that holds {@code off}. */
    private static int chunkLength(int k, int off) {
        return k > 0 ? CHUNK : Math.min(CHUNK, Math.max(FIRST, Integer.highestOneBit(off) << 1));
    }

    /** The timestamps and the presence bitmaps double; value chunks are not touched. */
    private void grow() {
        int n = ts.length * 2;
        ts = Arrays.copyOf(ts, n);
        int words = (n + CHUNK - 1) >>> CHUNK_SHIFT;
        for (int c = 0; c < types.length; c++) {
            if (types[c] != null && present[c].length < words) {
                present[c] = Arrays.copyOf(present[c], words);
            }
        }
    }

    private void ensureColumn(int ord, FieldType type) {
        if (ord >= types.length) {
            int n = Math.max(ord + 1, types.length * 2);
            types = Arrays.copyOf(types, n);
            bits = Arrays.copyOf(bits, n);
            strings = Arrays.copyOf(strings, n);
            present = Arrays.copyOf(present, n);
        }
        if (types[ord] == null) {
            types[ord] = type;
            int chunks = (ts.length + CHUNK - 1) >>> CHUNK_SHIFT;
            if (type == FieldType.STRING) {
                strings[ord] = new String[chunks][];
            } else {
                bits[ord] = new long[chunks][];
            }
            present[ord] = new long[chunks];
        }
        assert types[ord] == type : "the schema registry fixed the field's type";
    }

    private boolean isPresent(int c, int r) {
        return (present[c][r >>> CHUNK_SHIFT] & (1L << r)) != 0;
    }

    private long bitsAt(int c, int r) {
        return bits[c][r >>> CHUNK_SHIFT][r & (CHUNK - 1)];
    }

    private String stringAt(int c, int r) {
        return strings[c][r >>> CHUNK_SHIFT][r & (CHUNK - 1)];
    }

    synchronized int size() {
        return size;
    }

    /**
     * Copies the rows with timestamps in {@code [from, to]} (sorted, deduplicated) into {@code sink}.
     * Normalizes first if it must.
     */
    synchronized void read(long from, long to, RowSink sink) {
        normalize();
        int lo = lowerBound(from);
        int hi = upperBound(to);
        for (int r = lo; r < hi; r++) {
            sink.beginRow(series, ts[r]);
            for (int c = 0; c < types.length; c++) {
                if (types[c] != null && isPresent(c, r)) {
                    if (types[c] == FieldType.STRING) {
                        sink.stringField(c, stringAt(c, r));
                    } else {
                        sink.bitsField(c, types[c], bitsAt(c, r));
                    }
                }
            }
            sink.endRow();
        }
    }

    /** The newest timestamp held, or {@link Long#MIN_VALUE} when empty. */
    synchronized long maxTimestamp() {
        normalize();
        return size == 0 ? Long.MIN_VALUE : ts[size - 1];
    }

    private int lowerBound(long t) {
        int lo = 0;
        int hi = size;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (ts[mid] < t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private int upperBound(long t) {
        int lo = 0;
        int hi = size;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (ts[mid] <= t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Sorts by timestamp (stable: arrival order among equals) and merges equal timestamps, later field values winning. */
    void normalize() {
        assert Thread.holdsLock(this);
        if (normalized) {
            return;
        }
        int[] order = new int[size];
        for (int i = 0; i < size; i++) {
            order[i] = i;
        }
        sortStable(order, new int[size], 0, size);
        long[] nts = new long[ts.length];
        int chunks = (ts.length + CHUNK - 1) >>> CHUNK_SHIFT;
        long[][][] nbits = new long[types.length][][];
        String[][][] nstrings = new String[types.length][][];
        long[][] npresent = new long[types.length][];
        for (int c = 0; c < types.length; c++) {
            if (types[c] == null) {
                continue;
            }
            if (types[c] == FieldType.STRING) {
                nstrings[c] = new String[chunks][];
            } else {
                nbits[c] = new long[chunks][];
            }
            npresent[c] = new long[present[c].length];
        }
        int out = -1;
        for (int i = 0; i < size; i++) {
            int src = order[i];
            if (out < 0 || nts[out] != ts[src]) {
                out++;
                nts[out] = ts[src];
            }
            int k = out >>> CHUNK_SHIFT;
            int off = out & (CHUNK - 1);
            for (int c = 0; c < types.length; c++) {
                if (types[c] != null && isPresent(c, src)) {
                    if (types[c] == FieldType.STRING) {
                        String[] ch = nstrings[c][k];
                        if (ch == null || off >= ch.length) {
                            ch = nstrings[c][k] = ch == null ? new String[chunkLength(k, off)] : Arrays.copyOf(ch, chunkLength(k, off));
                        }
                        ch[off] = stringAt(c, src);
                    } else {
                        long[] ch = nbits[c][k];
                        if (ch == null || off >= ch.length) {
                            ch = nbits[c][k] = ch == null ? new long[chunkLength(k, off)] : Arrays.copyOf(ch, chunkLength(k, off));
                        }
                        ch[off] = bitsAt(c, src);
                    }
                    npresent[c][k] |= 1L << off;
                }
            }
        }
        ts = nts;
        bits = nbits;
        strings = nstrings;
        present = npresent;
        size = out + 1;
        normalized = true;
    }

    /** Stable merge sort of row indices by timestamp. */
    private void sortStable(int[] a, int[] tmp, int from, int to) {
        if (to - from < 16) {
            for (int i = from + 1; i < to; i++) {
                int v = a[i];
                int j = i - 1;
                while (j >= from && ts[a[j]] > ts[v]) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = v;
            }
            return;
        }
        int mid = (from + to) >>> 1;
        sortStable(a, tmp, from, mid);
        sortStable(a, tmp, mid, to);
        if (ts[a[mid - 1]] <= ts[a[mid]]) {
            return;
        }
        System.arraycopy(a, from, tmp, from, to - from);
        int i = from;
        int j = mid;
        int k = from;
        while (i < mid && j < to) {
            a[k++] = ts[tmp[j]] < ts[tmp[i]] ? tmp[j++] : tmp[i++];
        }
        while (i < mid) {
            a[k++] = tmp[i++];
        }
        while (j < to) {
            a[k++] = tmp[j++];
        }
    }
}
