package io.chronix.engine.segment;

import io.chronix.engine.model.FieldType;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.ArrayList;
import java.util.List;

/**
 * The Arrow types segment columns are read as — one mapping, so the table schema the engine
 * publishes and the batches the reader produces cannot disagree.
 *
 * <pre>
 * time     Timestamp(NANOSECOND, no zone)   never null
 * tag      Utf8                             null where the series has no such tag
 * float    Float64        integer  Int64        unsigned  UInt64
 * boolean  Bool           string   Utf8
 * </pre>
 * Every column but {@code time} is nullable.
 */
public final class SegmentArrow {

    public static final ArrowType TIME_TYPE = new ArrowType.Timestamp(TimeUnit.NANOSECOND, null);

    private SegmentArrow() {
    }

    public static ArrowType typeOf(FieldType type) {
        return switch (type) {
            case FLOAT -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
            case INTEGER -> new ArrowType.Int(64, true);
            case UNSIGNED -> new ArrowType.Int(64, false);
            case BOOLEAN -> ArrowType.Bool.INSTANCE;
            case STRING -> ArrowType.Utf8.INSTANCE;
        };
    }

    public static Field timeField() {
        return new Field(SegmentColumns.TIME, org.apache.arrow.vector.types.pojo.FieldType.notNullable(TIME_TYPE), null);
    }

    public static Field tagField(String name) {
        return new Field(name, org.apache.arrow.vector.types.pojo.FieldType.nullable(ArrowType.Utf8.INSTANCE), null);
    }

    public static Field fieldField(String name, FieldType type) {
        return new Field(name, org.apache.arrow.vector.types.pojo.FieldType.nullable(typeOf(type)), null);
    }

    public static Field field(SegmentMeta.Column c) {
        return switch (c.role()) {
            case TIME -> timeField();
            case TAG -> tagField(c.name());
            case FIELD -> fieldField(c.name(), c.type());
        };
    }

    /** The schema of {@code columns}, in the order given. */
    public static Schema schema(List<SegmentMeta.Column> columns) {
        List<Field> fields = new ArrayList<>(columns.size());
        for (SegmentMeta.Column c : columns) {
            fields.add(field(c));
        }
        return new Schema(fields);
    }
}
