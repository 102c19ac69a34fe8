/**
 * API tokens {@code cx_<id>_<secret>}: issued once, stored as a SHA-256 digest only, scoped
 * ({@code read}/{@code write}/{@code admin} on one namespace or {@code *}), revocable and optionally
 * expiring; verification reads the database so revocation wins on the next request.
 *
 * <p>Threading: stateless services, safe for concurrent use. Nullness: nullable fields are
 * documented on each record.
 */
package io.chronix.tenancy.token;
