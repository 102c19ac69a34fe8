/**
 * The in-memory write buffer between the WAL and the segments.
 *
 * <ul>
 *   <li>{@link io.chronix.engine.memtable.SeriesRegistry} interns series (measurement + sorted
 *       tags) once per engine, looked up straight from a {@code PointBatch} without building a key;
 *       {@code resolveAll} looks each series of a batch up once, keyed by the batch's string ids.
 *   <li>{@link io.chronix.engine.memtable.Memtable} holds one shard's points: per series a
 *       {@code SeriesBuffer} of primitive columns (timestamps; per field 64-bit values or string
 *       references plus a presence bitmap) — no object per point. Values sit in chunks of 64 rows, so a
 *       growing series allocates its next chunk instead of copying its columns.
 *   <li>{@link io.chronix.engine.memtable.FlushController} holds a shard's active and frozen
 *       memtables and swaps them atomically.
 * </ul>
 *
 * <p>Last write wins, field by field, on (series, timestamp): a later write of the same series
 * and timestamp overwrites the fields it names and keeps the others. Buffers append in arrival
 * order and resolve duplicates when they are read ({@code SeriesBuffer#normalize}), with a stable
 * sort, so the rule is exactly "later arrival wins" — the same rule the read path applies across
 * memtables and segments (newer source wins) and recovery reproduces (WAL order).
 *
 * <p>Threading: inserts into one memtable run concurrently; each series buffer has its own lock.
 * The engine's write gate excludes freezing while an insert is in flight. Nullness: non-null
 * unless documented.
 */
package io.chronix.engine.memtable;
