package io.chronix.api.security;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.MDC;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;

/**
 * Puts the tenant of an authenticated tenant request in the log MDC ({@value #KEY} = tenant id)
 * for the rest of the request, and removes it in {@code finally}. Runs inside the security chains,
 * after authentication.
 */
public final class TenantMdcFilter extends OncePerRequestFilter {

    public static final String KEY = "tenant";

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Authentication auth = SecurityContextHolder.getContext().getAuthentication();
        if (auth == null || !(auth.getPrincipal() instanceof TenantPrincipal p)) {
            chain.doFilter(request, response);
            return;
        }
        String previous = MDC.get(KEY);
        MDC.put(KEY, p.tenantId().toString());
        try {
            chain.doFilter(request, response);
        } finally {
            if (previous == null) {
                MDC.remove(KEY);
            } else {
                MDC.put(KEY, previous);
            }
        }
    }
}
