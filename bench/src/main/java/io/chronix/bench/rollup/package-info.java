/**
 * Rollup figures through the engine API ({@link io.chronix.bench.rollup.RollupFigures}):
 * materialisation throughput, a dashboard over the 1-hour tier against the same over raw data,
 * and the repair latency of one late point. Single-threaded; not run by the build.
 */
package io.chronix.bench.rollup;
