/**
 * Cold-archive figures: archiving throughput and Parquet size against {@code .csx}
 * ({@link io.chronix.bench.archive.ArchivePassBenchmark}), and scans over an archived day against
 * the same day hot, with a cold and a warm local cache ({@link io.chronix.bench.archive.ArchivedScanBenchmark}).
 * The object store is the filesystem backend: the figures are the Parquet path's cost, not a network's.
 */
package io.chronix.bench.archive;
