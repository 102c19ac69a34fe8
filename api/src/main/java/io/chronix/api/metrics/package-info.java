/**
 * The data plane's metrics on {@code /actuator/prometheus}: ingest counters and latency
 * ({@link io.chronix.api.metrics.IngestMetrics}) and engine gauges and WAL counters summed over
 * every engine of the process ({@link io.chronix.api.metrics.EngineMetrics}).
 *
 * <p>Threading: thread-safe (Micrometer meters).
 */
package io.chronix.api.metrics;
