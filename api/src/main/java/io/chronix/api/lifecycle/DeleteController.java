package io.chronix.api.lifecycle;

import io.chronix.api.engine.EngineRegistry;
import io.chronix.api.security.TenantAccess;
import io.chronix.engine.lifecycle.DeleteRequest;
import io.chronix.engine.lifecycle.DeleteResult;
import io.chronix.tenancy.InvalidInputException;
import io.chronix.tenancy.namespace.Namespace;
import io.chronix.tenancy.token.Scope;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code POST /api/v1/namespaces/{ns}/delete} (scope {@code admin}): deletes the points of the
 * matching series for good — as the engine's delete does (tombstones, durable before the answer).
 * {@code "dryRun": true} (an addition to the contract) answers how many series and points would go.
 */
@RestController
@Tag(name = "Data lifecycle", description = "Rollups and deletes; admin:<ns> or admin:*.")
@SecurityRequirement(name = "bearer")
class DeleteController {

    private final TenantAccess access;
    private final EngineRegistry engines;

    DeleteController(TenantAccess access, EngineRegistry engines) {
        this.access = access;
        this.engines = engines;
    }

    record DeleteBody(
            @Schema(example = "cpu", requiredMode = Schema.RequiredMode.REQUIRED) String measurement,
            @Schema(description = "series whose tags include all of these; absent = every series of the measurement") Map<String, String> tags,
            @Schema(example = "2026-12-01T00:00:00Z", description = "RFC 3339, inclusive; absent = from the first point") String start,
            @Schema(example = "2026-12-02T00:00:00Z", description = "RFC 3339, inclusive; absent = up to each series' newest stored point") String end,
            @Schema(description = "answer {\"dryRun\": true, \"series\": n, \"points\": m} and delete nothing") Boolean dryRun) {
    }

    @PostMapping("/api/v1/namespaces/{ns}/delete")
    @Operation(summary = "Delete points", description = """
            Deletes the points of every series of the measurement whose tags include the given ones, within [start, end] \
            (both inclusive, RFC 3339). Answers {"seriesDeleted": n, "pointsDeleted": m} once the delete is durable; deleted \
            points never reappear (not after compaction, restart or further writes); a later write of a deleted series is kept. \
            With "dryRun": true answers {"dryRun": true, "series": n, "points": m} and changes nothing. 400 names the invalid field.""")
    Map<String, Object> delete(@PathVariable("ns") String namespace, @RequestBody DeleteBody body, Authentication auth) {
        Namespace ns = access.namespace(auth, namespace, Scope.Action.ADMIN);
        DeleteRequest request = validate(body);
        DeleteResult r = engines.apply(ns, e -> e.delete(request));
        Map<String, Object> answer = new LinkedHashMap<>();
        if (r.dryRun()) {
            answer.put("dryRun", true);
            answer.put("series", r.seriesDeleted());
            answer.put("points", r.pointsDeleted());
        } else {
            answer.put("seriesDeleted", r.seriesDeleted());
            answer.put("pointsDeleted", r.pointsDeleted());
        }
        return answer;
    }

    /** Every invalid field at once, as 400 {@code invalid-field}. */
    static DeleteRequest validate(DeleteBody body) {
        List<InvalidInputException.FieldError> errors = new ArrayList<>();
        if (body == null) {
            throw new InvalidInputException("measurement", "is required");
        }
        if (body.measurement() == null || body.measurement().isBlank()) {
            errors.add(new InvalidInputException.FieldError("measurement", "is required"));
        }
        Map<String, String> tags = body.tags() == null ? Map.of() : body.tags();
        for (Map.Entry<String, String> t : tags.entrySet()) {
            if (t.getKey().isEmpty()) {
                errors.add(new InvalidInputException.FieldError("tags", "must not have an empty key"));
            } else if (t.getValue() == null) {
                errors.add(new InvalidInputException.FieldError("tags." + t.getKey(), "must be a string"));
            }
        }
        Long start = timestamp("start", body.start(), errors);
        Long end = timestamp("end", body.end(), errors);
        long s = start == null ? Long.MIN_VALUE : start;
        long e = end == null ? Long.MAX_VALUE : end;
        if (s > e) {
            errors.add(new InvalidInputException.FieldError("end", "must not be before start"));
        }
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
        return new DeleteRequest(body.measurement(), tags, s, e, Boolean.TRUE.equals(body.dryRun()), false);
    }

    /** An RFC 3339 timestamp as epoch nanoseconds; a bad one adds its error and answers {@code null} (as does an absent one). */
    static Long timestamp(String field, String value, List<InvalidInputException.FieldError> errors) {
        if (value == null) {
            return null;
        }
        try {
            Instant i = OffsetDateTime.parse(value).toInstant();
            return Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000_000L), i.getNano());
        } catch (DateTimeParseException ex) {
            errors.add(new InvalidInputException.FieldError(field, "must be an RFC 3339 timestamp, like 2026-12-01T00:00:00Z"));
        } catch (ArithmeticException ex) {
            errors.add(new InvalidInputException.FieldError(field, "is outside the range of nanosecond timestamps (1677-09-21 to 2262-04-11)"));
        }
        return null;
    }
}
