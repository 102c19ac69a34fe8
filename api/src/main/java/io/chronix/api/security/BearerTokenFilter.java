package io.chronix.api.security;

import io.chronix.api.error.ProblemWriter;
import io.chronix.api.error.Problems;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.context.SecurityContextHolderStrategy;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * Reads {@code Authorization: Bearer <token>} (or {@code Token <token>}, which InfluxDB clients
 * send) and asks each {@link CredentialResolver} in turn. A credential nobody recognises is answered
 * 401 at once; a request without one passes on, and the chain's rules decide (an open endpoint
 * serves it, a protected one answers 401 through the entry point).
 */
public final class BearerTokenFilter extends OncePerRequestFilter {

    private final List<CredentialResolver> resolvers;
    private final ProblemWriter problems;
    private final SecurityContextHolderStrategy contexts = SecurityContextHolder.getContextHolderStrategy();

    public BearerTokenFilter(List<CredentialResolver> resolvers, ProblemWriter problems) {
        this.resolvers = List.copyOf(resolvers);
        this.problems = problems;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Optional<String> credential = credential(request.getHeader(HttpHeaders.AUTHORIZATION));
        if (credential.isEmpty()) {
            chain.doFilter(request, response);
            return;
        }
        Optional<Authentication> auth = resolve(credential.get());
        if (auth.isEmpty()) {
            response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer error=\"invalid_token\"");
            problems.write(response, Problems.of(HttpStatus.UNAUTHORIZED, "invalid-credentials", "Unauthorized",
                    "The token is not valid: unknown, revoked or expired."));
            return;
        }
        var context = contexts.createEmptyContext();
        context.setAuthentication(auth.get());
        contexts.setContext(context);
        try {
            chain.doFilter(request, response);
        } finally {
            contexts.clearContext();
        }
    }

    /** What the first resolver that recognises {@code credential} authenticates it as. */
    private Optional<Authentication> resolve(String credential) {
        for (CredentialResolver r : resolvers) {
            Optional<Authentication> a = r.resolve(credential);
            if (a.isPresent()) {
                return a;
            }
        }
        return Optional.empty();
    }

    /** The credential of a {@code Bearer} or {@code Token} authorization header, if there is one. */
    static Optional<String> credential(String header) {
        if (header == null) {
            return Optional.empty();
        }
        String h = header.strip();
        for (String scheme : new String[]{"Bearer ", "Token "}) {
            if (h.regionMatches(true, 0, scheme, 0, scheme.length())) {
                String value = h.substring(scheme.length()).strip();
                return value.isEmpty() ? Optional.empty() : Optional.of(value);
            }
        }
        return Optional.empty();
    }
}
