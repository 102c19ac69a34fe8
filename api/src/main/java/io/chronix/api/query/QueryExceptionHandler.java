package io.chronix.api.query;

import io.chronix.api.error.Problems;
import io.chronix.api.sql.SqlErrorException;
import jakarta.servlet.http.HttpServletResponse;
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
 * The query surface's errors as problem documents. Ordered before the catch-all
 * {@code ApiExceptionHandler}. An error after the answer started (a timeout while streaming)
 * cannot change the status any more: the answer breaks off (not well-formed JSON or Arrow).
 */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE + 10)
class QueryExceptionHandler {

    @ExceptionHandler(SqlErrorException.class)
    ResponseEntity<ProblemDetail> sql(SqlErrorException e, HttpServletResponse response) {
        ProblemDetail p = Problems.of(HttpStatus.BAD_REQUEST, "sql-error", "SQL error", e.getMessage());
        p.setProperty("errorType", e.errorType());
        if (e.position() >= 0) {
            p.setProperty("position", e.position());
        }
        return answer(p, response);
    }

    @ExceptionHandler(QueryExceptions.Timeout.class)
    ResponseEntity<ProblemDetail> timeout(QueryExceptions.Timeout e, HttpServletResponse response) {
        ProblemDetail p = Problems.of(HttpStatus.REQUEST_TIMEOUT, "query-timeout", "Query timeout",
                "The query ran longer than the tenant's queryTimeout of " + e.limit + " and was cancelled [tenant=" + e.tenant + "].");
        p.setProperty("tenant", e.tenant);
        p.setProperty("limit", "queryTimeout");
        p.setProperty("value", e.limit.toString());
        return answer(p, response);
    }

    @ExceptionHandler(QueryExceptions.TooManyQueries.class)
    ResponseEntity<ProblemDetail> tooMany(QueryExceptions.TooManyQueries e, HttpServletResponse response) {
        ProblemDetail p = Problems.of(HttpStatus.TOO_MANY_REQUESTS, "too-many-queries", "Too many concurrent queries",
                "The tenant already runs its maxConcurrentQueries of " + e.limit + " queries; retry when one has finished [tenant=" + e.tenant + "].");
        p.setProperty("tenant", e.tenant);
        p.setProperty("limit", "maxConcurrentQueries");
        p.setProperty("value", e.limit);
        if (response.isCommitted()) {
            return null;
        }
        return ResponseEntity.status(HttpStatus.TOO_MANY_REQUESTS).header(HttpHeaders.RETRY_AFTER, "1")
                .contentType(MediaType.APPLICATION_PROBLEM_JSON).body(p);
    }

    @ExceptionHandler(QueryPool.Full.class)
    ResponseEntity<ProblemDetail> poolFull(QueryPool.Full e, HttpServletResponse response) {
        ProblemDetail p = Problems.of(HttpStatus.SERVICE_UNAVAILABLE, "query-capacity", "Too many queries waiting",
                "The service runs " + e.threads + " statements at a time and " + e.waiting
                        + " more already wait for one; retry shortly.");
        p.setProperty("limit", "chronix.query.pool-queue");
        p.setProperty("value", e.waiting);
        if (response.isCommitted()) {
            return null;
        }
        response.resetBuffer();
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).header(HttpHeaders.RETRY_AFTER, "1")
                .contentType(MediaType.APPLICATION_PROBLEM_JSON).body(p);
    }

    @ExceptionHandler(QueryExceptions.TooLarge.class)
    ResponseEntity<ProblemDetail> tooLarge(QueryExceptions.TooLarge e, HttpServletResponse response) {
        ProblemDetail p = Problems.of(HttpStatus.UNPROCESSABLE_CONTENT, "query-too-large", "Query too large",
                "The query needs more memory than " + e.limitName + " (" + e.limitBytes + " bytes) allows; narrow its time range or series.");
        p.setProperty("limit", e.limitName);
        p.setProperty("value", e.limitBytes);
        return answer(p, response);
    }

    @ExceptionHandler(QueryExceptions.MeasurementNotFound.class)
    ResponseEntity<ProblemDetail> notFound(QueryExceptions.MeasurementNotFound e, HttpServletResponse response) {
        return answer(Problems.of(HttpStatus.NOT_FOUND, "measurement-not-found", "Measurement not found",
                "The namespace has no measurement named '" + e.measurement.replaceAll("\\p{Cntrl}", "?") + "'."), response);
    }

    @ExceptionHandler(QueryExceptions.Unavailable.class)
    ResponseEntity<ProblemDetail> unavailable(QueryExceptions.Unavailable e, HttpServletResponse response) {
        return answer(Problems.of(HttpStatus.SERVICE_UNAVAILABLE, "query-unavailable", "Query engine unavailable",
                "This service has no namespace engines to query."), response);
    }

    private static ResponseEntity<ProblemDetail> answer(ProblemDetail p, HttpServletResponse response) {
        if (response.isCommitted()) {
            throw new IllegalStateException("answer already started: " + p.getDetail());
        }
        response.resetBuffer();
        return ResponseEntity.status(p.getStatus()).contentType(MediaType.APPLICATION_PROBLEM_JSON).body(p);
    }
}
