package io.chronix.api.tenant;

import io.chronix.api.security.TenantTokenResolver;
import io.chronix.tenancy.NotFoundException;
import io.chronix.tenancy.Page;
import io.chronix.tenancy.quota.QuotaService;
import io.chronix.tenancy.tenant.CreatedTenant;
import io.chronix.tenancy.tenant.NewTenant;
import io.chronix.tenancy.tenant.Tenant;
import io.chronix.tenancy.tenant.TenantService;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** The operator's tenant endpoints (the operator token only; the security chain enforces it). */
@RestController
@RequestMapping("/api/v1/tenants")
@Tag(name = "Operator: tenants", description = "Create, list, inspect and delete tenants; their quotas. Operator token only.")
@SecurityRequirement(name = "bearer")
class TenantController {

    private final TenantService tenants;
    private final QuotaService quotas;
    private final TenantTokenResolver tokenCache;

    TenantController(TenantService tenants, QuotaService quotas, TenantTokenResolver tokenCache) {
        this.tenants = tenants;
        this.quotas = quotas;
        this.tokenCache = tokenCache;
    }

    record CreateTenant(
            @Schema(example = "acme", pattern = "[a-z0-9][a-z0-9_-]{0,62}", requiredMode = Schema.RequiredMode.REQUIRED) String name,
            @Schema(example = "ops@acme.example", description = "optional: the console login of the tenant's administrator") String adminEmail,
            @Schema(example = "correct horse battery staple", description = "required with adminEmail; 8 characters to 72 bytes") String adminPassword,
            QuotaDocument quotas) {

        @Override
        public String toString() {
            return "CreateTenant[name=" + name + ", adminEmail=" + adminEmail + "]";
        }
    }

    record TenantCreated(
            @Schema(example = "0b6f3f1e-8f3e-4c71-9d0a-6f4f0c7c2a11") String id,
            @Schema(example = "acme") String name,
            @Schema(example = "2026-12-01T20:00:00Z") Instant createdAt,
            @Schema(example = "cx_abcdefghijklmnop_abcdefghijklmnopqrstuvwxyz234567",
                    description = "scopes admin:*, read:*, write:*; shown only in this answer") String adminToken) {

        /** Without the token: Spring MVC logs the value it writes at DEBUG. */
        @Override
        public String toString() {
            return "TenantCreated[id=" + id + ", name=" + name + "]";
        }
    }

    record TenantView(@Schema(example = "0b6f3f1e-8f3e-4c71-9d0a-6f4f0c7c2a11") String id,
                      @Schema(example = "acme") String name,
                      @Schema(example = "2026-12-01T20:00:00Z") Instant createdAt) {
        static TenantView of(Tenant t) {
            return new TenantView(t.id().toString(), t.name(), t.createdAt());
        }
    }

    @PostMapping
    @Operation(summary = "Create a tenant", description = "Creates the tenant, its console user (if adminEmail is given), its quotas and a first admin token, in one transaction. The token is shown only in this answer.")
    @ApiResponse(responseCode = "201", description = "created")
    @ApiResponse(responseCode = "400", description = "invalid-field, unknown-field, malformed-json")
    @ApiResponse(responseCode = "409", description = "name-taken (name or adminEmail)")
    ResponseEntity<TenantCreated> create(@RequestBody CreateTenant body) {
        CreatedTenant created = tenants.create(new NewTenant(body.name(), body.adminEmail(), body.adminPassword(),
                body.quotas() == null ? null : body.quotas().toOverrides("quotas.")));
        Tenant t = created.tenant();
        return ResponseEntity.created(URI.create("/api/v1/tenants/" + t.id()))
                .body(new TenantCreated(t.id().toString(), t.name(), t.createdAt(), created.adminToken().token()));
    }

    @GetMapping
    @Operation(summary = "List tenants", description = "Live tenants by name; limit 1-1000 (default 100), offset from 0.")
    List<TenantView> list(@RequestParam(defaultValue = "100") int limit, @RequestParam(defaultValue = "0") int offset) {
        return tenants.list(new Page(limit, offset)).stream().map(TenantView::of).toList();
    }

    @GetMapping("/{id}")
    @Operation(summary = "Get a tenant")
    @ApiResponse(responseCode = "404", description = "tenant-not-found")
    TenantView get(@PathVariable String id) {
        return TenantView.of(tenants.find(parse(id)).orElseThrow(() -> notFound(id)));
    }

    @DeleteMapping("/{id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    @Operation(summary = "Delete a tenant", description = "At once: its tokens stop working and its namespaces answer 404; its users, quotas and usage are removed. Every namespace's data is removed in the background (the removal survives restarts).")
    @ApiResponse(responseCode = "204", description = "deleted")
    @ApiResponse(responseCode = "404", description = "tenant-not-found")
    void delete(@PathVariable String id) {
        if (!tenants.delete(parse(id))) {
            throw notFound(id);
        }
        tokenCache.invalidateAll();
    }

    @GetMapping("/{id}/quotas")
    @Operation(summary = "Get a tenant's quotas", description = "The limits in force: the tenant's own values and the service defaults for the rest.")
    @ApiResponse(responseCode = "404", description = "tenant-not-found")
    QuotaDocument quotas(@PathVariable String id) {
        UUID tenant = parse(id);
        tenants.find(tenant).orElseThrow(() -> notFound(id));
        return QuotaDocument.of(quotas.effective(tenant));
    }

    @PutMapping("/{id}/quotas")
    @Operation(summary = "Replace a tenant's quotas", description = "Every field is optional; an absent field returns to the service default. Answers the limits now in force.")
    @ApiResponse(responseCode = "400", description = "invalid-field (negative or absurd values, durations that do not parse)")
    @ApiResponse(responseCode = "404", description = "tenant-not-found")
    QuotaDocument putQuotas(@PathVariable String id, @RequestBody QuotaDocument body) {
        UUID tenant = parse(id);
        quotas.replace(tenant, body.toOverrides(""));
        return QuotaDocument.of(quotas.effective(tenant));
    }

    private static UUID parse(String id) {
        try {
            return UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            throw notFound(id);
        }
    }

    private static NotFoundException notFound(String id) {
        return new NotFoundException(NotFoundException.Kind.TENANT, id);
    }
}
