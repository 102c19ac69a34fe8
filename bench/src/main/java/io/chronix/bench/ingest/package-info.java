/**
 * Ingest benchmarks: the line-protocol parser on TSBS cpu-only data
 * ({@link io.chronix.bench.ingest.LineProtocolParserBenchmark}).
 */
package io.chronix.bench.ingest;
