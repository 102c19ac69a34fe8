/**
 * The engine's in-memory data model for writes: {@link io.chronix.engine.model.PointBatch}, a
 * columnar batch of points held in parallel primitive arrays over a per-batch string dictionary,
 * so the parser, the WAL codec and the memtable move points without an object per point; and
 * {@link io.chronix.engine.model.SameClassList}, the one list class that segment metadata and scan
 * requests hold, so code compiled on one size of list is not thrown away at another.
 *
 * <p>Threading: a built batch is immutable and safe to share; a builder is single-threaded.
 * Nullness: non-null unless documented otherwise.
 */
package io.chronix.engine.model;
