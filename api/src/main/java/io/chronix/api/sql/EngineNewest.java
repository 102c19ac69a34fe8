package io.chronix.api.sql;

import io.chronix.engine.read.ArrowRuns;
import io.chronix.engine.read.ScanResult;
import io.chronix.engine.schema.Column;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.ByteFunctionHelpers;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampNanoVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Answers a {@link NewestShape} (TSBS's lastpoint: {@code SELECT DISTINCT ON (tags) * … ORDER BY
 * tags, time DESC}) from each series' newest row, in Java, as DuckDB answers it over the same rows:
 * per value of the {@code DISTINCT ON} tags the newest row, the keys ordered as asked (NULLs last
 * unless asked first, strings by their UTF-8 bytes), then {@code OFFSET} and {@code LIMIT}. Rows
 * below the shape's exact lower time bound are left out (the scan's bound may be a microsecond
 * lower). Two series with the same key values and the same newest instant tie; DuckDB keeps either
 * one, and so may this. Each column is copied from the row it came from, its type as the scan's,
 * nullable as DuckDB reports every column. The engine is asked for its rows in the statement's tag
 * order; when they come one per key in that order, they are the answer as they are ({@link #inOrder}).
 */
public final class EngineNewest {

    private EngineNewest() {
    }

    /** The newest row of one key: where it is in the scan. */
    private record Row(VectorSchemaRoot batch, int index, long time, byte[][] key) {
    }

    /**
     * The answer in one batch; null if the scan's batches lack a column the shape names (then
     * DuckDB answers).
     *
     * @param cancelled polled between batches; when true, {@link QueryCancelledException}
     */
    public static ScanResult answer(NewestShape shape, ScanResult input, BufferAllocator allocator, BooleanSupplier cancelled) {
        List<NewestShape.Key> keys = shape.keys();
        if (input.batches().size() == 1 && inOrder(shape, input.batches().getFirst())) {
            return kept(shape, input, allocator);
        }
        Map<TagValues, Row> newest = new HashMap<>();
        for (VectorSchemaRoot batch : input.batches()) {
            if (cancelled.getAsBoolean()) {
                throw new QueryCancelledException();
            }
            VarCharVector[] tags = keyVectors(keys, batch);
            if (!(batch.getVector(Column.TIME) instanceof TimeStampNanoVector time) || tags == null) {
                return null;
            }
            for (int i = 0; i < batch.getRowCount(); i++) {
                long t = time.get(i);
                if (t < shape.from()) {
                    continue;
                }
                byte[][] key = new byte[tags.length][];
                for (int k = 0; k < tags.length; k++) {
                    key[k] = tags[k].isNull(i) ? null : tags[k].get(i);
                }
                newest.merge(new TagValues(key), new Row(batch, i, t, key), (a, b) -> b.time() > a.time() ? b : a);
            }
        }
        List<Row> rows = new ArrayList<>(newest.values());
        rows.sort((a, b) -> {
            for (int k = 0; k < keys.size(); k++) {
                int c = TagValues.compare(a.key()[k], b.key()[k], keys.get(k).descending(), keys.get(k).nullsFirst());
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        });
        int first = (int) Math.min(shape.offset(), rows.size());
        int n = (int) Math.min(rows.size() - first, shape.limit());
        return copied(shape, rows.subList(first, first + n), input, allocator);
    }

    /**
     * Whether each row of {@code batch} is the only one of its key, the rows in the statement's
     * order and none below its time bound: then the batch is the answer before {@code OFFSET} and
     * {@code LIMIT}. So it is when the engine wrote each series' newest row in the order asked
     * ({@link SqlQuery.Tables#scanNewest}) and no two series share a key.
     */
    static boolean inOrder(NewestShape shape, VectorSchemaRoot batch) {
        List<NewestShape.Key> keys = shape.keys();
        VarCharVector[] tags = keyVectors(keys, batch);
        if (!(batch.getVector(Column.TIME) instanceof TimeStampNanoVector time) || tags == null) {
            return false;
        }
        for (int i = 0; i < batch.getRowCount(); i++) {
            if (time.get(i) < shape.from() || i > 0 && compareRows(keys, tags, i - 1, i) >= 0) {
                return false;
            }
        }
        return true;
    }

    /** The batch's vectors of the keys; null if one is not a string column. */
    private static VarCharVector[] keyVectors(List<NewestShape.Key> keys, VectorSchemaRoot batch) {
        VarCharVector[] tags = new VarCharVector[keys.size()];
        for (int k = 0; k < tags.length; k++) {
            if (!(batch.getVector(keys.get(k).column()) instanceof VarCharVector v)) {
                return null;
            }
            tags[k] = v;
        }
        return tags;
    }

    /** Rows {@code a} and {@code b} by their keys, in the statement's order ({@link TagValues#compare}, without copying). */
    private static int compareRows(List<NewestShape.Key> keys, VarCharVector[] tags, int a, int b) {
        for (int k = 0; k < tags.length; k++) {
            VarCharVector v = tags[k];
            NewestShape.Key key = keys.get(k);
            boolean nullA = v.isNull(a);
            boolean nullB = v.isNull(b);
            int c;
            if (nullA || nullB) {
                c = nullA == nullB ? 0 : nullA == key.nullsFirst() ? -1 : 1;
            } else {
                c = ByteFunctionHelpers.compare(v.getDataBuffer(), v.getStartOffset(a), v.getEndOffset(a),
                        v.getDataBuffer(), v.getStartOffset(b), v.getEndOffset(b));
                c = key.descending() ? -c : c;
            }
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    /**
     * The rows of the input's one batch in {@code [OFFSET, OFFSET + LIMIT)}, each column copied in
     * one run; when that is the whole batch and no column is shown twice (lastpoint's {@code *}),
     * each column's buffers are handed over instead, and the input's vectors are left empty.
     */
    private static ScanResult kept(NewestShape shape, ScanResult input, BufferAllocator allocator) {
        VectorSchemaRoot batch = input.batches().getFirst();
        int first = (int) Math.min(shape.offset(), batch.getRowCount());
        int n = (int) Math.min(batch.getRowCount() - first, shape.limit());
        List<SelectedColumn> outputs = shape.outputs();
        boolean whole = first == 0 && n == batch.getRowCount()
                && outputs.stream().map(SelectedColumn::column).distinct().count() == outputs.size();
        Schema schema = SelectedColumn.schema(outputs, input.schema());
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        try {
            int[] run = {first, n};
            for (int c = 0; c < schema.getFields().size(); c++) {
                FieldVector from = batch.getVector(outputs.get(c).column());
                if (whole) {
                    from.makeTransferPair(root.getVector(c)).transfer();
                } else {
                    ArrowRuns.copy(from, root.getVector(c), run, 1, n);
                }
            }
            if (whole) {
                batch.setRowCount(0); // its vectors are empty now: say so to anyone who looks
            }
            root.setRowCount(n);
            return new ScanResult(schema, List.of(root));
        } catch (RuntimeException e) {
            root.close();
            throw e;
        }
    }

    private static ScanResult copied(NewestShape shape, List<Row> rows, ScanResult input, BufferAllocator allocator) {
        Schema schema = SelectedColumn.schema(shape.outputs(), input.schema());
        List<Field> fields = schema.getFields();
        // each batch's vectors of the output columns, found by name once, not once per cell
        Map<VectorSchemaRoot, FieldVector[]> sources = new java.util.IdentityHashMap<>();
        for (Row row : rows) {
            sources.computeIfAbsent(row.batch(), b -> {
                FieldVector[] v = new FieldVector[fields.size()];
                for (int c = 0; c < v.length; c++) {
                    v[c] = b.getVector(shape.outputs().get(c).column());
                }
                return v;
            });
        }
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        try {
            for (int c = 0; c < fields.size(); c++) {
                FieldVector to = root.getVector(c);
                to.setInitialCapacity(rows.size());
                to.allocateNew();
                for (int r = 0; r < rows.size(); r++) {
                    Row row = rows.get(r);
                    to.copyFromSafe(row.index(), r, sources.get(row.batch())[c]);
                }
                to.setValueCount(rows.size());
            }
            root.setRowCount(rows.size());
            return new ScanResult(schema, List.of(root));
        } catch (RuntimeException e) {
            root.close();
            throw e;
        }
    }
}
