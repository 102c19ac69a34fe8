/**
 * Tenants as the operator manages them: creation (with console user, quotas and first admin token)
 * and deletion (everything of the tenant, in one transaction; data removal queued).
 *
 * <p>Threading: stateless, safe for concurrent use.
 */
package io.chronix.tenancy.tenant;
