/**
 * JMH benchmarks of the benchmark tools themselves and the home of engine benchmarks (each engine
 * issue adds its own package beside this one, e.g. {@code io.chronix.bench.wal}). All run from
 * {@code bench/target/benchmarks.jar}; defaults are short for a 2-core machine, the command line
 * ({@code -f -wi -i -w -r}) makes them longer.
 */
package io.chronix.bench.jmh;
