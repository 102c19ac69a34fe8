package io.chronix.api.error;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.HttpMessageNotReadableException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

import java.util.List;
import java.util.Map;

/**
 * Problem documents for request bodies Jackson could not read: {@code unknown-field} naming the
 * field, {@code malformed-json} naming the field of a wrong-typed value where known, or the
 * position of a syntax error. Never echoes the body.
 */
final class JsonBodyProblems {

    private JsonBodyProblems() {
    }

    static ProblemDetail of(HttpMessageNotReadableException ex) {
        Throwable cause = ex.getCause();
        while (cause != null && !(cause instanceof JacksonException)) {
            cause = cause.getCause();
        }
        if (cause instanceof UnrecognizedPropertyException u) {
            String field = path(u);
            ProblemDetail p = Problems.of(HttpStatus.BAD_REQUEST, "unknown-field", "Unknown field",
                    "The body has a field this endpoint does not know: " + field + ".");
            p.setProperty("errors", List.of(Map.of("field", field, "message", "is not a known field")));
            return p;
        }
        if (cause instanceof JacksonException m && !m.getPath().isEmpty()) {
            String field = path(m);
            String message = m instanceof InvalidFormatException f && f.getTargetType() != null
                    ? "is not a valid " + f.getTargetType().getSimpleName().toLowerCase(java.util.Locale.ROOT)
                    : "has the wrong type";
            ProblemDetail p = Problems.of(HttpStatus.BAD_REQUEST, "malformed-json", "Malformed JSON", field + " " + message + ".");
            p.setProperty("errors", List.of(Map.of("field", field, "message", message)));
            return p;
        }
        if (cause instanceof JacksonException j && j.getLocation() != null) {
            return Problems.of(HttpStatus.BAD_REQUEST, "malformed-json", "Malformed JSON",
                    "The body is not valid JSON (line " + j.getLocation().getLineNr() + ", column " + j.getLocation().getColumnNr() + ").");
        }
        return Problems.of(HttpStatus.BAD_REQUEST, "malformed-json", "Malformed JSON",
                "The body is missing or is not a JSON document of the expected shape.");
    }

    /** {@code quotas.maxSeries}, {@code scopes[2]}. */
    static String path(JacksonException e) {
        StringBuilder b = new StringBuilder();
        for (JacksonException.Reference r : e.getPath()) {
            if (r.getPropertyName() != null) {
                if (!b.isEmpty()) {
                    b.append('.');
                }
                b.append(r.getPropertyName());
            } else if (r.getIndex() >= 0) {
                b.append('[').append(r.getIndex()).append(']');
            }
        }
        return b.isEmpty() ? "(body)" : TenancyExceptionHandler.printable(b.toString());
    }
}
