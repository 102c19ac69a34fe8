package io.chronix.api.sql;

/** The statement was interrupted by {@link SqlQuery#cancel()} (a timeout, the client gone). */
public final class QueryCancelledException extends RuntimeException {
    public QueryCancelledException() {
        super("query cancelled");
    }
}
