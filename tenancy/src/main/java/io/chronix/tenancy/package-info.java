/**
 * Tenancy: tenants, users, namespaces, API tokens, quotas and usage, kept in PostgreSQL (schema by
 * Flyway migrations under {@code db/migration}, access through Spring's {@code JdbcClient}), packaged
 * by feature. {@link io.chronix.tenancy.TenancyDirectory} is the read interface the data plane uses;
 * {@link io.chronix.tenancy.TenancyException} and its subclasses are everything tenancy refuses.
 * This module knows nothing of the storage engine.
 *
 * <p>Threading: all services are stateless and safe for concurrent use; each public operation is
 * one transaction. Nullness: parameters and results are non-null unless documented otherwise.
 */
package io.chronix.tenancy;
