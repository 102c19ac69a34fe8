package io.chronix.api.influx;

import io.chronix.api.security.AccessRefusedException;
import io.chronix.api.write.WriteException;
import io.chronix.tenancy.NotFoundException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Errors of the compatibility endpoints in InfluxDB's shape, {@code {"code": "invalid", "line": 2,
 * "message": "…"}} (plus {@code error}, which InfluxDB 1 clients read, and {@code errors},
 * {@code written}, {@code errorId} as the service's own endpoint has them). The controller's own
 * {@code @ExceptionHandler} methods call these, so they win over the service-wide advice.
 */
final class InfluxErrorHandler {

    private InfluxErrorHandler() {
    }

    /** An error of the compatibility layer itself (missing bucket, bad precision). */
    static final class InfluxError extends RuntimeException {
        final int status;
        final String code;

        InfluxError(int status, String code, String message) {
            super(message);
            this.status = status;
            this.code = code;
        }
    }

    static ResponseEntity<Map<String, Object>> refused(WriteException e) {
        Map<String, Object> body = body(e.influxCode(), e.influxMessage());
        if (e.line() != null) {
            body.put("line", e.line());
        }
        body.put("errorId", e.errorId());
        e.properties().forEach(body::putIfAbsent);
        ResponseEntity.BodyBuilder answer = ResponseEntity.status(e.status()).contentType(MediaType.APPLICATION_JSON);
        if (e.retryAfterSeconds() != null) {
            answer.header(HttpHeaders.RETRY_AFTER, Long.toString(e.retryAfterSeconds()));
        }
        return answer.body(body);
    }

    static ResponseEntity<Map<String, Object>> influx(InfluxError e) {
        return ResponseEntity.status(e.status).contentType(MediaType.APPLICATION_JSON).body(body(e.code, e.getMessage()));
    }

    static ResponseEntity<Map<String, Object>> notFound(NotFoundException e) {
        return ResponseEntity.status(404).contentType(MediaType.APPLICATION_JSON).body(body("not found", e.getMessage()));
    }

    static ResponseEntity<Map<String, Object>> forbidden(AccessRefusedException e) {
        return ResponseEntity.status(403).contentType(MediaType.APPLICATION_JSON).body(body("forbidden", e.getMessage()));
    }

    private static Map<String, Object> body(String code, String message) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("code", code);
        m.put("message", message);
        m.put("error", message);
        return m;
    }
}
