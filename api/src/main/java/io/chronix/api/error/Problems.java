package io.chronix.api.error;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

import java.net.URI;

/**
 * Builds the service's problem documents. Each kind of error has a stable {@code errorId}; its
 * {@code type} is the URN {@code urn:chronix:problem:<errorId>}, so clients can switch on either.
 */
public final class Problems {

    public static final String TYPE_PREFIX = "urn:chronix:problem:";

    private Problems() {
    }

    public static ProblemDetail of(HttpStatus status, String errorId, String title, String detail) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(status, detail);
        p.setType(URI.create(TYPE_PREFIX + errorId));
        p.setTitle(title);
        p.setProperty("errorId", errorId);
        return p;
    }

    /**
     * The {@code errorId} of an error known only by its status (Spring MVC's own errors, the web
     * server's): {@code bad-request}, {@code not-found}… and {@code http-<status>} for the rest.
     */
    public static String errorIdOf(int status) {
        return switch (status) {
            case 400 -> "bad-request";
            case 404 -> "not-found";
            case 405 -> "method-not-allowed";
            case 406 -> "not-acceptable";
            case 413 -> "payload-too-large";
            case 415 -> "unsupported-media-type";
            case 500 -> "internal";
            case 503 -> "unavailable";
            default -> "http-" + status;
        };
    }

    /** A problem known only by its status: {@link #errorIdOf}, the status's reason phrase as title. */
    public static ProblemDetail ofStatus(int status, String detail) {
        ProblemDetail p = ProblemDetail.forStatus(status);
        String errorId = errorIdOf(status);
        HttpStatus known = HttpStatus.resolve(status);
        p.setType(URI.create(TYPE_PREFIX + errorId));
        p.setTitle(known == null ? "HTTP " + status : known.getReasonPhrase());
        p.setDetail(detail);
        p.setProperty("errorId", errorId);
        return p;
    }
}
