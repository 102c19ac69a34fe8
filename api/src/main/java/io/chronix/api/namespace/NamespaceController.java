package io.chronix.api.namespace;

import io.chronix.api.security.TenantAccess;
import io.chronix.api.security.TenantPrincipal;
import io.chronix.tenancy.IsoDuration;
import io.chronix.tenancy.NotFoundException;
import io.chronix.tenancy.Page;
import io.chronix.tenancy.namespace.Namespace;
import io.chronix.tenancy.namespace.NamespaceService;
import io.chronix.tenancy.token.Scope;
import io.chronix.tenancy.usage.NamespaceUsage;
import io.chronix.tenancy.usage.UsageService;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Tenant administration of namespaces (scope {@code admin}). */
@RestController
@RequestMapping("/api/v1/namespaces")
@Tag(name = "Tenant: namespaces", description = "A tenant's namespaces. admin:* for the list and creation; admin:<ns> or admin:* for one namespace.")
@SecurityRequirement(name = "bearer")
class NamespaceController {

    private final TenantAccess access;
    private final NamespaceService namespaces;
    private final UsageService usage;

    NamespaceController(TenantAccess access, NamespaceService namespaces, UsageService usage) {
        this.access = access;
        this.namespaces = namespaces;
        this.usage = usage;
    }

    record CreateNamespace(
            @Schema(example = "metrics", pattern = "[a-z0-9][a-z0-9_-]{0,62}", requiredMode = Schema.RequiredMode.REQUIRED) String name,
            @Schema(example = "P30D", description = "ISO-8601 duration, at most the tenant's maxRetention (the default)") String retention,
            @Schema(example = "P7D", description = "ISO-8601 duration, at most the retention; absent = the service's policy") String coldAfter) {
    }

    record UpdateNamespace(@Schema(example = "P90D") String retention, @Schema(example = "P14D") String coldAfter) {
    }

    record NamespaceView(@Schema(example = "metrics") String name,
                         @Schema(example = "P30D") String retention,
                         @Schema(example = "P7D", nullable = true) String coldAfter,
                         @Schema(example = "2026-12-01T20:00:00Z") Instant createdAt,
                         @Schema(example = "123") long series,
                         @Schema(example = "4567", description = "hot and cold together, as last reported") long storedBytes,
                         @Schema(example = "1200", description = "of storedBytes, the archived objects in the cold tier (the rest is hot)") long coldBytes) {
        static NamespaceView of(Namespace ns, NamespaceUsage u) {
            return new NamespaceView(ns.name(), IsoDuration.format(ns.retention()), IsoDuration.format(ns.coldAfter()), ns.createdAt(),
                    u.series(), u.storedBytes(), u.coldBytes());
        }
    }

    @GetMapping
    @Operation(summary = "List namespaces", description = "The tenant's live namespaces by name, with series and stored bytes; limit 1-1000 (default 100), offset from 0.")
    List<NamespaceView> list(Authentication auth, @RequestParam(defaultValue = "100") int limit, @RequestParam(defaultValue = "0") int offset) {
        TenantPrincipal p = access.requireAll(auth, Scope.Action.ADMIN);
        List<Namespace> page = namespaces.list(p.tenantId(), new Page(limit, offset));
        Map<Long, NamespaceUsage> u = usage.ofNamespaces(p.tenantId(), page.stream().map(Namespace::id).toList());
        return page.stream().map(ns -> NamespaceView.of(ns, u.getOrDefault(ns.id(), NamespaceUsage.empty(ns.id())))).toList();
    }

    @PostMapping
    @Operation(summary = "Create a namespace", description = "Writes only the namespace's record; its data directory appears on first write.")
    @ApiResponse(responseCode = "201", description = "created")
    @ApiResponse(responseCode = "400", description = "invalid-field (name rules, durations), unknown-field, malformed-json")
    @ApiResponse(responseCode = "409", description = "name-taken")
    @ApiResponse(responseCode = "422", description = "quota-exceeded (maxNamespaces, maxRetention)")
    ResponseEntity<NamespaceView> create(Authentication auth, @RequestBody CreateNamespace body) {
        TenantPrincipal p = access.requireAll(auth, Scope.Action.ADMIN);
        Namespace ns = namespaces.create(p.tenantId(), body.name(), IsoDuration.parse("retention", body.retention()),
                IsoDuration.parse("coldAfter", body.coldAfter()));
        return ResponseEntity.created(URI.create("/api/v1/namespaces/" + ns.name())).body(NamespaceView.of(ns, NamespaceUsage.empty(ns.id())));
    }

    @GetMapping("/{ns}")
    @Operation(summary = "Get a namespace")
    @ApiResponse(responseCode = "404", description = "namespace-not-found: also for another tenant's namespace, with the same body")
    NamespaceView get(Authentication auth, @PathVariable("ns") String name) {
        Namespace ns = access.namespace(auth, name, Scope.Action.ADMIN);
        return view(ns);
    }

    @PatchMapping("/{ns}")
    @Operation(summary = "Change retention and/or coldAfter", description = "Absent (or null) fields are left as they are.")
    @ApiResponse(responseCode = "404", description = "namespace-not-found")
    @ApiResponse(responseCode = "422", description = "quota-exceeded (maxRetention)")
    NamespaceView patch(Authentication auth, @PathVariable("ns") String name, @RequestBody UpdateNamespace body) {
        Namespace ns = access.namespace(auth, name, Scope.Action.ADMIN);
        Namespace changed = namespaces.update(ns.tenantId(), ns.name(), IsoDuration.parse("retention", body.retention()),
                IsoDuration.parse("coldAfter", body.coldAfter()));
        return view(changed);
    }

    @DeleteMapping("/{ns}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    @Operation(summary = "Delete a namespace", description = "Answers 404 from now on; its data is removed in the background (the removal survives restarts).")
    @ApiResponse(responseCode = "204", description = "deleted")
    @ApiResponse(responseCode = "404", description = "namespace-not-found")
    void delete(Authentication auth, @PathVariable("ns") String name) {
        Namespace ns = access.namespace(auth, name, Scope.Action.ADMIN);
        if (!namespaces.delete(ns.tenantId(), ns.name())) {
            throw new NotFoundException(NotFoundException.Kind.NAMESPACE, name); // deleted concurrently
        }
    }

    private NamespaceView view(Namespace ns) {
        NamespaceUsage u = usage.ofNamespaces(ns.tenantId(), List.of(ns.id())).getOrDefault(ns.id(), NamespaceUsage.empty(ns.id()));
        return NamespaceView.of(ns, u);
    }
}
