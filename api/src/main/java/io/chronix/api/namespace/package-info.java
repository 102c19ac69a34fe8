/**
 * Namespaces in the service: the tenant-admin endpoints, where a namespace's data lives
 * ({@link io.chronix.api.namespace.NamespaceLocations}: from the numeric id only), and the
 * background removal of deleted namespaces' data ({@link io.chronix.api.namespace.NamespaceDataReaper},
 * which tells {@link io.chronix.api.namespace.NamespaceDataListener}s first).
 *
 * <p>Threading: controllers are stateless; the reaper runs one pass at a time on the scheduler.
 */
package io.chronix.api.namespace;
