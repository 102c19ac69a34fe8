package io.chronix.api.security;

import io.chronix.tenancy.token.Scope;

import java.util.Set;
import java.util.UUID;

/**
 * A tenant's credentials, verified: an API token ({@code tokenId} set) or a console session
 * ({@code email} set, with the tenant administrator's scopes).
 *
 * @param tokenId null for a console session
 * @param email   null for an API token
 */
public record TenantPrincipal(UUID tenantId, String tenantName, String tokenId, String email, Set<Scope> scopes)
        implements ChronixPrincipal {

    public static final String ROLE = "ROLE_TENANT";

    public TenantPrincipal {
        scopes = Set.copyOf(scopes);
    }

    @Override
    public String kind() {
        return "tenant";
    }

    public boolean allows(Scope.Action action, String namespace) {
        return scopes.stream().anyMatch(s -> s.allows(action, namespace));
    }

    public boolean allowsAll(Scope.Action action) {
        return scopes.stream().anyMatch(s -> s.allowsAll(action));
    }
}
