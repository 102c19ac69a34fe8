package io.chronix.api.write;

import io.chronix.api.error.Problems;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/** {@link WriteException} as an RFC 9457 problem document, for the service's own write endpoint. */
@RestControllerAdvice(assignableTypes = WriteController.class)
@Order(Ordered.HIGHEST_PRECEDENCE)
class WriteExceptionHandler {

    @ExceptionHandler(WriteException.class)
    ResponseEntity<ProblemDetail> refused(WriteException e) {
        ProblemDetail p = Problems.of(e.status(), e.errorId(), e.title(), e.detail());
        e.properties().forEach(p::setProperty);
        ResponseEntity.BodyBuilder answer = ResponseEntity.status(e.status()).contentType(MediaType.APPLICATION_PROBLEM_JSON);
        if (e.retryAfterSeconds() != null) {
            answer.header(HttpHeaders.RETRY_AFTER, Long.toString(e.retryAfterSeconds()));
        }
        return answer.body(p);
    }
}
