/**
 * Authentication and authorization: one {@code SecurityFilterChain} per surface (actuator, open
 * docs, data and admin API, everything else; the console's is in {@code io.chronix.api.console}),
 * bearer-token resolution through {@link io.chronix.api.security.CredentialResolver}s (the operator
 * token, tenant API tokens through {@link io.chronix.api.security.TenantTokenResolver}), the tenant
 * in the log MDC ({@link io.chronix.api.security.TenantMdcFilter}), tenant authorization
 * ({@link io.chronix.api.security.TenantAccess}: namespace first, then scope), and RFC 9457
 * answers for 401 and 403.
 *
 * <p>Threading: every type here is stateless or immutable after start-up and safe for concurrent
 * use; the tenant token cache is a concurrent map.
 */
package io.chronix.api.security;
