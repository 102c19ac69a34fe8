package io.chronix.api.engine;

import io.chronix.api.error.Problems;
import io.chronix.engine.error.EngineException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * An engine's storage failure that reached an endpoint as it is (a flush, a delete, a query that
 * opened a namespace): 507 {@code insufficient-storage} for a full disk, 503 {@code
 * storage-unavailable} with {@code Retry-After} for a failed fsync or another I/O error. Any other
 * engine exception stays a 500 {@code internal}. The write endpoints answer their own (WriteService).
 */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE + 20)
class StorageExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(StorageExceptionHandler.class);

    /** The registry, for the retry interval; absent in web slices that have no engines. */
    private final ObjectProvider<EngineRegistry> engines;

    StorageExceptionHandler(ObjectProvider<EngineRegistry> engines) {
        this.engines = engines;
    }

    @ExceptionHandler({EngineException.class, StorageUnavailableException.class})
    ResponseEntity<ProblemDetail> storage(RuntimeException e) {
        StorageFault fault = StorageFault.of(e);
        if (fault == null) {
            log.error("unexpected error", e);
            return ResponseEntity.status(HttpStatus.INTERNAL_SERVER_ERROR).contentType(MediaType.APPLICATION_PROBLEM_JSON)
                    .body(Problems.of(HttpStatus.INTERNAL_SERVER_ERROR, "internal", "Internal error",
                            "The service failed to answer this request; the failure is logged."));
        }
        log.warn("request refused for a storage failure ({}): {}", fault, e.getMessage());
        if (fault == StorageFault.DISK_FULL) {
            return ResponseEntity.status(HttpStatus.INSUFFICIENT_STORAGE).contentType(MediaType.APPLICATION_PROBLEM_JSON)
                    .body(diskFull("nothing of this request was written"));
        }
        EngineRegistry registry = engines.getIfAvailable();
        long retry = e instanceof StorageUnavailableException u ? u.retryAfterSeconds()
                : registry != null ? registry.storageRetryAfterSeconds() : EngineProperties.defaults().storageRetryInterval().toSeconds();
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).header(HttpHeaders.RETRY_AFTER, Long.toString(retry))
                .contentType(MediaType.APPLICATION_PROBLEM_JSON).body(unavailable(fault, retry, "nothing of this request was done"));
    }

    /** 507 {@code insufficient-storage}. */
    static ProblemDetail diskFull(String what) {
        return Problems.of(HttpStatus.INSUFFICIENT_STORAGE, "insufficient-storage", "Insufficient storage",
                "The service's disk is full: " + what + ". Requests are accepted again, without a restart, once space is freed.");
    }

    /** 503 {@code storage-unavailable}, with the fault as {@code fault} ({@code fsync-failed} or {@code io-error}). */
    static ProblemDetail unavailable(StorageFault fault, long retryAfterSeconds, String what) {
        ProblemDetail p = Problems.of(HttpStatus.SERVICE_UNAVAILABLE, "storage-unavailable", "Storage unavailable",
                (fault == StorageFault.SYNC_FAILED
                        ? "The namespace's storage could not make data durable (an fsync failed): " + what
                        + ". The service reopens the namespace from what was synced"
                        : "The namespace's storage failed (an I/O error): " + what) + "; retry after " + retryAfterSeconds + " s.");
        p.setProperty("fault", fault == StorageFault.SYNC_FAILED ? "fsync-failed" : "io-error");
        return p;
    }
}
