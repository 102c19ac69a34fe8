package io.chronix.api.error;

import io.chronix.api.security.AccessRefusedException;
import io.chronix.tenancy.InvalidInputException;
import io.chronix.tenancy.LimitExceededException;
import io.chronix.tenancy.NameTakenException;
import io.chronix.tenancy.NotFoundException;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import java.util.List;
import java.util.Map;

/**
 * Tenancy's refusals and tenant authorization as problem documents, one mapping per exception
 * kind. Ordered before {@link ApiExceptionHandler}, whose catch-all would otherwise take them.
 *
 * <p>A missing namespace has one body whatever the reason (another tenant's, deleted, never
 * existed, malformed name): only the name the client sent varies.
 */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
class TenancyExceptionHandler {

    @ExceptionHandler(InvalidInputException.class)
    ProblemDetail invalid(InvalidInputException e) {
        return invalidFields(e.errors().stream().map(f -> Map.of("field", f.field(), "message", f.message())).toList());
    }

    /** 400 {@code invalid-field} with {@code errors: [{"field": …, "message": …}]}. */
    static ProblemDetail invalidFields(List<Map<String, String>> errors) {
        ProblemDetail p = Problems.of(HttpStatus.BAD_REQUEST, "invalid-field", "Invalid field",
                errors.stream().map(m -> m.get("field") + " " + m.get("message")).reduce((a, b) -> a + "; " + b).orElse("invalid input"));
        p.setProperty("errors", errors);
        return p;
    }

    @ExceptionHandler(NameTakenException.class)
    ProblemDetail taken(NameTakenException e) {
        ProblemDetail p = Problems.of(HttpStatus.CONFLICT, "name-taken", "Name taken",
                e.field() + " '" + e.value() + "' is already taken.");
        p.setProperty("errors", List.of(Map.of("field", e.field(), "message", "is already taken")));
        return p;
    }

    @ExceptionHandler(NotFoundException.class)
    ProblemDetail notFound(NotFoundException e) {
        return switch (e.kind()) {
            case NAMESPACE -> Problems.of(HttpStatus.NOT_FOUND, "namespace-not-found", "Namespace not found",
                    "No namespace named '" + printable(e.key()) + "' exists.");
            case TENANT -> Problems.of(HttpStatus.NOT_FOUND, "tenant-not-found", "Tenant not found",
                    "No tenant with id '" + printable(e.key()) + "' exists.");
            case TOKEN -> Problems.of(HttpStatus.NOT_FOUND, "token-not-found", "Token not found",
                    "No live token with id '" + printable(e.key()) + "' exists.");
        };
    }

    @ExceptionHandler(LimitExceededException.class)
    ProblemDetail limit(LimitExceededException e) {
        ProblemDetail p = Problems.of(HttpStatus.UNPROCESSABLE_CONTENT, "quota-exceeded", "Quota exceeded",
                "Tenant " + e.tenant() + ": " + e.limit() + " is " + e.value() + "; " + e.getMessage().replaceFirst(" \\[tenant=.*$", "") + ".");
        p.setProperty("tenant", e.tenant().toString());
        p.setProperty("limit", e.limit());
        p.setProperty("value", e.value());
        return p;
    }

    @ExceptionHandler(AccessRefusedException.class)
    ProblemDetail refused(AccessRefusedException e) {
        return switch (e.reason()) {
            case MISSING_SCOPE -> {
                ProblemDetail p = Problems.of(HttpStatus.FORBIDDEN, "missing-scope", "Forbidden", e.getMessage());
                p.setProperty("requiredScope", e.requiredScope());
                yield p;
            }
            case NOT_A_TENANT -> Problems.of(HttpStatus.FORBIDDEN, "not-a-tenant", "Forbidden", e.getMessage());
        };
    }

    /** Echoes a client's key without control characters and at bounded length. */
    static String printable(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder b = new StringBuilder();
        s.codePoints().limit(100).forEach(c -> b.appendCodePoint(Character.isISOControl(c) ? '?' : c));
        return s.codePointCount(0, s.length()) > 100 ? b + "…" : b.toString();
    }
}
