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
 * Writes series' newest points ({@link LastPointReader.Latest}) as one Arrow batch, column by
 * column, straight from the cache's form: a float, integer or time value is the 8 bytes the cache
 * holds, never boxed. Each buffer is built on the heap and copied into the vector once, as a
 * value written into an Arrow buffer pays its bounds checks. Lastpoint answers hundreds of rows of
 * a dozen columns, and a fresh service runs it before the JIT has compiled it, so every step per
 * value counts.
 *
 * <p>Threading: stateless.
 */
final class LatestBatch {

    private LatestBatch() {
    }

    /**
     * {@code rows} as a batch of {@code output} (columns of {@code ms}, canonical order).
     *
     * @param statistics what finding the rows read
     */
    static ScanResult of(MeasurementSchema ms, List<Column> output, List<LastPointReader.Latest> rows, SchemaRegistry schema,
            BufferAllocator allocator, io.chronix.engine.read.ScanStatistics statistics) {
        Schema arrow = MeasurementSchema.toArrow(output);
        List<Column> tagColumns = ms.tags();
        int n = rows.size();
        VectorSchemaRoot root = VectorSchemaRoot.create(arrow, allocator);
        try {
            for (int c = 0; c < output.size(); c++) {
                Column col = output.get(c);
                FieldVector v = root.getVector(c);
                switch (col.kind()) {
                    case TIME -> writeTimes((BaseFixedWidthVector) v, rows);
                    case TAG -> writeTags((VarCharVector) v, rows, tagColumns.indexOf(col));
                    case FIELD -> writeField(v, rows, schema.field(ms.measurement(), col.name()).ordinal());
                }
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

    private static void writeTags(VarCharVector v, List<LastPointReader.Latest> rows, int tag) {
        byte[][] values = new byte[rows.size()][];
        for (int r = 0; r < values.length; r++) {
            values[r] = rows.get(r).tagsUtf8()[tag]; // encoded once per series, not per answer
        }
        strings(v, values);
    }

    private static void writeField(FieldVector v, List<LastPointReader.Latest> rows, int ordinal) {
        int n = rows.size();
        if (v instanceof VarCharVector s) {
            byte[][] values = new byte[n][];
            for (int r = 0; r < n; r++) {
                LastValue.Snapshot p = rows.get(r).point();
                values[r] = holds(p, ordinal) ? p.strings()[ordinal].getBytes(StandardCharsets.UTF_8) : null;
            }
            strings(s, values);
            return;
        }
        boolean bits = v instanceof BitVector; // BOOLEAN: one bit a value; else FLOAT, INTEGER, UNSIGNED: the 8 bytes the cache keeps
        byte[] data = new byte[bits ? (n + 7) / 8 : 8 * n];
        byte[] validity = new byte[(n + 7) / 8];
        for (int r = 0; r < n; r++) {
            LastValue.Snapshot p = rows.get(r).point();
            if (holds(p, ordinal)) {
                if (!bits) {
                    LONG_LE.set(data, 8 * r, p.bits()[ordinal]);
                } else if (p.bits()[ordinal] != 0) {
                    data[r >> 3] |= (byte) (1 << (r & 7));
                }
                validity[r >> 3] |= (byte) (1 << (r & 7));
            }
        }
        fixed((BaseFixedWidthVector) v, n, data, validity);
    }

    /** A fixed-width vector of {@code n} values from its buffers' images, each copied in once. */
    private static void fixed(BaseFixedWidthVector v, int n, byte[] data, byte[] validity) {
        v.allocateNew(n);
        v.getDataBuffer().setBytes(0, data);
        v.getValidityBuffer().setBytes(0, validity);
    }

    /** {@code bytes}, UTF-8 ({@code null} for NULL), with data and offsets built on the heap and copied in once. */
    private static void strings(VarCharVector v, byte[][] bytes) {
        int n = bytes.length;
        byte[] offsets = new byte[4 * (n + 1)];
        byte[] validity = new byte[(n + 7) / 8];
        int total = 0;
        for (int r = 0; r < n; r++) {
            if (bytes[r] != null) {
                total = Math.addExact(total, bytes[r].length);
                validity[r >> 3] |= (byte) (1 << (r & 7));
            }
            INT_LE.set(offsets, 4 * (r + 1), total);
        }
        byte[] data = new byte[total];
        for (int r = 0, at = 0; r < n; r++) {
            if (bytes[r] != null) {
                System.arraycopy(bytes[r], 0, data, at, bytes[r].length);
                at += bytes[r].length;
            }
        }
        v.allocateNew(Math.max(1, total), n);
        v.getDataBuffer().setBytes(0, data);
        v.getOffsetBuffer().setBytes(0, offsets);
        v.getValidityBuffer().setBytes(0, validity);
        v.setLastSet(n - 1); // else setValueCount would take every row for a hole and rewrite its offset
    }

    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    /** Whether the point holds the field of this ordinal (a field added after the entry was taken is past its arrays). */
    private static boolean holds(LastValue.Snapshot p, int ordinal) {
        return ordinal < p.has().length && p.has()[ordinal];
    }
}
