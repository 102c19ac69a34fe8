/**
 * Data-lifecycle benchmarks: the latency of a delete of one series whose points lie in 1,000
 * segments, and of its dry run. Figures: {@code docs/benchmarks.md}.
 *
 * <p>Threading: JMH state, one benchmark thread. Nullness: non-null.
 */
package io.chronix.bench.lifecycle;
