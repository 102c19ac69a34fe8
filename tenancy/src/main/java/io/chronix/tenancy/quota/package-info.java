/**
 * Quotas as data: per-tenant values in {@code tenant_quotas} (null = the service default from
 * {@code chronix.quotas.*}), their bounds, and the effective limits the data plane enforces.
 *
 * <p>Threading: stateless services, safe for concurrent use. Nullness: {@link
 * io.chronix.tenancy.quota.QuotaOverrides} fields are nullable (null = default); {@link
 * io.chronix.tenancy.quota.Quotas} fields never are.
 */
package io.chronix.tenancy.quota;
