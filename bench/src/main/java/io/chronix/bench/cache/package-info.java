/**
 * Benchmarks of the engine's caches and segment summaries: an aggregate over 30 days answered from
 * summaries against the same aggregate from blocks, and a scan with a cold against a warm block
 * cache. Figures: {@code docs/benchmarks.md}.
 *
 * <p>Threading: JMH states, one thread. Nullness: non-null.
 */
package io.chronix.bench.cache;
