package io.chronix.api.error;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * The one place where exceptions become answers. Spring MVC's own exceptions (bad JSON, unknown
 * media type, missing parameter...) get RFC 9457 bodies from the base class; anything unexpected is
 * logged with its stack and answered 500 without internals.
 */
@RestControllerAdvice
public class ApiExceptionHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ApiExceptionHandler.class);

    @ExceptionHandler(Exception.class)
    ProblemDetail unexpected(Exception e) {
        log.error("unexpected error", e);
        return Problems.of(HttpStatus.INTERNAL_SERVER_ERROR, "internal", "Internal error",
                "The service failed to answer this request; the failure is logged.");
    }
}
