/**
 * The storage engine fed directly, in process: {@link io.chronix.bench.engine.EngineTickSink} writes
 * the TSBS generator's ticks through {@code Chronix.write}, and JMH benchmarks measure ingest
 * (rows/s per writer thread, bytes allocated per point with {@code -prof gc}), a one-series 12-hour
 * scan, and opening a namespace of 1,000 segments. Figures: {@code docs/benchmarks.md}.
 *
 * <p>Threading: a sink is used by one thread. Nullness: non-null.
 */
package io.chronix.bench.engine;
