/**
 * What a tenant did lately, for the console's overview: points written per five minutes over the
 * last day, the ingest rate of the last minute, and the write requests a quota refused. Kept in
 * memory by this process only (since its start); nothing here is durable.
 *
 * <p>Threading: {@link io.chronix.api.activity.TenantActivity} is safe for concurrent use (one
 * lock per tenant, held for a few array writes).
 */
package io.chronix.api.activity;
