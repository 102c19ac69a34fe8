package io.chronix.engine.error;

import io.chronix.engine.model.FieldType;

/**
 * A write offers a field with a type other than the one its first write fixed in the measurement
 * (or two points of one batch disagree on a new field). Nothing of the batch is written.
 */
public final class FieldTypeConflictException extends EngineException {

    private final String measurement;
    private final String field;
    private final FieldType stored;
    private final FieldType offered;

    public FieldTypeConflictException(String measurement, String field, FieldType stored, FieldType offered) {
        super(describe("field type conflict", "measurement", measurement, "field", field, "stored", stored, "offered", offered));
        this.measurement = measurement;
        this.field = field;
        this.stored = stored;
        this.offered = offered;
    }

    public String measurement() {
        return measurement;
    }

    public String field() {
        return field;
    }

    /** The type the field already has (or, within one batch, the type its first point gave it). */
    public FieldType stored() {
        return stored;
    }

    public FieldType offered() {
        return offered;
    }
}
