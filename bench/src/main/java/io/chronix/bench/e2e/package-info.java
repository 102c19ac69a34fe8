/**
 * The end-to-end run: one data set, generated once, loaded into each {@link io.chronix.bench.e2e.Target}
 * (Chronix's service jar, QuestDB, InfluxDB) through the same load generator, queried with the same
 * drawn queries in each target's dialect, every answer checked against the same reference, and one
 * table printed with the ratios to the first target. A target is driven only through its HTTP API and
 * its data directory, so adding one is one class.
 */
package io.chronix.bench.e2e;
