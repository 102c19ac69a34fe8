/**
 * Compaction (seed 001 "Compaction", TWCS), write backpressure and the periodic maintenance pass.
 *
 * <ul>
 *   <li>{@link io.chronix.engine.compaction.CompactionPicker} groups the live segments by time shard
 *       and measurement — never across a shard boundary — and picks groups at or above a size.
 *   <li>{@link io.chronix.engine.compaction.SegmentMerge} merges one group into one segment: schemas
 *       unified to the superset (absent columns NULL), a K-way merge by (series, time) in which the
 *       newer segment wins each field (higher catalog id = newer, the read path's rule), rows a
 *       {@link io.chronix.engine.compaction.DeletedRows} names dropped inline, the output streamed
 *       part by part through {@code SegmentWriter.open}.
 *   <li>{@link io.chronix.engine.compaction.SegmentReclaimer} deletes replaced files only once no
 *       scan that could still name them is running.
 *   <li>{@link io.chronix.engine.compaction.Backpressure}: the linear write delay past 4 × trigger.
 * </ul>
 *
 * <p>Threading: {@code SegmentMerge} is one merge on one thread; {@code SegmentReclaimer} and
 * {@code Backpressure} are thread-safe. Nullness: non-null unless documented.
 */
package io.chronix.engine.compaction;
