package io.chronix.engine;

import io.chronix.engine.memtable.LastValue;
import io.chronix.engine.read.ScanResult;
import io.chronix.engine.schema.Column;
import io.chronix.engine.schema.MeasurementSchema;
import io.chronix.engine.schema.SchemaRegistry;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Writes series' newest points ({@link LastPointReader.Latest}) as one Arrow batch, straight from
 * the cache's form: a float, integer or time value is the 8 bytes the cache holds, never boxed.
 * Each buffer is built on the heap and copied into the vector once, as a value written into an
 * Arrow buffer pays its bounds checks; the fixed-width fields are built together, one visit to each
 * row's point; the tag columns are the last answer's when its rows were the same series in the same
 * order ({@link TagImages}). Lastpoint answers hundreds of rows of a dozen columns, and a fresh
 * service runs it before the JIT has compiled it, so every step per value counts.
 *
 * <p>Threading: stateless (the tag images it is given are thread-safe).
 */
final class LatestBatch {

    private LatestBatch() {
    }

    /**
     * {@code rows} as a batch of {@code output} (columns of {@code ms}, canonical order).
     *
     * @param tagImages where the tag columns of the last answer are kept (rows of the same series reuse them)
     * @param statistics what finding the rows read
     */
    static ScanResult of(MeasurementSchema ms, List<Column> output, List<LastPointReader.Latest> rows, SchemaRegistry schema,
            TagImages tagImages, BufferAllocator allocator, io.chronix.engine.read.ScanStatistics statistics) {
        Schema arrow = MeasurementSchema.toArrow(output);
        List<Column> tagColumns = ms.tags();
        int n = rows.size();
        VectorSchemaRoot root = VectorSchemaRoot.create(arrow, allocator);
        try {
            TagImages.Rows tags = null;
            // the fixed-width fields are written together, row by row: one visit to each row's point, not one per column
            BaseFixedWidthVector[] fixed = new BaseFixedWidthVector[output.size()];
            int[] ordinals = new int[output.size()];
            int fixedCount = 0;
            for (int c = 0; c < output.size(); c++) {
                Column col = output.get(c);
                FieldVector v = root.getVector(c);
                switch (col.kind()) {
                    case TIME -> writeTimes((BaseFixedWidthVector) v, rows);
                    case TAG -> {
                        if (tags == null) {
                            tags = tagImages.forRows(rows, tagColumns.size());
                        }
                        strings((VarCharVector) v, n, tags.image(tagColumns.indexOf(col)));
                    }
                    case FIELD -> {
                        int ordinal = schema.field(ms.measurement(), col.name()).ordinal();
                        if (v instanceof VarCharVector s) {
                            writeStringField(s, rows, ordinal);
                        } else {
                            fixed[fixedCount] = (BaseFixedWidthVector) v;
                            ordinals[fixedCount++] = ordinal;
                        }
                    }
                }
            }
            writeFixedFields(fixed, ordinals, fixedCount, rows);
            for (FieldVector v : root.getFieldVectors()) {
                v.setValueCount(n);
            }
            root.setRowCount(n);
        } catch (RuntimeException e) {
            root.close();
            throw e;
        }
        return new ScanResult(arrow, List.of(root), 0, statistics);
    }

    private static void writeTimes(BaseFixedWidthVector v, List<LastPointReader.Latest> rows) {
        int n = rows.size();
        byte[] data = new byte[8 * n];
        byte[] validity = new byte[(n + 7) / 8];
        for (int r = 0; r < n; r++) {
            LONG_LE.set(data, 8 * r, rows.get(r).point().timestamp());
            validity[r >> 3] |= (byte) (1 << (r & 7));
        }
        fixed(v, n, data, validity);
    }

    private static void writeStringField(VarCharVector v, List<LastPointReader.Latest> rows, int ordinal) {
        int n = rows.size();
        byte[][] values = new byte[n][];
        for (int r = 0; r < n; r++) {
            LastValue.Snapshot p = rows.get(r).point();
            values[r] = holds(p.has(), ordinal) ? p.strings()[ordinal].getBytes(StandardCharsets.UTF_8) : null;
        }
        strings(v, n, TagImages.Image.of(values));
    }

    /**
     * The first {@code count} of {@code vectors}, each the field of the ordinal at the same index:
     * BOOLEAN one bit a value, else (FLOAT, INTEGER, UNSIGNED) the 8 bytes the cache keeps.
     */
    private static void writeFixedFields(BaseFixedWidthVector[] vectors, int[] ordinals, int count, List<LastPointReader.Latest> rows) {
        int n = rows.size();
        byte[][] data = new byte[count][];
        byte[][] validity = new byte[count][];
        boolean[] bits = new boolean[count];
        for (int f = 0; f < count; f++) {
            bits[f] = vectors[f] instanceof BitVector;
            data[f] = new byte[bits[f] ? (n + 7) / 8 : 8 * n];
            validity[f] = new byte[(n + 7) / 8];
        }
        for (int r = 0; r < n; r++) {
            LastValue.Snapshot p = rows.get(r).point();
            boolean[] has = p.has();
            long[] values = p.bits();
            byte bit = (byte) (1 << (r & 7));
            for (int f = 0; f < count; f++) {
                int o = ordinals[f];
                if (holds(has, o)) {
                    if (!bits[f]) {
                        LONG_LE.set(data[f], 8 * r, values[o]);
                    } else if (values[o] != 0) {
                        data[f][r >> 3] |= bit;
                    }
                    validity[f][r >> 3] |= bit;
                }
            }
        }
        for (int f = 0; f < count; f++) {
            fixed(vectors[f], n, data[f], validity[f]);
        }
    }

    /** A fixed-width vector of {@code n} values from its buffers' images, each copied in once. */
    private static void fixed(BaseFixedWidthVector v, int n, byte[] data, byte[] validity) {
        v.allocateNew(n);
        v.getDataBuffer().setBytes(0, data);
        v.getValidityBuffer().setBytes(0, validity);
    }

    /** A string vector of {@code n} values from its buffers' images, each copied in once. */
    private static void strings(VarCharVector v, int n, TagImages.Image image) {
        v.allocateNew(Math.max(1, image.data().length), n);
        v.getDataBuffer().setBytes(0, image.data());
        v.getOffsetBuffer().setBytes(0, image.offsets());
        v.getValidityBuffer().setBytes(0, image.validity());
        v.setLastSet(n - 1); // else setValueCount would take every row for a hole and rewrite its offset
    }

    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /**
     * Whether a point whose {@code has} this is holds the field of this ordinal (a field added after
     * the entry was taken is past its arrays).
     */
    private static boolean holds(boolean[] has, int ordinal) {
        return ordinal < has.length && has[ordinal];
    }
}
