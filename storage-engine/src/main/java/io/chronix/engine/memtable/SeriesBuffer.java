package io.chronix.engine.memtable;

import io.chronix.engine.model.FieldType;
import io.chronix.engine.model.PointBatch;

import java.util.Arrays;

/**
 * One series' points in one memtable, as primitive columns: timestamps in arrival order and, per
 * field ordinal, either 64-bit values or string references, with a presence bitmap (an absent
 * field is absent, never 0). Appending a point copies primitives into arrays; nothing is allocated
 * per point (arrays double when full).
 *
 * <p>While timestamps arrive strictly increasing the buffer is <em>normalized</em> (sorted, one row
 * per timestamp). An older or equal timestamp breaks that; {@link #normalize()} restores it by a
 * stable sort and a merge of equal timestamps in which, field by field, the later arrival wins.
 *
 * <p>Threading: every method takes this object's monitor.
 */
final class SeriesBuffer {

    private final SeriesRef series;
    private long[] ts = new long[8];
    private int size;
    private boolean normalized = true;
    private long[][] bits = new long[0][];
    private String[][] strings = new String[0][];
    private long[][] present = new long[0][];
    private FieldType[] types = new FieldType[0];

    SeriesBuffer(SeriesRef series) {
        this.series = series;
    }

    SeriesRef series() {
        return series;
    }

    synchronized void add(long t, PointBatch batch, int point, int[] ordinals, int ordinalBase) {
        if (size == ts.length) {
            grow();
        }
        if (size > 0 && t <= ts[size - 1]) {
            normalized = false;
        }
        ts[size] = t;
        int n = batch.fieldCount(point);
        for (int f = 0; f < n; f++) {
            int ord = ordinals[ordinalBase + f];
            FieldType type = batch.fieldType(point, f);
            ensureColumn(ord, type);
            if (type == FieldType.STRING) {
                strings[ord][size] = batch.stringValue(point, f);
            } else {
                bits[ord][size] = batch.fieldBits(point, f);
            }
            present[ord][size >>> 6] |= 1L << size;
        }
        size++;
    }

    private void grow() {
        int n = ts.length * 2;
        ts = Arrays.copyOf(ts, n);
        for (int c = 0; c < types.length; c++) {
            if (types[c] == null) {
                continue;
            }
            if (types[c] == FieldType.STRING) {
                strings[c] = Arrays.copyOf(strings[c], n);
            } else {
                bits[c] = Arrays.copyOf(bits[c], n);
            }
            present[c] = Arrays.copyOf(present[c], (n + 63) >>> 6);
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
            if (type == FieldType.STRING) {
                strings[ord] = new String[ts.length];
            } else {
                bits[ord] = new long[ts.length];
            }
            present[ord] = new long[(ts.length + 63) >>> 6];
        }
        assert types[ord] == type : "the schema registry fixed the field's type";
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
                if (types[c] != null && (present[c][r >>> 6] & (1L << r)) != 0) {
                    if (types[c] == FieldType.STRING) {
                        sink.stringField(c, strings[c][r]);
                    } else {
                        sink.bitsField(c, types[c], bits[c][r]);
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
        long[][] nbits = new long[types.length][];
        String[][] nstrings = new String[types.length][];
        long[][] npresent = new long[types.length][];
        for (int c = 0; c < types.length; c++) {
            if (types[c] == null) {
                continue;
            }
            if (types[c] == FieldType.STRING) {
                nstrings[c] = new String[ts.length];
            } else {
                nbits[c] = new long[ts.length];
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
            for (int c = 0; c < types.length; c++) {
                if (types[c] != null && (present[c][src >>> 6] & (1L << src)) != 0) {
                    if (types[c] == FieldType.STRING) {
                        nstrings[c][out] = strings[c][src];
                    } else {
                        nbits[c][out] = bits[c][src];
                    }
                    npresent[c][out >>> 6] |= 1L << out;
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
