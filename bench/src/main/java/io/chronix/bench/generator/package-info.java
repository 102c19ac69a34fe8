/**
 * The TSBS "cpu-only" data set, generated deterministically: {@link io.chronix.bench.generator.CpuOnlyGenerator}
 * drives a {@link io.chronix.bench.generator.TickSink} one tick (all hosts at one timestamp) at a
 * time, columnar; {@link io.chronix.bench.generator.LineProtocolSink} turns ticks into InfluxDB line
 * protocol bytes. The same configuration (seed included) always yields the same bytes, on any JVM:
 * randomness comes only from {@link io.chronix.bench.generator.SplitMix64}, whose output is fixed by
 * its algorithm, not by a JDK implementation.
 *
 * <p>Threading: a generator and its sinks are confined to one thread.
 */
package io.chronix.bench.generator;
