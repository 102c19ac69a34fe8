package io.chronix.api.console;

import io.chronix.api.security.ApiChainCustomizer;
import io.chronix.api.security.TenantPrincipal;
import io.chronix.tenancy.user.UserService;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import org.springframework.http.HttpHeaders;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.authentication.AnonymousAuthenticationFilter;
import org.springframework.security.web.authentication.session.NullAuthenticatedSessionStrategy;
import org.springframework.security.web.context.HttpSessionSecurityContextRepository;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.util.Set;

/**
 * Lets a console session call the admin API, so the console pages need no token. The API chain
 * stays stateless: a request without {@code Authorization} that brings an existing console session
 * is authenticated from it for that request only (nothing is ever written to a session, and a
 * bearer request never gets one). A state-changing request authenticated this way must carry the
 * session's CSRF token ({@code X-CSRF-TOKEN}, from {@code GET /console/session}); a session whose
 * user is gone (tenant deleted) is ended.
 */
@Component
class ConsoleApiSessions implements ApiChainCustomizer {

    private static final Set<String> SAFE = Set.of("GET", "HEAD", "OPTIONS", "TRACE");

    private final UserService users;

    ConsoleApiSessions(UserService users) {
        this.users = users;
    }

    @Override
    public void customize(HttpSecurity http) throws Exception {
        // the chain's session strategies would treat every bearer request as a new login: rotate
        // the CSRF token (creating a session) and change the session id; an API request does neither
        http.csrf(c -> c.requireCsrfProtectionMatcher(ConsoleApiSessions::needsCsrf)
                        .sessionAuthenticationStrategy(new NullAuthenticatedSessionStrategy()))
                .sessionManagement(s -> s.sessionFixation(f -> f.none()))
                .addFilterBefore(new FromSession(users), AnonymousAuthenticationFilter.class);
    }

    /** Only a browser's cookie-borne, state-changing request can be forged. */
    static boolean needsCsrf(HttpServletRequest request) {
        return !SAFE.contains(request.getMethod()) && request.getHeader(HttpHeaders.AUTHORIZATION) == null
                && request.getRequestedSessionId() != null;
    }

    /** Runs after the bearer filter: only a request it left unauthenticated is looked at. */
    static final class FromSession extends OncePerRequestFilter {

        private final UserService users;

        FromSession(UserService users) {
            this.users = users;
        }

        @Override
        protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws ServletException, IOException {
            Authentication current = SecurityContextHolder.getContext().getAuthentication();
            HttpSession session = request.getHeader(HttpHeaders.AUTHORIZATION) == null && current == null ? request.getSession(false) : null;
            Object stored = session == null ? null : session.getAttribute(HttpSessionSecurityContextRepository.SPRING_SECURITY_CONTEXT_KEY);
            if (stored instanceof SecurityContext sc && sc.getAuthentication() != null
                    && sc.getAuthentication().getPrincipal() instanceof TenantPrincipal p && p.email() != null) {
                if (users.findByEmail(p.email()).filter(u -> u.tenantId().equals(p.tenantId())).isEmpty()) {
                    session.invalidate();
                } else {
                    SecurityContext context = SecurityContextHolder.createEmptyContext();
                    context.setAuthentication(sc.getAuthentication());
                    SecurityContextHolder.setContext(context);
                    try {
                        chain.doFilter(request, response);
                    } finally {
                        SecurityContextHolder.clearContext();
                    }
                    return;
                }
            }
            chain.doFilter(request, response);
        }
    }
}
