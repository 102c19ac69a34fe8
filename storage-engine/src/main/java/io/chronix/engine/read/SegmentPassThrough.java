package io.chronix.engine.read;

import io.chronix.engine.schema.Column;
import io.chronix.engine.schema.MeasurementSchema;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.TransferPair;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows of segments that no other source can overwrite, handed on as decoded: no row merge,
 * no per-row object, and no decoding of columns nobody asked for.
 *
 * <p>A segment holds each (series, time) at most once. When its rows in the scanned range overlap
 * no other segment's and no memtable's in time — the usual case for data older than the newest
 * shard, and for every segment after compaction — no other source can hold the same (series,
 * time), so last-write-wins has nothing to fold and the segment's batches are the answer: filtered
 * by the time range and the tag predicates, projected to the output columns, a column the segment
 * lacks (added to the measurement later) as all NULL. A batch all of whose rows pass is moved over
 * whole (its buffers change owner, nothing is copied); otherwise the passing rows are copied out,
 * run by run, one memory copy per run and column.
 *
 * <p>Rows come series by series within each batch but not across batches: this serves {@link
 * io.chronix.engine.Chronix#scanUnordered}, whose consumers (SQL) do not need the order.
 *
 * <p>Threading: one scan, one thread.
 */
public final class SegmentPassThrough implements AutoCloseable {

    private final List<Column> output;
    private final Schema schema;
    private final List<TagPredicate> predicates;
    private final byte[][] eqBytes;
    private final long from;
    private final long to;
    private final BufferAllocator allocator;
    private final List<VectorSchemaRoot> batches = new ArrayList<>();
    /** Per set predicate, the last row tested in the current batch and its answer (-1: none). */
    private final int[] memoRow;
    private final boolean[] memoPass;
    /** The current batch's times, copied out of its vector. */
    private long[] times = new long[0];

    /**
     * @param output the columns of the answer, canonical order
     * @param predicates every one must hold; their tag columns must be in the batches {@link #add}
     *     receives (or absent from the segment, which makes the tag NULL)
     */
    public SegmentPassThrough(List<Column> output, List<TagPredicate> predicates, long from, long to, BufferAllocator allocator) {
        this.output = List.copyOf(output);
        this.schema = MeasurementSchema.toArrow(output);
        this.predicates = List.copyOf(predicates);
        this.eqBytes = new byte[predicates.size()][];
        for (int i = 0; i < predicates.size(); i++) {
            if (predicates.get(i) instanceof TagPredicate.Eq eq) {
                eqBytes[i] = eq.value().getBytes(StandardCharsets.UTF_8);
            }
        }
        this.from = from;
        this.to = to;
        this.allocator = allocator;
        this.memoRow = new int[predicates.size()];
        this.memoPass = new boolean[predicates.size()];
    }

    /**
     * The segment columns to decode for this scan: {@code time}, the output columns and the
     * predicates' tags, those the segment holds.
     */
    public static List<String> projection(List<Column> output, List<TagPredicate> predicates) {
        List<String> names = new ArrayList<>();
        names.add(Column.TIME);
        for (Column c : output) {
            if (!names.contains(c.name())) {
                names.add(c.name());
            }
        }
        for (TagPredicate p : predicates) {
            if (!names.contains(p.key())) {
                names.add(p.key());
            }
        }
        return names;
    }

    /** Takes the passing rows of one decoded segment batch; the batch stays the caller's to close. */
    public void add(VectorSchemaRoot root) {
        int rows = root.getRowCount();
        TimeStampVector time = (TimeStampVector) root.getVector(Column.TIME);
        VarCharVector[] tagVectors = new VarCharVector[predicates.size()];
        for (int i = 0; i < predicates.size(); i++) {
            tagVectors[i] = (VarCharVector) root.getVector(predicates.get(i).key());
        }
        java.util.Arrays.fill(memoRow, -1);
        // the times in one bulk copy: read one by one, each paid an ArrowBuf's bounds and
        // reference-count checks (a tenth of a half-day grouped aggregate's samples)
        if (times.length < rows) {
            times = new long[rows];
        }
        if (rows > 0) {
            time.getDataBuffer().nioBuffer(0, rows * Long.BYTES).order(java.nio.ByteOrder.LITTLE_ENDIAN).asLongBuffer()
                    .get(times, 0, rows);
        }
        // runs of passing rows: rows are series by series, time ascending, so runs are long
        int[] runs = new int[16];
        int runCount = 0;
        int passing = 0;
        int runStart = -1;
        for (int r = 0; r <= rows; r++) {
            boolean pass = r < rows && passes(times[r], tagVectors, r);
            if (pass && runStart < 0) {
                runStart = r;
            } else if (!pass && runStart >= 0) {
                if (2 * runCount + 2 > runs.length) {
                    runs = java.util.Arrays.copyOf(runs, runs.length * 2);
                }
                runs[2 * runCount] = runStart;
                runs[2 * runCount + 1] = r - runStart;
                runCount++;
                passing += r - runStart;
                runStart = -1;
            }
        }
        if (passing == 0) {
            return;
        }
        List<FieldVector> vectors = new ArrayList<>(output.size());
        boolean ok = false;
        try {
            for (Field f : schema.getFields()) {
                FieldVector src = root.getVector(f.getName());
                vectors.add(src == null ? nulls(f, passing) : take(src, passing == rows, runs, runCount, passing));
            }
            VectorSchemaRoot out = new VectorSchemaRoot(schema.getFields(), vectors, passing);
            batches.add(out);
            ok = true;
        } finally {
            if (!ok) {
                vectors.forEach(FieldVector::close);
            }
        }
    }

    private boolean passes(long t, VarCharVector[] tagVectors, int r) {
        if (t < from || t > to) {
            return false;
        }
        for (int i = 0; i < tagVectors.length; i++) {
            VarCharVector v = tagVectors[i];
            boolean isNull = v == null || v.isNull(r);
            TagPredicate p = predicates.get(i);
            if (p instanceof TagPredicate.IsNull) {
                if (!isNull) {
                    return false;
                }
            } else if (isNull) {
                return false;
            } else if (eqBytes[i] != null) {
                if (!sameBytes(v, r, eqBytes[i])) {
                    return false;
                }
            } else if (!setPasses(i, p, v, r)) {
                return false;
            }
        }
        return true;
    }

    /**
     * A set predicate on row {@code r}. Rows come series by series, so the value is nearly always
     * the one of the row tested before: equal bytes reuse that answer instead of building a string.
     */
    private boolean setPasses(int i, TagPredicate p, VarCharVector v, int r) {
        int prev = memoRow[i];
        if (prev < 0 || !sameValue(v, prev, r)) {
            memoPass[i] = p.test(new String(v.get(r), StandardCharsets.UTF_8));
        }
        memoRow[i] = r;
        return memoPass[i];
    }

    private static boolean sameValue(VarCharVector v, int a, int b) {
        int len = v.getValueLength(a);
        if (v.isNull(a) || len != v.getValueLength(b)) {
            return false;
        }
        long sa = v.getStartOffset(a);
        long sb = v.getStartOffset(b);
        for (int k = 0; k < len; k++) {
            if (v.getDataBuffer().getByte(sa + k) != v.getDataBuffer().getByte(sb + k)) {
                return false;
            }
        }
        return true;
    }

    private static boolean sameBytes(VarCharVector v, int row, byte[] expected) {
        if (v.getValueLength(row) != expected.length) {
            return false;
        }
        long start = v.getStartOffset(row);
        for (int b = 0; b < expected.length; b++) {
            if (v.getDataBuffer().getByte(start + b) != expected[b]) {
                return false;
            }
        }
        return true;
    }

    private FieldVector take(FieldVector src, boolean all, int[] runs, int runCount, int passing) {
        if (all) {
            TransferPair t = src.getTransferPair(allocator);
            t.transfer(); // the buffers change owner: no copy
            return (FieldVector) t.getTo();
        }
        if (runCount == 1) {
            TransferPair t = src.getTransferPair(allocator);
            t.splitAndTransfer(runs[0], runs[1]);
            return (FieldVector) t.getTo();
        }
        FieldVector dst = src.getField().createVector(allocator);
        try {
            ArrowRuns.copy(src, dst, runs, runCount, passing);
            return dst;
        } catch (RuntimeException e) {
            dst.close();
            throw e;
        }
    }

    private FieldVector nulls(Field f, int rows) {
        FieldVector v = f.createVector(allocator);
        v.setInitialCapacity(rows);
        v.allocateNew();
        v.setValueCount(rows); // validity all zero: every row NULL
        return v;
    }

    /** The batches taken so far; ownership passes to the caller, who closes them. */
    public List<VectorSchemaRoot> takeBatches() {
        List<VectorSchemaRoot> out = new ArrayList<>(batches);
        batches.clear();
        return out;
    }

    /** Closes batches not taken (a scan that failed part way). */
    @Override
    public void close() {
        batches.forEach(VectorSchemaRoot::close);
        batches.clear();
    }
}
