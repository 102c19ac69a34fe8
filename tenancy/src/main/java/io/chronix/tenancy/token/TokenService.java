package io.chronix.tenancy.token;

import io.chronix.tenancy.InvalidInputException;
import io.chronix.tenancy.LimitExceededException;
import io.chronix.tenancy.NotFoundException;
import io.chronix.tenancy.Page;
import io.chronix.tenancy.TenancyChanges;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import java.security.MessageDigest;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * API tokens: issue (the secret is returned once), list, revoke, verify. Verification reads the
 * database every time it is called; revocation and expiry therefore take effect on the next call.
 * A caller that caches verifications must keep the cache shorter than a second.
 */
@Service
public class TokenService {

    /** Live tokens one tenant may hold; a guard against runaway scripts, not a quota. */
    public static final int MAX_TOKENS_PER_TENANT = 1000;
    static final int MAX_DESCRIPTION = 200;
    static final int MAX_SCOPES = 100;

    private final JdbcClient jdbc;
    private final Clock clock;
    private final TenancyChanges changes;

    TokenService(JdbcClient jdbc, Optional<Clock> clock, TenancyChanges changes) {
        this.jdbc = jdbc;
        this.clock = clock.orElse(Clock.systemUTC());
        this.changes = changes;
    }

    /**
     * Creates a token for the tenant.
     *
     * @param scopes    as the client wrote them ({@code read:metrics}); at least one
     * @param expiresAt null for a token that does not expire; otherwise in the future
     */
    @Transactional
    public IssuedToken issue(UUID tenant, String description, List<String> scopes, Instant expiresAt) {
        String desc = description == null ? "" : description.strip();
        List<InvalidInputException.FieldError> errors = new ArrayList<>();
        if (desc.length() > MAX_DESCRIPTION) {
            errors.add(new InvalidInputException.FieldError("description", "must be at most " + MAX_DESCRIPTION + " characters"));
        }
        if (desc.chars().anyMatch(Character::isISOControl)) {
            errors.add(new InvalidInputException.FieldError("description", "must not contain control characters"));
        }
        Set<Scope> parsed = new LinkedHashSet<>();
        if (scopes == null || scopes.isEmpty()) {
            errors.add(new InvalidInputException.FieldError("scopes", "needs at least one scope, e.g. read:metrics"));
        } else if (scopes.size() > MAX_SCOPES) {
            errors.add(new InvalidInputException.FieldError("scopes", "must hold at most " + MAX_SCOPES + " scopes"));
        } else {
            for (int i = 0; i < scopes.size(); i++) {
                try {
                    parsed.add(Scope.parse("scopes[" + i + "]", scopes.get(i)));
                } catch (InvalidInputException e) {
                    errors.addAll(e.errors());
                }
            }
        }
        if (expiresAt != null && !expiresAt.isAfter(clock.instant())) {
            errors.add(new InvalidInputException.FieldError("expiresAt", "must be in the future"));
        }
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
        boolean live = jdbc.sql("SELECT 1 FROM tenants WHERE id = ? AND deleted_at IS NULL FOR UPDATE").param(tenant)
                .query(Integer.class).optional().isPresent();
        if (!live) {
            throw new NotFoundException(NotFoundException.Kind.TENANT, tenant.toString());
        }
        long count = jdbc.sql("SELECT count(*) FROM api_tokens WHERE tenant_id = ? AND revoked_at IS NULL").param(tenant)
                .query(Long.class).single();
        if (count >= MAX_TOKENS_PER_TENANT) {
            throw new LimitExceededException(tenant, "tokens", Integer.toString(MAX_TOKENS_PER_TENANT),
                    "the tenant holds the most live tokens allowed; revoke some first");
        }
        String id = TokenFormat.newId();
        String token = TokenFormat.newToken(id);
        List<String> wire = parsed.stream().map(Scope::toString).toList();
        Instant created = jdbc.sql("""
                        INSERT INTO api_tokens (id, tenant_id, secret_hash, scopes, description, expires_at)
                        VALUES (?, ?, ?, ?::text[], ?, ?) RETURNING created_at""")
                .params(id, tenant, TokenFormat.hash(token), pgArray(wire), desc, ts(expiresAt))
                .query((rs, n) -> instant(rs, "created_at")).single();
        return new IssuedToken(new TokenInfo(id, tenant, desc, List.copyOf(parsed), created, null, expiresAt), token);
    }

    /** The tenant's live (not revoked) tokens, oldest first; secrets are never part of them. */
    @Transactional(readOnly = true)
    public List<TokenInfo> list(UUID tenant, Page page) {
        return jdbc.sql("""
                        SELECT id, tenant_id, description, scopes, created_at, last_used_at, expires_at FROM api_tokens
                        WHERE tenant_id = ? AND revoked_at IS NULL ORDER BY created_at, id LIMIT ? OFFSET ?""")
                .params(tenant, page.limit(), page.offset())
                .query(TokenService::info).list();
    }

    /** Revokes the tenant's token; false if it has no live token of that id. Effective at once. */
    @Transactional
    public boolean revoke(UUID tenant, String id) {
        changes.changed(); // a cached verification must fail from the commit on
        return jdbc.sql("UPDATE api_tokens SET revoked_at = now() WHERE id = ? AND tenant_id = ? AND revoked_at IS NULL")
                .params(id, tenant).update() == 1;
    }

    /**
     * The token, if it is well-formed, known, not revoked, not expired, and its tenant is live.
     * Records the use (at most once a minute per token, so reads do not become writes).
     */
    @Transactional
    public Optional<VerifiedToken> verify(String presented) {
        Optional<TokenFormat.Parts> parts = TokenFormat.parse(presented);
        if (parts.isEmpty()) {
            return Optional.empty();
        }
        record Row(byte[] hash, VerifiedToken token, Instant lastUsed) {
        }
        Optional<Row> row = jdbc.sql("""
                        SELECT t.secret_hash, t.id, t.tenant_id, n.name, t.scopes, t.expires_at, t.last_used_at
                        FROM api_tokens t JOIN tenants n ON n.id = t.tenant_id
                        WHERE t.id = ? AND t.revoked_at IS NULL AND n.deleted_at IS NULL
                          AND (t.expires_at IS NULL OR t.expires_at > ?)""")
                .params(parts.get().id(), ts(clock.instant()))
                .query((rs, n) -> new Row(rs.getBytes("secret_hash"),
                        new VerifiedToken(rs.getString("id"), rs.getObject("tenant_id", UUID.class), rs.getString("name"),
                                Set.copyOf(scopes(rs.getArray("scopes"))), instant(rs, "expires_at")),
                        instant(rs, "last_used_at")))
                .optional();
        if (row.isEmpty() || !MessageDigest.isEqual(row.get().hash(), TokenFormat.hash(parts.get().token()))) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        if (row.get().lastUsed() == null || row.get().lastUsed().isBefore(now.minusSeconds(60))) {
            jdbc.sql("UPDATE api_tokens SET last_used_at = ? WHERE id = ?").params(ts(now), parts.get().id()).update();
        }
        return Optional.of(row.get().token());
    }

    private static TokenInfo info(ResultSet rs, int n) throws SQLException {
        return new TokenInfo(rs.getString("id"), rs.getObject("tenant_id", UUID.class), rs.getString("description"),
                scopes(rs.getArray("scopes")), instant(rs, "created_at"), instant(rs, "last_used_at"), instant(rs, "expires_at"));
    }

    private static List<Scope> scopes(Array array) throws SQLException {
        List<Scope> out = new ArrayList<>();
        for (Object o : (Object[]) array.getArray()) {
            out.add(Scope.parse("scopes", (String) o));
        }
        return List.copyOf(out);
    }

    /** A PostgreSQL array literal; scopes hold only [a-z0-9_:*-], so no quoting is needed. */
    private static String pgArray(List<String> values) {
        return "{" + String.join(",", values) + "}";
    }

    static Instant instant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
        return t == null ? null : t.toInstant();
    }

    private static OffsetDateTime ts(Instant i) {
        return i == null ? null : i.atOffset(ZoneOffset.UTC);
    }
}
