package io.chronix.api.activity;

import io.chronix.api.security.TenantAccess;
import io.chronix.api.security.TenantPrincipal;
import io.chronix.tenancy.token.Scope;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** {@code GET /api/v1/usage/activity}: the tenant's writes and limit events of the last day, as this process saw them. */
@RestController
@Tag(name = "Tenant: usage")
@SecurityRequirement(name = "bearer")
class ActivityController {

    private final TenantAccess access;
    private final TenantActivity activity;

    ActivityController(TenantAccess access, TenantActivity activity) {
        this.access = access;
        this.activity = activity;
    }

    record Activity(String bucket, Instant from, Instant to, List<TenantActivity.Bucket> points, double ingestPointsPerSecond,
                    Map<String, Long> limitEventsByLimit, List<TenantActivity.LimitEvent> limitEvents) {
    }

    @GetMapping("/api/v1/usage/activity")
    @Operation(summary = "Writes and limit events of the last 24 h", description = "admin:*. Points written per 5 minutes "
            + "(288 buckets, oldest first), the ingest rate over the last minute, and the write requests refused by a quota "
            + "(newest first, at most 500) with their count per limit. Kept in memory by the process that answers, since it started.")
    Activity activity(Authentication auth) {
        TenantPrincipal p = access.requireAll(auth, Scope.Action.ADMIN);
        TenantActivity.Snapshot s = activity.snapshot(p.tenantId());
        Map<String, Long> byLimit = new TreeMap<>();
        s.events().forEach(e -> byLimit.merge(e.limit(), 1L, Long::sum));
        Instant from = s.buckets().getFirst().start();
        Instant to = s.buckets().getLast().start().plus(TenantActivity.BUCKET);
        return new Activity(TenantActivity.BUCKET.toString(), from, to, s.buckets(), s.pointsPerSecond(), byLimit, s.events());
    }
}
