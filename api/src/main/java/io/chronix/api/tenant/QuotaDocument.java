package io.chronix.api.tenant;

import io.chronix.tenancy.InvalidInputException;
import io.chronix.tenancy.IsoDuration;
import io.chronix.tenancy.quota.QuotaOverrides;
import io.chronix.tenancy.quota.Quotas;
import io.swagger.v3.oas.annotations.media.Schema;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Quotas on the wire. In a request every field is optional (absent = the service default); in an
 * answer every field is the limit in force. Durations are ISO-8601 ({@code P30D}, {@code PT30S}).
 */
@Schema(description = "Tenant quotas. In requests, absent = the service default; in answers, the limits in force.")
public record QuotaDocument(
        @Schema(example = "10") Integer maxNamespaces,
        @Schema(example = "100000", description = "distinct series across the tenant") Long maxSeries,
        @Schema(example = "50000") Long maxIngestPointsPerSecond,
        @Schema(example = "10737418240", description = "hot + cold") Long maxStoredBytes,
        @Schema(example = "10485760", description = "on the wire or decompressed") Long maxRequestBytes,
        @Schema(example = "P365D", description = "ISO-8601 duration; the longest retention a namespace may have") String maxRetention,
        @Schema(example = "PT30S", description = "ISO-8601 duration") String queryTimeout,
        @Schema(example = "4") Integer maxConcurrentQueries) {

    public static QuotaDocument of(Quotas q) {
        return new QuotaDocument(q.maxNamespaces(), q.maxSeries(), q.maxIngestPointsPerSecond(), q.maxStoredBytes(),
                q.maxRequestBytes(), IsoDuration.format(q.maxRetention()), IsoDuration.format(q.queryTimeout()), q.maxConcurrentQueries());
    }

    /** The operator's values; bad durations are named with {@code prefix} ({@code quotas.}). */
    public QuotaOverrides toOverrides(String prefix) {
        List<InvalidInputException.FieldError> errors = new ArrayList<>();
        Duration retention = duration(errors, prefix + "maxRetention", maxRetention);
        Duration timeout = duration(errors, prefix + "queryTimeout", queryTimeout);
        QuotaOverrides o = new QuotaOverrides(maxNamespaces, maxSeries, maxIngestPointsPerSecond, maxStoredBytes,
                maxRequestBytes, retention, timeout, maxConcurrentQueries);
        try {
            o.check(prefix);
        } catch (InvalidInputException e) {
            errors.addAll(e.errors());
        }
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
        return o;
    }

    private static Duration duration(List<InvalidInputException.FieldError> errors, String field, String text) {
        try {
            return IsoDuration.parse(field, text);
        } catch (InvalidInputException e) {
            errors.addAll(e.errors());
            return null;
        }
    }
}
