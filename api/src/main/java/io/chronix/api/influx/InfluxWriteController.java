package io.chronix.api.influx;

import io.chronix.api.security.AccessRefusedException;
import io.chronix.api.security.TenantAccess;
import io.chronix.api.write.WriteException;
import io.chronix.tenancy.NotFoundException;
import io.chronix.api.write.WriteService;
import io.chronix.engine.ingest.Precision;
import io.chronix.tenancy.namespace.Namespace;
import io.chronix.tenancy.token.Scope;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.io.IOException;
import java.util.Map;

/**
 * The InfluxDB-compatible writes: {@code POST /api/v2/write?bucket=&org=&precision=} (bucket =
 * namespace; org is accepted and ignored, the token names the tenant) and {@code POST
 * /write?db=&precision=} (db = namespace; rp ignored; the token also as {@code p=} or the Basic
 * password, see {@link InfluxV1Credentials}). As InfluxDB: the valid lines are written, and a 400
 * lists the rejected ones; errors in InfluxDB's shape ({@link InfluxErrorHandler}).
 */
@RestController
class InfluxWriteController {

    private final TenantAccess access;
    private final WriteService writes;

    InfluxWriteController(TenantAccess access, WriteService writes) {
        this.access = access;
        this.writes = writes;
    }

    @PostMapping("/api/v2/write")
    @Operation(summary = "InfluxDB 2 write", description = "bucket = namespace. 204 once durable; 400 lists rejected lines (the rest is written).")
    ResponseEntity<Void> v2(@RequestParam(required = false) String bucket, @RequestParam(required = false) String org,
                            @RequestParam(defaultValue = "ns") String precision,
                            @Parameter(description = BACKFILL) @RequestParam(defaultValue = "false") String backfill,
                            Authentication auth, HttpServletRequest request) throws IOException {
        return write(bucket, "bucket", precision, backfill, auth, request);
    }

    @PostMapping("/write")
    @Operation(summary = "InfluxDB 1 write", description = "db = namespace; precision n, u, ms, s (ns, us too). 204 once durable.")
    ResponseEntity<Void> v1(@RequestParam(required = false) String db, @RequestParam(defaultValue = "ns") String precision,
                            @Parameter(description = BACKFILL) @RequestParam(defaultValue = "false") String backfill,
                            Authentication auth, HttpServletRequest request) throws IOException {
        return write(db, "db", precision, backfill, auth, request);
    }

    @ExceptionHandler(WriteException.class)
    ResponseEntity<Map<String, Object>> refused(WriteException e) {
        return InfluxErrorHandler.refused(e);
    }

    @ExceptionHandler(InfluxErrorHandler.InfluxError.class)
    ResponseEntity<Map<String, Object>> influx(InfluxErrorHandler.InfluxError e) {
        return InfluxErrorHandler.influx(e);
    }

    @ExceptionHandler(NotFoundException.class)
    ResponseEntity<Map<String, Object>> notFound(NotFoundException e) {
        return InfluxErrorHandler.notFound(e);
    }

    @ExceptionHandler(AccessRefusedException.class)
    ResponseEntity<Map<String, Object>> forbidden(AccessRefusedException e) {
        return InfluxErrorHandler.forbidden(e);
    }

    /** Ours, not InfluxDB's: the same flag as the service's own write endpoint. */
    static final String BACKFILL = "true: accept any timestamp inside the namespace's retention (an addition; InfluxDB has no such parameter)";

    private ResponseEntity<Void> write(String namespace, String param, String precision, String backfill, Authentication auth,
                                       HttpServletRequest request) throws IOException {
        if (namespace == null || namespace.isBlank()) {
            throw new InfluxErrorHandler.InfluxError(400, "invalid", param + " is required (the namespace to write to)");
        }
        Precision p = Precision.parse(precision)
                .orElseThrow(() -> new InfluxErrorHandler.InfluxError(400, "invalid", "invalid precision " + precision
                        + ": expected ns, us, ms, s (or n, u)"));
        if (!backfill.equals("true") && !backfill.equals("false")) {
            throw new InfluxErrorHandler.InfluxError(400, "invalid", "invalid backfill " + backfill + ": expected true or false");
        }
        Namespace ns = access.namespace(auth, namespace, Scope.Action.WRITE);
        writes.write(access.tenant(auth), ns, request, p, true, backfill.equals("true"));
        return ResponseEntity.noContent().build();
    }
}
