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
}
