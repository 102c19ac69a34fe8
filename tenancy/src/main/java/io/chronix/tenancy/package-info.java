/**
 * Tenancy: tenants, users, namespaces, API tokens, quotas and usage, kept in PostgreSQL (schema by
 * Flyway migrations under {@code db/migration}, access through Spring's {@code JdbcClient}). This
 * module knows nothing of the storage engine.
 */
package io.chronix.tenancy;
