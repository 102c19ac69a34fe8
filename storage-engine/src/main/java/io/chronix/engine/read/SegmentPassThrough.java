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
    /** Per predicate, its tag column of the current batch in Java arrays; and where the tags change. */
    private final TagRuns[] tagRuns;
    private boolean[] changed = new boolean[0];
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
        this.tagRuns = new TagRuns[predicates.size()];
        for (int i = 0; i < tagRuns.length; i++) {
            tagRuns[i] = new TagRuns();
        }
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
        boolean tagged = !predicates.isEmpty() && rows > 0;
        if (tagged) {
            // the predicates' answer depends on the tags alone, and rows come series by series:
            // it is decided once per run of equal tags, not tested row by row
            List<TagRuns> loaded = new ArrayList<>();
            for (int i = 0; i < tagVectors.length; i++) {
                if (tagVectors[i] != null) {
                    tagRuns[i].load(tagVectors[i], rows);
                    loaded.add(tagRuns[i]);
                }
            }
            if (changed.length < rows) {
                changed = new boolean[rows];
            }
            TagRuns.markChanges(loaded.toArray(TagRuns[]::new), rows, changed);
        }
        // the times in one bulk copy: read one by one, each paid an ArrowBuf's bounds and
        // reference-count checks (a tenth of a half-day grouped aggregate's samples)
        if (times.length < rows) {
            times = new long[rows];
        }
        ArrowBulk.longs(time.getDataBuffer(), times, rows);
        // runs of passing rows: rows are series by series, time ascending, so runs are long
        int[] runs = new int[16];
        int runCount = 0;
        int passing = 0;
        int runStart = -1;
        boolean tagsKnown = false; // whether tagsPass answers for the current run of equal tags
        boolean tagsPass = false;
        for (int r = 0; r <= rows; r++) {
            boolean pass = r < rows && times[r] >= from && times[r] <= to;
            if (tagged && r < rows) {
                if (changed[r]) {
                    tagsKnown = false;
                }
                if (pass) {
                    if (!tagsKnown) {
                        tagsPass = tagsPass(tagVectors, r);
                        tagsKnown = true;
                    }
                    pass = tagsPass;
                }
            }
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

    /** Whether row {@code r}'s tags pass every predicate (a tag the segment lacks is NULL). */
    private boolean tagsPass(VarCharVector[] tagVectors, int r) {
        for (int i = 0; i < tagVectors.length; i++) {
            boolean isNull = tagVectors[i] == null || tagRuns[i].isNull(r);
            TagPredicate p = predicates.get(i);
            if (p instanceof TagPredicate.IsNull) {
                if (!isNull) {
                    return false;
                }
            } else if (isNull) {
                return false;
            } else if (eqBytes[i] != null ? !tagRuns[i].holds(r, eqBytes[i]) : !p.test(tagRuns[i].string(r))) {
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
