package io.chronix.api.console;

import io.chronix.api.security.TenantPrincipal;
import io.chronix.tenancy.user.UserService;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;

/**
 * A console session lasts only as long as its user and tenant: on every request the user is looked
 * up again, and a session whose user is gone (the tenant was deleted) is ended before authorization,
 * which then sends the browser to the login page.
 */
final class ConsoleSessionCheck extends OncePerRequestFilter {

    private final UserService users;

    ConsoleSessionCheck(UserService users) {
        this.users = users;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Authentication auth = SecurityContextHolder.getContext().getAuthentication();
        if (auth != null && auth.getPrincipal() instanceof TenantPrincipal p && p.email() != null
                && users.findByEmail(p.email()).filter(u -> u.tenantId().equals(p.tenantId())).isEmpty()) {
            SecurityContextHolder.clearContext();
            HttpSession session = request.getSession(false);
            if (session != null) {
                session.invalidate();
            }
        }
        chain.doFilter(request, response);
    }
}
