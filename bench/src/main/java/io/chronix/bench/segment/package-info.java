/**
 * Figures of the {@code .csx} segment format on TSBS cpu-only data: bytes per field value on disk
 * ({@link io.chronix.bench.segment.SegmentSizeReport}) and decode throughput per encoding ({@link
 * io.chronix.bench.segment.SegmentDecodeBenchmark}, JMH). Results and commands:
 * {@code docs/benchmarks.md}.
 */
package io.chronix.bench.segment;
