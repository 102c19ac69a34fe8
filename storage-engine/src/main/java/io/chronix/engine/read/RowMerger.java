package io.chronix.engine.read;

import io.chronix.engine.memtable.Memtable;
import io.chronix.engine.memtable.RowSink;
import io.chronix.engine.memtable.SeriesRef;
import io.chronix.engine.model.FieldType;
import io.chronix.engine.schema.Column;
import io.chronix.engine.schema.MeasurementSchema;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Merges the rows of one measurement from several sources into one answer, last write wins field
 * by field on (series, time).
 *
 * <p>Rows are collected into primitive columns: a series id (a dense id per distinct tuple of tag
 * values over the measurement's tag keys, NULL for an absent tag), the timestamp, and per wanted
 * field the 64 raw bits or the string plus a presence bitmap. {@link #finish} orders rows by
 * (series tuple, time) with a stable sort — so among equal keys the order in which sources were
 * added decides — and folds runs of equal keys, each field taken from the last row that has it.
 * Callers add sources oldest first.
 *
 * <p>Threading: one scan, one thread.
 */
public final class RowMerger {

    private final String[] tagKeys;
    private final Column[] fields;
    private final Map<String, Integer> fieldIndex = new HashMap<>();
    private final Map<TagTuple, Integer> seriesIds = new HashMap<>();
    private final List<String[]> seriesTags = new ArrayList<>();
    private final List<TagPredicate> predicates;

    private int size;
    private int[] series = new int[256];
    private long[] ts = new long[256];
    private final long[][] bits;
    private final String[][] strings;
    private final long[][] present;

    private record TagTuple(String[] values) {
        @Override
        public boolean equals(Object o) {
            return o instanceof TagTuple t && Arrays.equals(values, t.values);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(values);
        }
    }

    /**
     * @param schema the measurement's schema (its tags define series identity)
     * @param wantedFields the field columns to carry, canonical order
     */
    public RowMerger(MeasurementSchema schema, List<Column> wantedFields, List<TagPredicate> predicates) {
        List<Column> tags = schema.tags();
        this.tagKeys = new String[tags.size()];
        for (int i = 0; i < tagKeys.length; i++) {
            tagKeys[i] = tags.get(i).name();
        }
        this.fields = wantedFields.toArray(Column[]::new);
        for (int i = 0; i < fields.length; i++) {
            fieldIndex.put(fields[i].name(), i);
        }
        this.predicates = predicates;
        bits = new long[fields.length][];
        strings = new String[fields.length][];
        present = new long[fields.length][];
        for (int f = 0; f < fields.length; f++) {
            if (fields[f].type() == FieldType.STRING) {
                strings[f] = new String[256];
            } else {
                bits[f] = new long[256];
            }
            present[f] = new long[4];
        }
    }

    public String[] tagKeys() {
        return tagKeys.clone();
    }

    /** The output index of field {@code name}, or -1 if it is not wanted. */
    public int fieldIndex(String name) {
        Integer i = fieldIndex.get(name);
        return i == null ? -1 : i;
    }

    /** Whether a series with these tag values (indexed like {@link #tagKeys()}) passes every predicate. */
    public boolean passes(String[] tagValues) {
        for (TagPredicate p : predicates) {
            int k = Arrays.asList(tagKeys).indexOf(p.key());
            if (!p.test(k < 0 ? null : tagValues[k])) {
                return false;
            }
        }
        return true;
    }

    /** The tag values of {@code s} over this measurement's tag keys. */
    public String[] tupleOf(SeriesRef s) {
        String[] v = new String[tagKeys.length];
        for (int i = 0; i < tagKeys.length; i++) {
            v[i] = s.tag(tagKeys[i]);
        }
        return v;
    }

    private int seriesId(String[] tuple) {
        TagTuple key = new TagTuple(tuple);
        Integer id = seriesIds.get(key);
        if (id == null) {
            id = seriesTags.size();
            seriesIds.put(key, id);
            seriesTags.add(tuple);
        }
        return id;
    }

    private int beginRow(int sid, long t) {
        if (size == ts.length) {
            int n = size * 2;
            ts = Arrays.copyOf(ts, n);
            series = Arrays.copyOf(series, n);
            for (int f = 0; f < fields.length; f++) {
                if (strings[f] != null) {
                    strings[f] = Arrays.copyOf(strings[f], n);
                } else {
                    bits[f] = Arrays.copyOf(bits[f], n);
                }
            }
        }
        int words = (size >>> 6) + 1;
        for (int f = 0; f < fields.length; f++) {
            if (present[f].length < words) {
                present[f] = Arrays.copyOf(present[f], Math.max(words, present[f].length * 2));
            }
        }
        series[size] = sid;
        ts[size] = t;
        return size++;
    }

    private void set(int row, int f, long v) {
        bits[f][row] = v;
        present[f][row >>> 6] |= 1L << row;
    }

    private void set(int row, int f, String v) {
        strings[f][row] = v;
        present[f][row >>> 6] |= 1L << row;
    }

    /**
     * Adds the rows of series {@code s} in {@code m} within {@code [from, to]}, if it passes the
     * predicates.
     *
     * @param ordinalToField memtable field ordinal → output field index (-1: not wanted)
     */
    public void addMemtable(Memtable m, SeriesRef s, long from, long to, int[] ordinalToField) {
        String[] tuple = tupleOf(s);
        if (!passes(tuple)) {
            return;
        }
        int sid = seriesId(tuple);
        m.read(s, from, to, new RowSink() {
            int row;

            @Override
            public void beginRow(SeriesRef series, long timestamp) {
                row = RowMerger.this.beginRow(sid, timestamp);
            }

            @Override
            public void bitsField(int ordinal, FieldType type, long v) {
                int f = ordinal < ordinalToField.length ? ordinalToField[ordinal] : -1;
                if (f >= 0) {
                    set(row, f, v);
                }
            }

            @Override
            public void stringField(int ordinal, String value) {
                int f = ordinal < ordinalToField.length ? ordinalToField[ordinal] : -1;
                if (f >= 0) {
                    set(row, f, value);
                }
            }

            @Override
            public void endRow() {
            }
        });
    }

    /**
     * Adds the rows of an Arrow batch in canonical segment layout ({@code time}, tags and fields by
     * name; missing columns are NULL) within {@code [from, to]} whose series pass the predicates.
     */
    public void addArrow(VectorSchemaRoot root, long from, long to) {
        addArrow(root, from, to, RowMask.NONE);
    }

    /** As {@link #addArrow(VectorSchemaRoot, long, long)}, leaving out the rows {@code mask} deletes. */
    public void addArrow(VectorSchemaRoot root, long from, long to, RowMask mask) {
        int rows = root.getRowCount();
        FieldVector time = root.getVector(Column.TIME);
        if (time == null) {
            throw new IllegalArgumentException("segment batch without a time column");
        }
        VarCharVector[] tagVectors = new VarCharVector[tagKeys.length];
        for (int k = 0; k < tagKeys.length; k++) {
            tagVectors[k] = (VarCharVector) root.getVector(tagKeys[k]);
        }
        FieldVector[] fieldVectors = new FieldVector[fields.length];
        for (int f = 0; f < fields.length; f++) {
            fieldVectors[f] = root.getVector(fields[f].name());
        }
        // predicates first, on the tag bytes, so rows of other series cost no string
        int[] predicateColumn = new int[predicates.size()];
        byte[][] eqBytes = new byte[predicates.size()][];
        for (int i = 0; i < predicates.size(); i++) {
            predicateColumn[i] = Arrays.asList(tagKeys).indexOf(predicates.get(i).key());
            if (predicates.get(i) instanceof TagPredicate.Eq eq) {
                eqBytes[i] = eq.value().getBytes(StandardCharsets.UTF_8);
            }
        }
        String[] previous = null;
        int previousSid = -1;
        boolean previousPasses = false;
        long[] previousDeleted = null;
        for (int r = 0; r < rows; r++) {
            long t = time instanceof TimeStampVector tv ? tv.get(r) : ((BigIntVector) time).get(r);
            if (t < from || t > to || !rawPasses(tagVectors, predicateColumn, eqBytes, r)) {
                continue;
            }
            String[] tuple = new String[tagKeys.length];
            for (int k = 0; k < tagKeys.length; k++) {
                VarCharVector v = tagVectors[k];
                tuple[k] = v == null || v.isNull(r) ? null : new String(v.get(r), StandardCharsets.UTF_8);
            }
            if (previous == null || !Arrays.equals(previous, tuple)) {
                previous = tuple;
                previousPasses = passes(tuple);
                previousSid = previousPasses ? seriesId(tuple) : -1;
                previousDeleted = previousPasses ? mask.deletedRanges(tuple) : null;
            }
            if (!previousPasses || previousDeleted != null && RowMask.covered(previousDeleted, t)) {
                continue;
            }
            int row = beginRow(previousSid, t);
            for (int f = 0; f < fields.length; f++) {
                FieldVector v = fieldVectors[f];
                if (v == null || v.isNull(r)) {
                    continue;
                }
                switch (fields[f].type()) {
                    case FLOAT -> set(row, f, Double.doubleToRawLongBits(((Float8Vector) v).get(r)));
                    case INTEGER -> set(row, f, ((BigIntVector) v).get(r));
                    case UNSIGNED -> set(row, f, ((UInt8Vector) v).get(r));
                    case BOOLEAN -> set(row, f, ((BitVector) v).get(r));
                    case STRING -> set(row, f, new String(((VarCharVector) v).get(r), StandardCharsets.UTF_8));
                }
            }
        }
    }

    /** A cheap pre-check of the predicates on row {@code r}'s raw tag bytes; {@link #passes} decides. */
    private boolean rawPasses(VarCharVector[] tagVectors, int[] predicateColumn, byte[][] eqBytes, int r) {
        for (int i = 0; i < predicateColumn.length; i++) {
            int k = predicateColumn[i];
            VarCharVector v = k < 0 ? null : tagVectors[k];
            boolean isNull = v == null || v.isNull(r);
            TagPredicate p = predicates.get(i);
            if (p instanceof TagPredicate.IsNull) {
                if (!isNull) {
                    return false;
                }
            } else if (isNull) {
                return false;
            } else if (eqBytes[i] != null) {
                long start = v.getStartOffset(r);
                int len = v.getValueLength(r);
                if (len != eqBytes[i].length) {
                    return false;
                }
                for (int b = 0; b < len; b++) {
                    if (v.getDataBuffer().getByte(start + b) != eqBytes[i][b]) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /** Rows collected so far, before folding duplicates. */
    public int collected() {
        return size;
    }

    /**
     * Orders and folds the rows and writes the {@code output} columns (canonical order; time, tags
     * and fields among those carried) as Arrow batches of at most {@code batchRows} rows.
     */
    public List<VectorSchemaRoot> finish(List<Column> output, BufferAllocator allocator, int batchRows) {
        List<VectorSchemaRoot> out = new ArrayList<>();
        try {
            finish(output, allocator, batchRows, (part, batch) -> out.add(batch), 0);
        } catch (RuntimeException e) {
            // an allocation over the caller's bound: the batches built so far are nobody else's to close
            out.forEach(VectorSchemaRoot::close);
            throw e;
        }
        return out;
    }

    /**
     * {@link #finish(List, BufferAllocator, int)}, each batch handed to {@code taker} (as part
     * {@code part}) as soon as it is built, before the next one is: a streamed consumer then holds
     * the merged rows' batches one at a time, not all of them. Stops when the taker refuses one.
     */
    public void finish(List<Column> output, BufferAllocator allocator, int batchRows, ScanOutput.Taker taker, int part) {
        int[] rank = seriesRank();
        int[] order = new int[size];
        for (int i = 0; i < size; i++) {
            order[i] = i;
        }
        sort(order, new int[size], 0, size, rank);
        // fold runs of equal (series, time): the run's last row with a field wins it
        int[] runStart = new int[size + 1];
        int runs = 0;
        for (int i = 0; i < size; i++) {
            if (i == 0 || series[order[i]] != series[order[i - 1]] || ts[order[i]] != ts[order[i - 1]]) {
                runStart[runs++] = i;
            }
        }
        runStart[runs] = size;
        emit(output, allocator, batchRows, order, runStart, runs, taker, part);
    }

    /** Builds the batches of the sorted runs one at a time (at least one, empty if there are no rows) and hands each over. */
    private void emit(List<Column> output, BufferAllocator allocator, int batchRows, int[] order, int[] runStart, int runs,
            ScanOutput.Taker taker, int part) {
        for (int first = 0; first < runs || first == 0; first += batchRows) {
            int n = Math.max(0, Math.min(batchRows, runs - first));
            VectorSchemaRoot root = VectorSchemaRoot.create(MeasurementSchema.toArrow(output), allocator);
            try {
                // each vector sized for the batch up front: a fixed-width vector grown by setSafe
                // allocates its new data and validity buffers one after the other, and Arrow does not
                // free the first when the second goes over the caller's bound
                for (FieldVector v : root.getFieldVectors()) {
                    v.setInitialCapacity(Math.max(1, n));
                }
                root.allocateNew();
                for (int c = 0; c < output.size(); c++) {
                    fill(root.getVector(c), output.get(c), order, runStart, first, n);
                }
                root.setRowCount(n);
            } catch (RuntimeException e) {
                root.close();
                throw e;
            }
            if (!taker.take(part, root) || n == 0) {
                return;
            }
        }
    }

    private void fill(FieldVector vector, Column column, int[] order, int[] runStart, int firstRun, int n) {
        switch (column.kind()) {
            case TIME -> {
                TimeStampVector v = (TimeStampVector) vector;
                for (int i = 0; i < n; i++) {
                    v.setSafe(i, ts[order[runStart[firstRun + i]]]);
                }
            }
            case TAG -> {
                int k = Arrays.asList(tagKeys).indexOf(column.name());
                VarCharVector v = (VarCharVector) vector;
                for (int i = 0; i < n; i++) {
                    String value = k < 0 ? null : seriesTags.get(series[order[runStart[firstRun + i]]])[k];
                    if (value == null) {
                        v.setNull(i);
                    } else {
                        v.setSafe(i, value.getBytes(StandardCharsets.UTF_8));
                    }
                }
            }
            case FIELD -> {
                int f = fieldIndex(column.name());
                for (int i = 0; i < n; i++) {
                    int winner = -1;
                    for (int j = runStart[firstRun + i]; j < runStart[firstRun + i + 1]; j++) {
                        int r = order[j];
                        if ((present[f][r >>> 6] & (1L << r)) != 0) {
                            winner = r;
                        }
                    }
                    if (winner < 0) {
                        vector.setNull(i);
                        continue;
                    }
                    switch (column.type()) {
                        case FLOAT -> ((Float8Vector) vector).setSafe(i, Double.longBitsToDouble(bits[f][winner]));
                        case INTEGER -> ((BigIntVector) vector).setSafe(i, bits[f][winner]);
                        case UNSIGNED -> ((UInt8Vector) vector).setSafe(i, bits[f][winner]);
                        case BOOLEAN -> ((BitVector) vector).setSafe(i, bits[f][winner] != 0 ? 1 : 0);
                        case STRING -> ((VarCharVector) vector).setSafe(i, strings[f][winner].getBytes(StandardCharsets.UTF_8));
                    }
                }
            }
        }
        vector.setValueCount(n);
    }

    /** Series ids ranked by their tag tuples (an absent tag before any value). */
    private int[] seriesRank() {
        int n = seriesTags.size();
        Integer[] ids = new Integer[n];
        for (int i = 0; i < n; i++) {
            ids[i] = i;
        }
        Arrays.sort(ids, (a, b) -> compareTuples(seriesTags.get(a), seriesTags.get(b)));
        int[] rank = new int[n];
        for (int i = 0; i < n; i++) {
            rank[ids[i]] = i;
        }
        return rank;
    }

    static int compareTuples(String[] a, String[] b) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == null ? b[i] != null : !a[i].equals(b[i])) {
                if (a[i] == null) {
                    return -1;
                }
                if (b[i] == null) {
                    return 1;
                }
                return a[i].compareTo(b[i]);
            }
        }
        return 0;
    }

    private boolean less(int x, int y, int[] rank) {
        int rx = rank[series[x]];
        int ry = rank[series[y]];
        return rx != ry ? rx < ry : ts[x] < ts[y];
    }

    /** Stable merge sort of row indices by (series rank, time). */
    private void sort(int[] a, int[] tmp, int from, int to, int[] rank) {
        if (to - from < 16) {
            for (int i = from + 1; i < to; i++) {
                int v = a[i];
                int j = i - 1;
                while (j >= from && less(v, a[j], rank)) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = v;
            }
            return;
        }
        int mid = (from + to) >>> 1;
        sort(a, tmp, from, mid, rank);
        sort(a, tmp, mid, to, rank);
        if (!less(a[mid], a[mid - 1], rank)) {
            return;
        }
        System.arraycopy(a, from, tmp, from, to - from);
        int i = from;
        int j = mid;
        int k = from;
        while (i < mid && j < to) {
            a[k++] = less(tmp[j], tmp[i], rank) ? tmp[j++] : tmp[i++];
        }
        while (i < mid) {
            a[k++] = tmp[i++];
        }
        while (j < to) {
            a[k++] = tmp[j++];
        }
    }
}
