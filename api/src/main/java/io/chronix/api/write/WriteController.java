package io.chronix.api.write;

import io.chronix.api.security.TenantAccess;
import io.chronix.engine.ingest.Precision;
import io.chronix.tenancy.namespace.Namespace;
import io.chronix.tenancy.token.Scope;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.io.IOException;

/** {@code POST /api/v1/namespaces/{ns}/write}: line protocol, atomic unless {@code accept_partial=true}. */
@RestController
class WriteController {

    private final TenantAccess access;
    private final WriteService writes;

    WriteController(TenantAccess access, WriteService writes) {
        this.access = access;
        this.writes = writes;
    }

    @PostMapping("/api/v1/namespaces/{ns}/write")
    @Operation(summary = "Write points (InfluxDB line protocol)", description = """
            204 once every point is durable. Atomic by default: any invalid line → 400 listing every bad line (up to 100) \
            and nothing written; accept_partial=true writes the valid lines and still answers 400 with the list and \
            "written". 413 over maxRequestBytes (wire or decompressed), 429 over the ingest rate (Retry-After), 422 for a \
            field type conflict, a timestamp outside the accepted window (with backfill=true: outside the retention), or a write over maxSeries / maxStoredBytes. \
            507 insufficient-storage: the service's disk is full, nothing written (accepted again once space is freed); \
            503 storage-unavailable (Retry-After): the namespace's storage failed (a failed fsync), nothing acknowledged.""")
    ResponseEntity<Void> write(@PathVariable("ns") String namespace,
                               @Parameter(description = "ns (default), us, ms or s") @RequestParam(defaultValue = "ns") String precision,
                               @RequestParam(name = "accept_partial", defaultValue = "false") boolean acceptPartial,
                               @Parameter(description = "accept any timestamp inside the namespace's retention (slower path; invalidates the rollups over the range)")
                               @RequestParam(defaultValue = "false") boolean backfill,
                               Authentication auth, HttpServletRequest request) throws IOException {
        Precision p = Precision.parse(precision).filter(x -> !precision.equals("n") && !precision.equals("u"))
                .orElseThrow(() -> WriteException.of(HttpStatus.BAD_REQUEST, "invalid-precision", "Invalid precision",
                        "precision must be ns, us, ms or s, not " + precision + ".", "invalid"));
        Namespace ns = access.namespace(auth, namespace, Scope.Action.WRITE);
        writes.write(access.tenant(auth), ns, request, p, acceptPartial, backfill);
        return ResponseEntity.noContent().build();
    }
}
