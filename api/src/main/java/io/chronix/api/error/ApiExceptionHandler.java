package io.chronix.api.error;

import org.apache.coyote.BadRequestException;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.TypeMismatchException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.context.request.WebRequest;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

import java.util.List;
import java.util.Map;

/**
 * The one place where exceptions become answers. Spring MVC's own exceptions (bad JSON, unknown
 * media type, missing parameter...) get RFC 9457 bodies from the base class; anything unexpected is
 * logged with its stack and answered 500 without internals.
 */
@RestControllerAdvice
public class ApiExceptionHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ApiExceptionHandler.class);

    /**
     * A body that does not parse, has a value of the wrong type, or (for the strict endpoints, see
     * {@link StrictJsonBodies}) an unknown field: 400 naming the field where Jackson knows it.
     */
    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex, HttpHeaders headers,
                                                                  HttpStatusCode status, WebRequest request) {
        return ResponseEntity.badRequest().contentType(MediaType.APPLICATION_PROBLEM_JSON).body(JsonBodyProblems.of(ex));
    }

    /** A query or path parameter of the wrong type ({@code limit=abc}): 400 naming it. */
    @Override
    protected ResponseEntity<Object> handleTypeMismatch(TypeMismatchException ex, HttpHeaders headers,
                                                        HttpStatusCode status, WebRequest request) {
        String name = ex.getPropertyName() == null ? "parameter" : ex.getPropertyName();
        return ResponseEntity.badRequest().contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(TenancyExceptionHandler.invalidFields(List.of(Map.of("field", name, "message",
                        "is not a valid " + (ex.getRequiredType() == null ? "value" : ex.getRequiredType().getSimpleName().toLowerCase(java.util.Locale.ROOT))))));
    }

    /**
     * Spring MVC's other errors (no such route, method not allowed, unsupported media type, missing
     * parameter…) keep the base class's body and get a stable {@code errorId} and {@code type} from
     * their status, so every answer of the service carries one.
     */
    @Override
    protected ResponseEntity<Object> handleExceptionInternal(Exception ex, Object body, HttpHeaders headers,
                                                             HttpStatusCode statusCode, WebRequest request) {
        ResponseEntity<Object> answer = super.handleExceptionInternal(ex, body, headers, statusCode, request);
        if (answer != null && answer.getBody() instanceof ProblemDetail p
                && (p.getProperties() == null || !p.getProperties().containsKey("errorId"))) {
            String errorId = Problems.errorIdOf(statusCode.value());
            p.setType(java.net.URI.create(Problems.TYPE_PREFIX + errorId));
            p.setProperty("errorId", errorId);
        }
        return answer;
    }

    /**
     * A query string Tomcat cannot decode ({@code ?limit=%}, {@code ?a=%zz}, bytes that are not
     * UTF-8): the client's error, 400, where it used to be an unexpected 500.
     */
    @ExceptionHandler(InvalidParameterException.class)
    ResponseEntity<ProblemDetail> undecodableQuery(InvalidParameterException e) {
        return ResponseEntity.badRequest().contentType(MediaType.APPLICATION_PROBLEM_JSON).body(ErrorDetails.undecodableQuery());
    }

    /** A body that is not valid HTTP framing (a malformed chunk): 400, not an unexpected error. */
    @ExceptionHandler(BadRequestException.class)
    ResponseEntity<ProblemDetail> malformedBody(BadRequestException e) {
        return ResponseEntity.badRequest().contentType(MediaType.APPLICATION_PROBLEM_JSON).body(ErrorDetails.malformedBody());
    }

    @ExceptionHandler(Exception.class)
    ProblemDetail unexpected(Exception e) {
        log.error("unexpected error", e);
        return Problems.of(HttpStatus.INTERNAL_SERVER_ERROR, "internal", "Internal error",
                "The service failed to answer this request; the failure is logged.");
    }
}
