package io.chronix.api.sql;

/**
 * A statement DuckDB (or our analysis of its parse tree) refuses: syntax, binding, conversion, an
 * unknown measurement, a statement that is not a query. The message is DuckDB's where it has one.
 *
 * @see #position()
 */
public final class SqlErrorException extends RuntimeException {

    private final String errorType;
    private final int position;

    /**
     * @param errorType DuckDB's error class ({@code Parser Error}, {@code Binder Error}...) or ours
     * @param position  0-based character offset into the statement, or -1 if unknown
     */
    public SqlErrorException(String errorType, String message, int position) {
        super(message);
        this.errorType = errorType;
        this.position = position;
    }

    public String errorType() {
        return errorType;
    }

    /** 0-based character offset into the statement, or -1 if unknown. */
    public int position() {
        return position;
    }
}
