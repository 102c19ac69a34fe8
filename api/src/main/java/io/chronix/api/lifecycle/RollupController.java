package io.chronix.api.lifecycle;

import io.chronix.api.engine.EngineRegistry;
import io.chronix.api.error.Problems;
import io.chronix.api.security.TenantAccess;
import io.chronix.engine.Chronix;
import io.chronix.engine.rollup.Aggregate;
import io.chronix.engine.rollup.InvalidRollupException;
import io.chronix.engine.rollup.RollupConfig;
import io.chronix.engine.rollup.RollupInfo;
import io.chronix.engine.rollup.TimeBucket;
import io.chronix.tenancy.InvalidInputException;
import io.chronix.tenancy.NameTakenException;
import io.chronix.tenancy.namespace.Namespace;
import io.chronix.tenancy.token.Scope;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The rollup endpoints of API.md "Data lifecycle" (scope {@code admin}): define, list, show,
 * remove and refresh a namespace's rollups. Definitions and state live in the namespace's engine
 * (its catalog), which materialises them after every compaction pass; this class only checks the
 * request, names the field a refusal is about, and shows the state.
 */
@RestController
@Tag(name = "Data lifecycle", description = "Rollups and deletes; admin:<ns> or admin:*.")
@SecurityRequirement(name = "bearer")
class RollupController {

    private final TenantAccess access;
    private final EngineRegistry engines;

    RollupController(TenantAccess access, EngineRegistry engines) {
        this.access = access;
        this.engines = engines;
    }

    record CreateRollup(
            @Schema(example = "cpu_1h", pattern = "[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}", requiredMode = Schema.RequiredMode.REQUIRED) String name,
            @Schema(example = "cpu", requiredMode = Schema.RequiredMode.REQUIRED, description = "the measurement (or another rollup's target) read") String source,
            @Schema(example = "cpu_1h", description = "the measurement written; absent = the rollup's name") String target,
            @Schema(example = "1h", requiredMode = Schema.RequiredMode.REQUIRED, description = "<n><ns|us|ms|s|m|h|d|w|mo|y>; d and longer follow the time zone's calendar") String every,
            @Schema(example = "Europe/Berlin", description = "IANA zone or offset; absent = UTC") String timezone,
            @Schema(example = "2026-01-01", nullable = true, description = "a date, local date-time or instant buckets count from; null = the width's default") String origin,
            @Schema(example = "[\"avg\", \"min\", \"max\", \"count\", \"sum\", \"first\", \"last\"]",
                    description = "at least one of avg, min, max, first, last, sum, count; absent = all seven") List<String> aggregates) {
    }

    record RefreshRange(
            @Schema(example = "2026-12-01T00:00:00Z", requiredMode = Schema.RequiredMode.REQUIRED, description = "RFC 3339, inclusive") String start,
            @Schema(example = "2026-12-02T00:00:00Z", requiredMode = Schema.RequiredMode.REQUIRED, description = "RFC 3339, exclusive") String end) {
    }

    @GetMapping("/api/v1/namespaces/{ns}/rollups")
    @Operation(summary = "List rollups", description = "The namespace's rollups with their watermark and pending repairs, sources before the tiers that read their targets.")
    List<RollupView> list(@PathVariable("ns") String namespace, Authentication auth) {
        return withEngine(auth, namespace, e -> e.rollups().stream().map(RollupView::of).toList());
    }

    @PostMapping("/api/v1/namespaces/{ns}/rollups")
    @Operation(summary = "Define a rollup", description = """
            Downsamples the source measurement into the target, bucket by bucket: every numeric field gets the chosen \
            aggregates as <field>_<aggregate> columns, tags are kept. Durable before the answer (201 with the rollup); \
            materialised after the next compaction pass (POST …/compact runs one now), and the target is queryable at once \
            (its live half is computed from the source). 400 names the field refused (width, zone, origin, aggregate, a \
            chain that would feed itself, a target of another shape or already written by another rollup); 409 for a \
            name in use.""")
    ResponseEntity<RollupView> create(@PathVariable("ns") String namespace, @RequestBody CreateRollup body, Authentication auth) {
        Namespace ns = access.namespace(auth, namespace, Scope.Action.ADMIN);
        RollupConfig config = validate(body);
        RollupInfo info = engines.applyLive(ns, e -> {
            try {
                return e.addRollup(config);
            } catch (InvalidRollupException ex) {
                if ("name".equals(ex.subject()) && e.rollup(config.name()).isPresent()) {
                    throw new NameTakenException("name", config.name());
                }
                throw invalid(ex);
            }
        });
        return ResponseEntity.created(URI.create("/api/v1/namespaces/" + path(ns.name()) + "/rollups/" + path(config.name())))
                .body(RollupView.of(info));
    }

    @GetMapping("/api/v1/namespaces/{ns}/rollups/{name}")
    @Operation(summary = "Show a rollup", description = "Its definition, materialisedUntil (RFC 3339, null before the first pass) and the pending invalid ranges. 404 rollup-not-found.")
    RollupView get(@PathVariable("ns") String namespace, @PathVariable("name") String name, Authentication auth) {
        return withEngine(auth, namespace, e -> RollupView.of(e.rollup(name).orElseThrow(() -> new RollupNotFoundException(name))));
    }

    @DeleteMapping("/api/v1/namespaces/{ns}/rollups/{name}")
    @Operation(summary = "Remove a rollup", description = """
            204 once the removal is durable. The target keeps the points already materialised (remove them with POST …/delete) \
            and stops being computed. 404 rollup-not-found.""")
    ResponseEntity<Void> delete(@PathVariable("ns") String namespace, @PathVariable("name") String name, Authentication auth) {
        boolean removed = withEngine(auth, namespace, e -> e.removeRollup(name));
        if (!removed) {
            throw new RollupNotFoundException(name);
        }
        return ResponseEntity.noContent().build();
    }

    @PostMapping("/api/v1/namespaces/{ns}/rollups/{name}/refresh")
    @Operation(summary = "Recompute a range of a rollup", description = """
            Marks the buckets overlapping [start, end) invalid (durably), runs a materialisation pass now and answers the rollup \
            after it: the range is recomputed from the source unless lastError says why not (it then stays pending and the \
            next pass retries). 400 names start / end; 404 rollup-not-found.""")
    RollupView refresh(@PathVariable("ns") String namespace, @PathVariable("name") String name, @RequestBody RefreshRange body,
                       Authentication auth) {
        Namespace ns = access.namespace(auth, namespace, Scope.Action.ADMIN);
        long[] range = validate(body);
        return engines.applyLive(ns, e -> {
            if (e.rollup(name).isEmpty()) {
                throw new RollupNotFoundException(name);
            }
            try {
                e.refreshRollup(name, range[0], range[1]);
            } catch (InvalidRollupException ex) {
                throw new RollupNotFoundException(name); // removed between the check and the refresh
            }
            e.materialiseRollups();
            return RollupView.of(e.rollup(name).orElseThrow(() -> new RollupNotFoundException(name)));
        });
    }

    private <T> T withEngine(Authentication auth, String namespace, Function<Chronix, T> work) {
        return engines.applyLive(access.namespace(auth, namespace, Scope.Action.ADMIN), work);
    }

    /** Every field the API can check itself, at once; then the bucket and the engine's own rules (one at a time). */
    static RollupConfig validate(CreateRollup body) {
        if (body == null) {
            throw new InvalidInputException("name", "is required");
        }
        List<InvalidInputException.FieldError> errors = new ArrayList<>();
        required("name", body.name(), errors);
        required("source", body.source(), errors);
        required("every", body.every(), errors);
        if (body.target() != null && body.target().isBlank()) {
            errors.add(new InvalidInputException.FieldError("target", "must not be blank (absent = the rollup's name)"));
        }
        Set<Aggregate> aggregates = EnumSet.allOf(Aggregate.class);
        if (body.aggregates() != null) {
            aggregates = EnumSet.noneOf(Aggregate.class);
            if (body.aggregates().isEmpty()) {
                errors.add(new InvalidInputException.FieldError("aggregates", "needs at least one of avg, min, max, first, last, sum, count"));
            }
            for (int i = 0; i < body.aggregates().size(); i++) {
                try {
                    aggregates.add(Aggregate.of(body.aggregates().get(i)));
                } catch (InvalidRollupException e) {
                    errors.add(new InvalidInputException.FieldError("aggregates[" + i + "]",
                            "is not one of avg, min, max, first, last, sum, count"));
                }
            }
        }
        TimeBucket bucket = null;
        if (body.every() != null && !body.every().isBlank()) {
            try {
                TimeBucket.Builder b = TimeBucket.builder().every(body.every().strip()).origin(body.origin());
                if (body.timezone() != null) {
                    b.timezone(body.timezone().strip());
                }
                bucket = b.build();
            } catch (InvalidRollupException e) {
                errors.add(fieldError(e));
            }
        }
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
        try {
            return new RollupConfig(body.name(), body.source(), body.target() == null ? body.name() : body.target(), bucket, aggregates);
        } catch (InvalidRollupException e) {
            throw invalid(e);
        }
    }

    /** The range of a refresh as {@code [from, to)} nanoseconds. */
    static long[] validate(RefreshRange body) {
        if (body == null) {
            throw new InvalidInputException("start", "is required");
        }
        List<InvalidInputException.FieldError> errors = new ArrayList<>();
        required("start", body.start(), errors);
        required("end", body.end(), errors);
        Long start = DeleteController.timestamp("start", body.start(), errors);
        Long end = DeleteController.timestamp("end", body.end(), errors);
        if (start != null && end != null && start >= end) {
            errors.add(new InvalidInputException.FieldError("end", "must be after start"));
        }
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
        return new long[] {start, end};
    }

    private static void required(String field, String value, List<InvalidInputException.FieldError> errors) {
        if (value == null || value.isBlank()) {
            errors.add(new InvalidInputException.FieldError(field, "is required"));
        }
    }

    private static InvalidInputException invalid(InvalidRollupException e) {
        return new InvalidInputException(List.of(fieldError(e)));
    }

    /** The engine names the part it refused ({@code every}, {@code timezone}, {@code origin}, {@code target}…): the body's field of that name. */
    private static InvalidInputException.FieldError fieldError(InvalidRollupException e) {
        String field = "aggregate".equals(e.subject()) ? "aggregates" : e.subject();
        String message = e.getMessage();
        int bracket = message.lastIndexOf(" [");
        return new InvalidInputException.FieldError(field, bracket > 0 ? message.substring(0, bracket) : message);
    }

    private static String path(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** A rollup name the namespace does not have. */
    static final class RollupNotFoundException extends RuntimeException {
        final String name;

        RollupNotFoundException(String name) {
            super("no such rollup [name=" + name + "]");
            this.name = name;
        }
    }

    @ExceptionHandler(RollupNotFoundException.class)
    ProblemDetail notFound(RollupNotFoundException e) {
        StringBuilder printable = new StringBuilder();
        e.name.codePoints().limit(128).forEach(c -> printable.appendCodePoint(Character.isISOControl(c) ? '?' : c));
        return Problems.of(HttpStatus.NOT_FOUND, "rollup-not-found", "Rollup not found",
                "The namespace has no rollup named '" + printable + "'.");
    }
}
