/**
 * Tenancy over the wire: the cross-tenant sweep (tenant A's credentials against every endpoint of
 * the contract that takes tenant B's namespace or id), hostile names, and the removal of deleted
 * namespaces' data across a restart.
 */
package io.chronix.it.tenancy;
