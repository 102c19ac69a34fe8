package io.chronix.api.console;

import io.chronix.api.security.TenantPrincipal;
import io.chronix.api.security.TenantTokenResolver;
import io.chronix.tenancy.token.Scope;
import io.chronix.tenancy.user.ConsoleUser;
import io.chronix.tenancy.user.UserService;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.web.authentication.WebAuthenticationDetails;

import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * E-mail and password against the tenancy users, behind the {@link LoginThrottle}. An unknown
 * e-mail costs the same password check as a known one, so timing tells nothing. A console user
 * acts as the tenant's administrator: scopes {@code admin:*}, {@code read:*}, {@code write:*}.
 */
final class ConsoleAuthenticationProvider implements AuthenticationProvider {

    static final Set<Scope> ADMIN = Set.of(new Scope(Scope.Action.ADMIN, Scope.ALL), new Scope(Scope.Action.READ, Scope.ALL),
            new Scope(Scope.Action.WRITE, Scope.ALL));

    private final UserService users;
    private final LoginThrottle throttle;
    /**
     * What an unknown e-mail's password is checked against; made at the first login, not at
     * start-up (a bcrypt hash is deliberately slow). Every login asks for it before the lookup,
     * so the first one costs the same whether its e-mail is known or not.
     */
    private volatile String dummyHash;

    ConsoleAuthenticationProvider(UserService users, LoginThrottle throttle) {
        this.users = users;
        this.throttle = throttle;
    }

    private String dummyHash() {
        String h = dummyHash;
        if (h == null) {
            h = users.encoder().encode("not a password anyone has");
            dummyHash = h;
        }
        return h;
    }

    @Override
    public Authentication authenticate(Authentication authentication) {
        String email = authentication.getName();
        String password = authentication.getCredentials() == null ? "" : authentication.getCredentials().toString();
        String address = authentication.getDetails() instanceof WebAuthenticationDetails d ? d.getRemoteAddress() : "unknown";
        Duration wait = throttle.retryAfter(email, address);
        if (!wait.isZero()) {
            throw new LoginThrottledException(wait);
        }
        String dummy = dummyHash();
        Optional<ConsoleUser> user = users.findByEmail(email);
        boolean ok = users.encoder().matches(password, user.map(ConsoleUser::passwordHash).orElse(dummy)) && user.isPresent();
        if (!ok) {
            throttle.failed(email, address);
            throw new BadCredentialsException("bad e-mail or password");
        }
        throttle.succeeded(email);
        ConsoleUser u = user.get();
        TenantPrincipal principal = new TenantPrincipal(u.tenantId(), u.tenantName(), null, u.email(), ADMIN);
        return UsernamePasswordAuthenticationToken.authenticated(principal, null, TenantTokenResolver.authorities(ADMIN));
    }

    @Override
    public boolean supports(Class<?> authentication) {
        return UsernamePasswordAuthenticationToken.class.isAssignableFrom(authentication);
    }
}
