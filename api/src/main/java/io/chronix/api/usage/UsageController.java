package io.chronix.api.usage;

import io.chronix.api.security.TenantAccess;
import io.chronix.api.security.TenantPrincipal;
import io.chronix.tenancy.IsoDuration;
import io.chronix.tenancy.quota.QuotaService;
import io.chronix.tenancy.quota.Quotas;
import io.chronix.tenancy.token.Scope;
import io.chronix.tenancy.usage.TenantUsage;
import io.chronix.tenancy.usage.UsageService;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import java.util.LinkedHashMap;
import java.util.Map;

/** {@code GET /api/v1/usage}: each quota's limit beside what the tenant uses of it. */
@RestController
@Tag(name = "Tenant: usage")
@SecurityRequirement(name = "bearer")
class UsageController {

    private final TenantAccess access;
    private final UsageService usage;
    private final QuotaService quotas;

    UsageController(TenantAccess access, UsageService usage, QuotaService quotas) {
        this.access = access;
        this.usage = usage;
        this.quotas = quotas;
    }

    /** @param used null where usage is a rate or per request, which the data plane measures live */
    record Line(Object limit, Object used) {
    }

    @GetMapping("/api/v1/usage")
    @Operation(summary = "Usage against quotas", description = "admin:*. One entry per quota: limit and used. "
            + "maxRetention's used is the longest retention of a namespace; rate and per-request limits have used = null.")
    @ApiResponse(responseCode = "200", content = @Content(examples = @ExampleObject("""
            {"maxNamespaces": {"limit": 10, "used": 2}, "maxSeries": {"limit": 100000, "used": 123},
             "maxIngestPointsPerSecond": {"limit": 50000, "used": null}, "maxStoredBytes": {"limit": 10737418240, "used": 4567},
             "maxRequestBytes": {"limit": 10485760, "used": null}, "maxRetention": {"limit": "P365D", "used": "P30D"},
             "queryTimeout": {"limit": "PT30S", "used": null}, "maxConcurrentQueries": {"limit": 4, "used": null}}""")))
    Map<String, Line> usage(Authentication auth) {
        TenantPrincipal p = access.requireAll(auth, Scope.Action.ADMIN);
        Quotas q = quotas.effective(p.tenantId());
        TenantUsage u = usage.ofTenant(p.tenantId());
        Map<String, Line> out = new LinkedHashMap<>();
        out.put("maxNamespaces", new Line(q.maxNamespaces(), u.namespaces()));
        out.put("maxSeries", new Line(q.maxSeries(), u.series()));
        out.put("maxIngestPointsPerSecond", new Line(q.maxIngestPointsPerSecond(), null));
        out.put("maxStoredBytes", new Line(q.maxStoredBytes(), u.storedBytes()));
        out.put("maxRequestBytes", new Line(q.maxRequestBytes(), null));
        out.put("maxRetention", new Line(IsoDuration.format(q.maxRetention()), IsoDuration.format(u.longestRetention())));
        out.put("queryTimeout", new Line(IsoDuration.format(q.queryTimeout()), null));
        out.put("maxConcurrentQueries", new Line(q.maxConcurrentQueries(), null));
        return out;
    }
}
