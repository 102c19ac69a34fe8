package io.chronix.api.error;

import org.springframework.http.ProblemDetail;

/**
 * The problems of requests that fail before (or outside) any endpoint: the web server's own
 * refusals, Spring Security's firewall, the error dispatch. Their details say what was wrong with
 * the request in fixed words — never the server's message, which may quote internals.
 */
final class ErrorDetails {

    private ErrorDetails() {
    }

    static ProblemDetail undecodableQuery() {
        return Problems.ofStatus(400, "The query string cannot be decoded: every '%' must be followed by two hexadecimal digits, "
                + "and the decoded bytes must be UTF-8.");
    }

    static ProblemDetail malformedBody() {
        return Problems.ofStatus(400, "The request body is not valid HTTP: its chunked encoding or length is malformed.");
    }

    /** A problem for a status the web server or the error dispatch answered, with what that status means for a request here. */
    static ProblemDetail ofStatus(int status) {
        return Problems.ofStatus(status, switch (status) {
            case 400 -> "The request is not valid HTTP or its URL cannot be read: a malformed request line, header or %-escape, "
                    + "an encoded '/' or '\\', a control or non-ASCII character, a missing or invalid Host, "
                    + "or a request line or headers larger than the server accepts.";
            case 404 -> "No endpoint answers this path.";
            case 405 -> "This method is not allowed here.";
            case 408 -> "The request was not received in time.";
            case 411 -> "The request needs a Content-Length.";
            case 413 -> "The request is larger than the server accepts.";
            case 414 -> "The URL is longer than the server accepts.";
            case 417 -> "The server does not meet the request's Expect header.";
            case 431 -> "The request's headers are larger than the server accepts.";
            case 500 -> "The service failed to answer this request; the failure is logged.";
            case 501 -> "The request uses a method or transfer coding the server does not implement.";
            case 503 -> "The service cannot answer now.";
            case 505 -> "The request's HTTP version is not supported: use HTTP/1.1.";
            default -> "The request cannot be answered.";
        });
    }
}
