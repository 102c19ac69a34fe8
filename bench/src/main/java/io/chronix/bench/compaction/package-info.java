/**
 * Compaction figures: {@link io.chronix.bench.compaction.CompactionBenchmark} (JMH, the time to
 * compact 100 TSBS segments) and {@link io.chronix.bench.compaction.CompactionReport} (one run per
 * variant: MB/s, rows/s, peak heap, peak decoded memory, bytes per value before and after).
 */
package io.chronix.bench.compaction;
