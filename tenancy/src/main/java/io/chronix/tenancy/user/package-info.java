/**
 * Console users: e-mail login, password hashed with Spring Security's delegating encoder. The
 * service's form login reads users here; tenancy never sees a session.
 *
 * <p>Threading: stateless, safe for concurrent use.
 */
package io.chronix.tenancy.user;
