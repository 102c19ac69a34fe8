package io.chronix.api.sql;

import io.chronix.engine.read.ArrowRuns;
import io.chronix.engine.read.ScanResult;
import io.chronix.engine.schema.Column;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampNanoVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Answers a {@link FilterShape} (TSBS's high-cpu: {@code SELECT * FROM cpu WHERE usage_user > 90
 * AND time …}) from the scan's batches, in Java, as DuckDB answers it over the same rows: each
 * batch's rows whose {@code time} lies in the shape's exact range and whose fields pass every
 * test, in the scan's order, then {@code OFFSET} and {@code LIMIT}. The scan has applied the tag
 * predicates already, exactly. Kept rows are copied run by run ({@link ArrowRuns}), each column typed
 * as the scan's, nullable as DuckDB reports every column.
 *
 * <p>Threading: one call, one thread.
 */
public final class EngineFilter {

    private EngineFilter() {
    }

    /**
     * The answer, one batch per scan batch that keeps a row; null if a field a test reads has a
     * vector of a kind the tests do not read (then DuckDB answers).
     *
     * @param cancelled polled between batches; when true, {@link QueryCancelledException}
     */
    public static ScanResult answer(FilterShape shape, ScanResult input, BufferAllocator allocator, BooleanSupplier cancelled) {
        Schema schema = SelectedColumn.schema(shape.outputs(), input.schema());
        List<VectorSchemaRoot> out = new ArrayList<>();
        boolean ok = false;
        try {
            long skip = shape.offset();
            long left = shape.limit();
            boolean[] keep = new boolean[0];
            int[] runs = new int[32];
            for (VectorSchemaRoot batch : input.batches()) {
                if (left == 0) {
                    break;
                }
                if (cancelled.getAsBoolean()) {
                    throw new QueryCancelledException();
                }
                int rows = batch.getRowCount();
                if (keep.length < rows) {
                    keep = new boolean[rows];
                }
                if (!kept(shape, batch, keep)) {
                    return null;
                }
                for (SelectedColumn o : shape.outputs()) {
                    if (batch.getVector(o.column()) == null) {
                        return null;
                    }
                }
                // the kept rows as runs, past the offset and up to the limit
                int runCount = 0;
                int taken = 0;
                for (int r = 0; r < rows && left > 0; ) {
                    if (!keep[r]) {
                        r++;
                        continue;
                    }
                    int end = r;
                    while (end < rows && keep[end]) {
                        end++;
                    }
                    int start = r;
                    r = end;
                    if (skip > 0) {
                        int skipped = (int) Math.min(skip, end - start);
                        skip -= skipped;
                        start += skipped;
                    }
                    int length = (int) Math.min(left, end - start);
                    if (length > 0) {
                        if (2 * runCount + 2 > runs.length) {
                            runs = Arrays.copyOf(runs, runs.length * 2);
                        }
                        runs[2 * runCount] = start;
                        runs[2 * runCount + 1] = length;
                        runCount++;
                        taken += length;
                        left -= length;
                    }
                }
                if (taken > 0) {
                    out.add(copied(schema, shape.outputs(), batch, runs, runCount, taken, allocator));
                }
            }
            if (out.isEmpty()) {
                out.add(VectorSchemaRoot.create(schema, allocator)); // no row: the columns still answer
            }
            ok = true;
            return new ScanResult(schema, out);
        } finally {
            if (!ok) {
                out.forEach(VectorSchemaRoot::close);
            }
        }
    }

    /** Marks in {@code keep} the batch's rows in the time range passing every field test; false if a test cannot read its field. */
    private static boolean kept(FilterShape shape, VectorSchemaRoot batch, boolean[] keep) {
        int rows = batch.getRowCount();
        if (!(batch.getVector(Column.TIME) instanceof TimeStampNanoVector time)) {
            return false;
        }
        for (int r = 0; r < rows; r++) {
            long t = time.get(r);
            keep[r] = t >= shape.from() && t <= shape.to();
        }
        for (FilterShape.FieldTest test : shape.fields()) {
            FieldVector v = batch.getVector(test.field());
            if (v == null) {
                Arrays.fill(keep, 0, rows, false); // a column the batch lacks is NULL throughout
                continue;
            }
            switch (test) {
                case FilterShape.FieldTest.LongRange range when v instanceof BigIntVector longs -> {
                    for (int r = 0; r < rows; r++) {
                        keep[r] = keep[r] && !longs.isNull(r) && range.test(longs.get(r));
                    }
                }
                case FilterShape.FieldTest.DoubleCompare cmp when v instanceof BigIntVector longs -> {
                    for (int r = 0; r < rows; r++) {
                        keep[r] = keep[r] && !longs.isNull(r) && cmp.test((double) longs.get(r));
                    }
                }
                case FilterShape.FieldTest.DoubleCompare cmp when v instanceof Float8Vector doubles -> {
                    for (int r = 0; r < rows; r++) {
                        keep[r] = keep[r] && !doubles.isNull(r) && cmp.test(doubles.get(r));
                    }
                }
                default -> {
                    return false;
                }
            }
        }
        return true;
    }

    private static VectorSchemaRoot copied(Schema schema, List<SelectedColumn> outputs, VectorSchemaRoot batch, int[] runs,
                                           int runCount, int rows, BufferAllocator allocator) {
        List<FieldVector> vectors = new ArrayList<>(outputs.size());
        try {
            for (int c = 0; c < outputs.size(); c++) {
                FieldVector dst = schema.getFields().get(c).createVector(allocator);
                vectors.add(dst);
                ArrowRuns.copy(batch.getVector(outputs.get(c).column()), dst, runs, runCount, rows);
            }
            return new VectorSchemaRoot(schema.getFields(), vectors, rows);
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
    }
}
