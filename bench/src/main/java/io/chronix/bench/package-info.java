/**
 * Chronix benchmarks: a deterministic TSBS-style data generator, an HTTP load generator, a query
 * runner that checks every answer against a reference computed from the generated data, launchers
 * for peer databases, the end-to-end run and the JMH harness. Nothing here runs in the default
 * build except the small correctness tests.
 *
 * <p>Nullness: parameters and return values are non-null unless documented otherwise.
 */
package io.chronix.bench;
