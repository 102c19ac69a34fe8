package io.chronix.engine.schema;

import io.chronix.engine.model.FieldType;

import java.util.Objects;

/**
 * One column of a measurement's SQL view.
 *
 * @param type the field's type; {@code null} for the time column and for tags (always strings)
 */
public record Column(String name, Kind kind, FieldType type) {

    /** The name of the timestamp column, first in every measurement. */
    public static final String TIME = "time";

    public enum Kind { TIME, TAG, FIELD }

    public Column {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        if ((kind == Kind.FIELD) != (type != null)) {
            throw new IllegalArgumentException("a field column has a type and only a field column does: " + name);
        }
    }

    public static Column time() {
        return new Column(TIME, Kind.TIME, null);
    }

    public static Column tag(String name) {
        return new Column(name, Kind.TAG, null);
    }

    public static Column field(String name, FieldType type) {
        return new Column(name, Kind.FIELD, type);
    }
}
