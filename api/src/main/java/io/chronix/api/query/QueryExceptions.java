package io.chronix.api.query;

import java.time.Duration;

/** The refusals of the query surface that are not SQL errors. */
final class QueryExceptions {

    private QueryExceptions() {
    }

    /** Over the tenant's {@code queryTimeout}: 408. */
    static final class Timeout extends RuntimeException {
        final String tenant;
        final Duration limit;

        Timeout(String tenant, Duration limit) {
            super("query exceeded the query timeout");
            this.tenant = tenant;
            this.limit = limit;
        }
    }

    /** Over the tenant's {@code maxConcurrentQueries}: 429 with {@code Retry-After}. */
    static final class TooManyQueries extends RuntimeException {
        final String tenant;
        final int limit;

        TooManyQueries(String tenant, int limit) {
            super("too many concurrent queries");
            this.tenant = tenant;
            this.limit = limit;
        }
    }

    /** Over a memory bound ({@code chronix.query.max-scan-bytes} or DuckDB's memory limit): 422. */
    static final class TooLarge extends RuntimeException {
        final String limitName;
        final long limitBytes;

        TooLarge(String limitName, long limitBytes, Throwable cause) {
            super("query needs more memory than " + limitName + " allows", cause);
            this.limitName = limitName;
            this.limitBytes = limitBytes;
        }
    }

    /** {@code GET …/measurements/{m}} of a measurement the namespace does not hold: 404. */
    static final class MeasurementNotFound extends RuntimeException {
        final String measurement;

        MeasurementNotFound(String measurement) {
            super("no such measurement");
            this.measurement = measurement;
        }
    }

    /** No engine registry in this service: 503. */
    static final class Unavailable extends RuntimeException {
        Unavailable() {
            super("the query engine is not available");
        }
    }
}
