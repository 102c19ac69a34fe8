package io.chronix.engine.error;

/**
 * A write would give a measurement two columns of one name: a tag and a field of the same name, or
 * a tag or field named {@code time} (the timestamp column). Nothing of the batch is written.
 */
public final class ColumnConflictException extends EngineException {

    private final String measurement;
    private final String column;

    public ColumnConflictException(String measurement, String column, String reason) {
        super(describe("column name conflict", "measurement", measurement, "column", column, "reason", reason));
        this.measurement = measurement;
        this.column = column;
    }

    public String measurement() {
        return measurement;
    }

    public String column() {
        return column;
    }
}
