package io.chronix.engine.read;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Values out of the engine's Arrow vectors, boxed as {@link LastPoint} documents them. */
public final class ArrowValues {

    private ArrowValues() {
    }

    /** The value at {@code row} ({@code null} if NULL): Double, Long (unsigned: its 64 bits), Boolean or String. */
    public static Object get(FieldVector v, int row) {
        if (v.isNull(row)) {
            return null;
        }
        return switch (v) {
            case Float8Vector f -> f.get(row);
            case BigIntVector i -> i.get(row);
            case UInt8Vector u -> u.get(row);
            case BitVector b -> b.get(row) != 0;
            case VarCharVector s -> new String(s.get(row), StandardCharsets.UTF_8);
            default -> throw new IllegalArgumentException("not an engine field vector: " + v.getField());
        };
    }

    /** Row {@code row} of {@code root} as a point: {@code time} and every non-NULL one of {@code fields} the root has. */
    public static LastPoint point(VectorSchemaRoot root, int row, List<String> fields) {
        long ts = ((TimeStampVector) root.getVector("time")).get(row);
        Map<String, Object> values = new LinkedHashMap<>();
        for (String f : fields) {
            FieldVector v = root.getVector(f);
            Object o = v == null ? null : get(v, row);
            if (o != null) {
                values.put(f, o);
            }
        }
        return new LastPoint(ts, values);
    }
}
