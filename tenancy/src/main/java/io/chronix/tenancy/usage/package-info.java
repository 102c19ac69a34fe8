/**
 * Usage (series, stored bytes, points written) per namespace, reported by the service's data plane
 * and summed per tenant against its quotas.
 *
 * <p>Threading: stateless, safe for concurrent use.
 */
package io.chronix.tenancy.usage;
