package io.chronix.tenancy.tenant;

import io.chronix.tenancy.token.IssuedToken;

/** A new tenant and its first token (scopes {@code admin:*}, {@code read:*}, {@code write:*}), shown once. */
public record CreatedTenant(Tenant tenant, IssuedToken adminToken) {
}
