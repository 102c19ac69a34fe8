package io.chronix.bench.query.dialect;

/** A target refused or failed a query: non-2xx, or an error inside a 2xx body. */
public final class QueryFailedException extends RuntimeException {
    public QueryFailedException(String message) {
        super(message);
    }
}
