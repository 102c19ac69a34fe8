package io.chronix.engine.schema;

import io.chronix.engine.model.FieldType;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A measurement's columns in canonical order: {@code time}, then tags by name, then fields by name
 * (seed 001, "Column Order"). This order does not depend on which column was written first, and
 * scans emit exactly it.
 *
 * <p>Immutable; equal when measurement and columns are. The tag and field lists are derived once
 * here: every scan and every newest-point answer asks for them, and derived per call they were a
 * stream, a filter and a list per ask (about 3 % of a lastpoint query's CPU samples).
 */
public final class MeasurementSchema {

    private final String measurement;
    private final List<Column> columns;
    private final List<Column> tags;
    private final List<Column> fields;

    public MeasurementSchema(String measurement, List<Column> columns) {
        this.measurement = measurement;
        this.columns = List.copyOf(columns);
        assert !this.columns.isEmpty() && this.columns.getFirst().kind() == Column.Kind.TIME : "time comes first";
        this.tags = this.columns.stream().filter(c -> c.kind() == Column.Kind.TAG).toList();
        this.fields = this.columns.stream().filter(c -> c.kind() == Column.Kind.FIELD).toList();
    }

    public String measurement() {
        return measurement;
    }

    public List<Column> columns() {
        return columns;
    }

    public Optional<Column> column(String name) {
        for (Column c : columns) {
            if (c.name().equals(name)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    /**
     * The columns a scan of {@code names} answers, in canonical order; every column for an empty list.
     *
     * @throws IllegalArgumentException naming a column this measurement does not have
     */
    public List<Column> columnsFor(List<String> names) {
        if (names.isEmpty()) {
            return columns;
        }
        java.util.Set<String> asked = new java.util.HashSet<>(names);
        for (String c : asked) {
            if (column(c).isEmpty()) {
                throw new IllegalArgumentException("unknown column [measurement=" + measurement + ", column=" + c + "]");
            }
        }
        return columns.stream().filter(c -> asked.contains(c.name())).toList();
    }

    /** The tag columns, in canonical order. */
    public List<Column> tags() {
        return tags;
    }

    /** The field columns, in canonical order. */
    public List<Column> fields() {
        return fields;
    }

    /** The Arrow schema of a scan of these columns, in this order. */
    public Schema toArrow() {
        return toArrow(columns);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MeasurementSchema m && java.util.Objects.equals(measurement, m.measurement) && columns.equals(m.columns);
    }

    @Override
    public int hashCode() {
        return 31 * java.util.Objects.hashCode(measurement) + columns.hashCode();
    }

    @Override
    public String toString() {
        return "MeasurementSchema[measurement=" + measurement + ", columns=" + columns + "]";
    }

    /** The Arrow schema scans use for {@code columns}: time is a non-null nanosecond timestamp, everything else nullable. */
    public static Schema toArrow(List<Column> columns) {
        List<Field> fields = new ArrayList<>(columns.size());
        for (Column c : columns) {
            fields.add(arrowField(c));
        }
        return new Schema(fields);
    }

    public static Field arrowField(Column c) {
        return switch (c.kind()) {
            case TIME -> new Field(c.name(), org.apache.arrow.vector.types.pojo.FieldType.notNullable(
                    new ArrowType.Timestamp(TimeUnit.NANOSECOND, null)), null);
            case TAG -> new Field(c.name(), org.apache.arrow.vector.types.pojo.FieldType.nullable(ArrowType.Utf8.INSTANCE), null);
            case FIELD -> new Field(c.name(), org.apache.arrow.vector.types.pojo.FieldType.nullable(arrowType(c.type())), null);
        };
    }

    public static ArrowType arrowType(FieldType type) {
        return switch (type) {
            case FLOAT -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
            case INTEGER -> new ArrowType.Int(64, true);
            case UNSIGNED -> new ArrowType.Int(64, false);
            case BOOLEAN -> ArrowType.Bool.INSTANCE;
            case STRING -> ArrowType.Utf8.INSTANCE;
        };
    }
}
