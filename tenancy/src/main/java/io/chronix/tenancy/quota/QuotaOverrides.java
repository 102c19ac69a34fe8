package io.chronix.tenancy.quota;

import io.chronix.tenancy.InvalidInputException;
import io.chronix.tenancy.InvalidInputException.FieldError;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The limits an operator set for one tenant; a null field means "the service default". Bounds keep
 * out negative and absurd values (see {@link #check(String)}).
 */
public record QuotaOverrides(Integer maxNamespaces, Long maxSeries, Long maxIngestPointsPerSecond, Long maxStoredBytes,
                             Long maxRequestBytes, Duration maxRetention, Duration queryTimeout, Integer maxConcurrentQueries) {

    public static final QuotaOverrides NONE = new QuotaOverrides(null, null, null, null, null, null, null, null);

    static final long MAX_NAMESPACES = 100_000;
    static final long MAX_SERIES = 10_000_000_000L;
    static final long MAX_INGEST_RATE = 1_000_000_000L;
    static final long MAX_STORED_BYTES = 1L << 60;       // 1 EiB
    static final long MAX_REQUEST_BYTES = 1L << 30;      // 1 GiB
    static final Duration MIN_RETENTION = Duration.ofHours(1);
    static final Duration MAX_RETENTION = Duration.ofDays(36_500);
    static final Duration MAX_QUERY_TIMEOUT = Duration.ofHours(24);
    static final long MAX_CONCURRENT_QUERIES = 10_000;

    /** The effective limits: each set field here, the default's elsewhere. */
    public Quotas over(Quotas defaults) {
        return new Quotas(
                maxNamespaces != null ? maxNamespaces : defaults.maxNamespaces(),
                maxSeries != null ? maxSeries : defaults.maxSeries(),
                maxIngestPointsPerSecond != null ? maxIngestPointsPerSecond : defaults.maxIngestPointsPerSecond(),
                maxStoredBytes != null ? maxStoredBytes : defaults.maxStoredBytes(),
                maxRequestBytes != null ? maxRequestBytes : defaults.maxRequestBytes(),
                maxRetention != null ? maxRetention : defaults.maxRetention(),
                queryTimeout != null ? queryTimeout : defaults.queryTimeout(),
                maxConcurrentQueries != null ? maxConcurrentQueries : defaults.maxConcurrentQueries());
    }

    /** Throws one {@link InvalidInputException} naming every field out of bounds, prefixed by {@code prefix}. */
    public QuotaOverrides check(String prefix) {
        List<FieldError> errors = new ArrayList<>();
        range(errors, prefix + "maxNamespaces", maxNamespaces == null ? null : maxNamespaces.longValue(), 0, MAX_NAMESPACES);
        range(errors, prefix + "maxSeries", maxSeries, 0, MAX_SERIES);
        range(errors, prefix + "maxIngestPointsPerSecond", maxIngestPointsPerSecond, 0, MAX_INGEST_RATE);
        range(errors, prefix + "maxStoredBytes", maxStoredBytes, 0, MAX_STORED_BYTES);
        range(errors, prefix + "maxRequestBytes", maxRequestBytes, 1, MAX_REQUEST_BYTES);
        range(errors, prefix + "maxRetention", maxRetention, MIN_RETENTION, MAX_RETENTION);
        range(errors, prefix + "queryTimeout", queryTimeout, Duration.ofMillis(1), MAX_QUERY_TIMEOUT);
        range(errors, prefix + "maxConcurrentQueries", maxConcurrentQueries == null ? null : maxConcurrentQueries.longValue(), 0, MAX_CONCURRENT_QUERIES);
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
        return this;
    }

    private static void range(List<FieldError> errors, String field, Long v, long min, long max) {
        if (v != null && (v < min || v > max)) {
            errors.add(new FieldError(field, "must be between " + min + " and " + max + ", got " + v));
        }
    }

    private static void range(List<FieldError> errors, String field, Duration v, Duration min, Duration max) {
        if (v != null && (v.compareTo(min) < 0 || v.compareTo(max) > 0)) {
            errors.add(new FieldError(field, "must be between " + min + " and " + max + ", got " + v));
        }
    }
}
