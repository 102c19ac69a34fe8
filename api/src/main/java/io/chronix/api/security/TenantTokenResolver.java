package io.chronix.api.security;

import io.chronix.tenancy.TenancyDirectory;
import io.chronix.tenancy.token.Scope;
import io.chronix.tenancy.token.Sha256;
import io.chronix.tenancy.token.VerifiedToken;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Resolves tenant API tokens ({@code cx_…}) through {@link TenancyDirectory#verify}. Verified tokens
 * are cached for {@link #TTL} (keyed by the token's SHA-256, never the token), so a burst of
 * writes costs one database read. An entry is trusted only while the directory's
 * {@link TenancyDirectory#generation() generation}, taken before the read, is unchanged: a
 * revocation or tenant deletion made through this node's services wins from its commit on, even
 * against a verification that was reading the row as it committed; made elsewhere it wins within
 * {@link #TTL}. Expiry is re-checked on every hit. Unknown tokens are not cached.
 */
@Component
public class TenantTokenResolver implements CredentialResolver {

    /** Under the one second the contract allows for revocation to win. */
    public static final Duration TTL = Duration.ofMillis(500);
    private static final int MAX_ENTRIES = 10_000;

    private record Entry(Authentication auth, VerifiedToken token, long generation, long loadedAtNanos) {
    }

    private final TenancyDirectory directory;
    private final Clock clock;
    private final ConcurrentHashMap<String, Entry> cache = new ConcurrentHashMap<>();

    public TenantTokenResolver(TenancyDirectory directory, Optional<Clock> clock) {
        this.directory = directory;
        this.clock = clock.orElse(Clock.systemUTC());
    }

    @Override
    public Optional<Authentication> resolve(String credential) {
        if (!credential.startsWith("cx_")) {
            return Optional.empty();
        }
        String key = digest(credential);
        long generation = directory.generation(); // before the read
        long now = System.nanoTime();
        Entry e = cache.get(key);
        if (e != null && e.generation() == generation && now - e.loadedAtNanos() < TTL.toNanos() && !expired(e.token())) {
            return Optional.of(e.auth());
        }
        Optional<VerifiedToken> verified = directory.verify(credential);
        if (verified.isEmpty()) {
            cache.remove(key);
            return Optional.empty();
        }
        Authentication auth = authentication(verified.get());
        if (cache.size() >= MAX_ENTRIES) {
            cache.clear();
        }
        cache.put(key, new Entry(auth, verified.get(), generation, now));
        return Optional.of(auth);
    }

    /** Forgets every cached verification: called after a revocation or a tenant's deletion. */
    public void invalidateAll() {
        cache.clear();
    }

    private boolean expired(VerifiedToken t) {
        return t.expiresAt() != null && !clock.instant().isBefore(t.expiresAt());
    }

    static Authentication authentication(VerifiedToken t) {
        TenantPrincipal principal = new TenantPrincipal(t.tenantId(), t.tenantName(), t.tokenId(), null, t.scopes());
        return UsernamePasswordAuthenticationToken.authenticated(principal, null, authorities(t.scopes()));
    }

    /** {@code ROLE_TENANT} and one {@code SCOPE_<scope>} per scope. */
    public static List<GrantedAuthority> authorities(Iterable<Scope> scopes) {
        List<GrantedAuthority> out = new ArrayList<>();
        out.add(new SimpleGrantedAuthority(TenantPrincipal.ROLE));
        scopes.forEach(s -> out.add(new SimpleGrantedAuthority("SCOPE_" + s)));
        return out;
    }

    private static String digest(String s) {
        return HexFormat.of().formatHex(Sha256.of(s));
    }
}
