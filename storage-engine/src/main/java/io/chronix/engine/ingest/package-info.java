/**
 * Ingest formats: the InfluxDB line protocol, parsed straight from request bytes into a
 * {@link io.chronix.engine.model.PointBatch.Builder} ({@link io.chronix.engine.ingest.LineProtocolParser}).
 *
 * <p>Threading: a parser is reusable but not thread-safe (it keeps scratch arrays); use one per
 * thread. {@link io.chronix.engine.ingest.ParseResult} and {@link io.chronix.engine.ingest.LineError}
 * are immutable. Nullness: nothing here accepts or returns {@code null}, except
 * {@link io.chronix.engine.ingest.LineError#limit()}, which is {@code null} for a line that is
 * malformed rather than over a {@link io.chronix.engine.ingest.LineLimit}.
 */
package io.chronix.engine.ingest;
