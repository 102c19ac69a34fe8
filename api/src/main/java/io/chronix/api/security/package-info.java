/**
 * Authentication and authorization: one {@code SecurityFilterChain} per surface (actuator, open
 * docs, data and admin API, everything else), bearer-token resolution through
 * {@link io.chronix.api.security.CredentialResolver}s, the operator token, and RFC 9457 answers for
 * 401 and 403.
 *
 * <p>Threading: every type here is stateless or immutable after start-up and safe for concurrent use.
 */
package io.chronix.api.security;
