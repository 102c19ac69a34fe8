package io.chronix.api.security;

import io.chronix.api.error.ProblemWriter;
import io.chronix.api.error.Problems;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.csrf.CsrfException;

import java.io.IOException;

/** 401 and 403 as problem documents, with the {@code WWW-Authenticate} challenge on 401. */
final class ProblemAuthenticationEntryPoint implements AuthenticationEntryPoint, AccessDeniedHandler {

    private final ProblemWriter problems;

    ProblemAuthenticationEntryPoint(ProblemWriter problems) {
        this.problems = problems;
    }

    @Override
    public void commence(HttpServletRequest request, HttpServletResponse response, AuthenticationException e) throws IOException {
        response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
        problems.write(response, Problems.of(HttpStatus.UNAUTHORIZED, "unauthenticated", "Unauthorized",
                "This endpoint needs credentials: send Authorization: Bearer <token>."));
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, AccessDeniedException e) throws IOException {
        if (e instanceof CsrfException) {
            problems.write(response, Problems.of(HttpStatus.FORBIDDEN, "csrf-token-invalid", "Forbidden",
                    "A request made with a console session must send the session's CSRF token (see GET /console/session)."));
            return;
        }
        problems.write(response, Problems.of(HttpStatus.FORBIDDEN, "forbidden", "Forbidden",
                "The credentials are valid but lack the scope this request needs."));
    }
}
