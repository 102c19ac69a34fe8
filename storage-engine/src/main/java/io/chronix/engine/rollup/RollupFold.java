package io.chronix.engine.rollup;

import io.chronix.engine.model.FieldType;
import io.chronix.engine.schema.Column;
import io.chronix.engine.schema.MeasurementSchema;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Feeds scan batches of a rollup source (time, every tag, the numeric fields) into a {@link
 * RollupAccumulator}: one group per series (tag values in the source schema's tag order), one
 * value per present, non-NaN numeric field. Rows outside {@code [from, to)} are skipped.
 */
public final class RollupFold {

    private final List<Column> tags;
    private final List<Column> fields;
    private final RollupAccumulator accumulator;
    private final long from;
    private final long to;
    private long rows;
    private List<String> group;
    private byte[][] groupBytes;

    /** @param accumulator built over {@link #types} of the same source schema */
    public RollupFold(MeasurementSchema source, RollupAccumulator accumulator, long from, long to) {
        this.tags = source.tags();
        this.fields = RollupSchema.numericFields(source);
        this.accumulator = accumulator;
        this.from = from;
        this.to = to;
    }

    /** The field types an accumulator for this source takes, in {@link #fields()} order. */
    public static FieldType[] types(MeasurementSchema source) {
        return RollupSchema.numericFields(source).stream().map(Column::type).toArray(FieldType[]::new);
    }

    /** The numeric fields folded, in accumulator order. */
    public List<Column> fields() {
        return fields;
    }

    /** The columns a scan must carry for this fold. */
    public List<String> columns() {
        List<String> out = new ArrayList<>();
        out.add(Column.TIME);
        tags.forEach(t -> out.add(t.name()));
        fields.forEach(f -> out.add(f.name()));
        return out;
    }

    public void accept(VectorSchemaRoot root) {
        TimeStampVector time = (TimeStampVector) root.getVector(Column.TIME);
        VarCharVector[] tagVectors = new VarCharVector[tags.size()];
        for (int t = 0; t < tagVectors.length; t++) {
            tagVectors[t] = (VarCharVector) root.getVector(tags.get(t).name());
        }
        FieldVector[] fieldVectors = new FieldVector[fields.size()];
        for (int f = 0; f < fieldVectors.length; f++) {
            fieldVectors[f] = root.getVector(fields.get(f).name());
        }
        for (int r = 0; r < root.getRowCount(); r++) {
            long ts = time.get(r);
            if (ts < from || ts >= to) {
                continue;
            }
            rows++;
            BucketAccumulator stats = accumulator.row(groupOf(tagVectors, r), ts);
            if (stats == null) {
                continue;
            }
            for (int f = 0; f < fieldVectors.length; f++) {
                FieldVector v = fieldVectors[f];
                if (v == null || v.isNull(r)) {
                    continue;
                }
                long bits = switch (v) {
                    case Float8Vector d -> Double.doubleToRawLongBits(d.get(r));
                    case BigIntVector i -> i.get(r);
                    case UInt8Vector u -> u.get(r);
                    default -> throw new IllegalStateException("numeric field of vector " + v.getClass().getSimpleName());
                };
                stats.add(f, ts, bits);
            }
        }
    }

    /** The row's group; the previous row's list while the series does not change (an ordered scan is series by series). */
    private List<String> groupOf(VarCharVector[] tagVectors, int r) {
        byte[][] bytes = new byte[tagVectors.length][];
        for (int t = 0; t < tagVectors.length; t++) {
            bytes[t] = tagVectors[t] == null || tagVectors[t].isNull(r) ? null : tagVectors[t].get(r);
        }
        if (group != null && Arrays.deepEquals(bytes, groupBytes)) {
            return group;
        }
        List<String> g = new ArrayList<>(bytes.length);
        for (byte[] b : bytes) {
            g.add(b == null ? null : new String(b, StandardCharsets.UTF_8));
        }
        group = java.util.Collections.unmodifiableList(g);
        groupBytes = bytes;
        return group;
    }

    /** Source rows folded (inside the range). */
    public long rows() {
        return rows;
    }
}
