/**
 * The crash suite: the built service killed with SIGKILL, again and again, under concurrent writers
 * of points, namespaces, tokens, revocations and tenants, then restarted and checked against a
 * ledger of what it acknowledged. See {@code bench/README.md}, "Crash suite".
 *
 * <p>Threading: the workload runs on its own threads; the ledger's maps are concurrent. Nullness:
 * nothing here returns null.
 */
package io.chronix.bench.crash;
