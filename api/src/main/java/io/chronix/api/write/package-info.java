/**
 * The write path of the service: {@code POST /api/v1/namespaces/{ns}/write} ({@link
 * io.chronix.api.write.WriteController}) and, shared with the InfluxDB-compatible endpoints of
 * {@code io.chronix.api.influx}, {@link io.chronix.api.write.WriteService}: body limits and gzip,
 * the line-protocol parser, write quotas (request size, tenant ingest rate, series, stored bytes),
 * the engine write (durable on return), metrics, usage counters in the background.
 *
 * <p>Threading: every bean is thread-safe; a request runs on its own (virtual) thread.
 */
package io.chronix.api.write;
