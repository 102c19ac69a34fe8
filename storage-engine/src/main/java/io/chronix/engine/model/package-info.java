/**
 * The engine's in-memory data model for writes: {@link io.chronix.engine.model.PointBatch}, a
 * columnar batch of points held in parallel primitive arrays over a per-batch string dictionary,
 * so the parser, the WAL codec and the memtable move points without an object per point.
 *
 * <p>Threading: a built batch is immutable and safe to share; a builder is single-threaded.
 * Nullness: non-null unless documented otherwise.
 */
package io.chronix.engine.model;
