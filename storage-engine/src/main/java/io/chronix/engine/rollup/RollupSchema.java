package io.chronix.engine.rollup;

import io.chronix.engine.model.FieldType;
import io.chronix.engine.schema.Column;
import io.chronix.engine.schema.MeasurementSchema;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The shape of a rollup target: the source's tags, and per numeric source field (float, int64,
 * uint64) and aggregate a field {@code <field>_<aggregate>}. Types: {@code avg} and {@code sum}
 * are float64 (an int64 or uint64 sum can pass 64 bits; float64 does not overflow and is exact to
 * 2^53), {@code count} is int64, {@code min}, {@code max}, {@code first} and {@code last} keep the
 * source field's type. Boolean and string fields are not aggregated.
 */
public final class RollupSchema {

    private RollupSchema() {
    }

    public static boolean numeric(FieldType t) {
        return t == FieldType.FLOAT || t == FieldType.INTEGER || t == FieldType.UNSIGNED;
    }

    public static FieldType typeOf(Aggregate a, FieldType source) {
        return switch (a) {
            case AVG, SUM -> FieldType.FLOAT;
            case COUNT -> FieldType.INTEGER;
            case MIN, MAX, FIRST, LAST -> source;
        };
    }

    /** The source's numeric fields, canonical order. */
    public static List<Column> numericFields(MeasurementSchema source) {
        return source.fields().stream().filter(c -> numeric(c.type())).toList();
    }

    /** Tags then fields of the target, for a source of this schema. */
    public static List<Column> targetColumns(MeasurementSchema source, Set<Aggregate> aggregates) {
        List<Column> out = new ArrayList<>(source.tags());
        for (Column f : numericFields(source)) {
            for (Aggregate a : aggregates) {
                out.add(Column.field(a.targetField(f.name()), typeOf(a, f.type())));
            }
        }
        return out;
    }

    /**
     * Why {@code existing} (the target measurement as it is) cannot take this rollup's points, or
     * empty if it can: a tag that is a field there or the reverse, or a field of another type.
     * Columns the target has beyond the rollup's (a removed rollup's other aggregates) are fine.
     */
    public static Optional<String> conflict(MeasurementSchema existing, MeasurementSchema source, Set<Aggregate> aggregates) {
        for (Column c : targetColumns(source, aggregates)) {
            Optional<Column> there = existing.column(c.name());
            if (there.isPresent() && (there.get().kind() != c.kind() || there.get().type() != c.type())) {
                return Optional.of("column " + c.name() + " is " + describe(there.get()) + " in the target, the rollup writes "
                        + describe(c));
            }
        }
        return Optional.empty();
    }

    private static String describe(Column c) {
        return c.kind() == Column.Kind.FIELD ? "a " + c.type().name().toLowerCase(java.util.Locale.ROOT) + " field"
                : c.kind().name().toLowerCase(java.util.Locale.ROOT);
    }
}
