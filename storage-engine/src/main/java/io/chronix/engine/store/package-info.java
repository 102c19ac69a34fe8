/**
 * Segment files as the engine's write and read paths see them: {@link io.chronix.engine.store.SegmentStore},
 * the boundary through which flush and compaction write segment files and scans read them back (today
 * {@link io.chronix.engine.store.CsxSegmentStore}, the CSX format of {@code docs/format/segment.md},
 * with its summary sidecar), the catalog's statistics of a flushed segment
 * ({@link io.chronix.engine.store.SegmentStatistics}), and the metadata cache of one engine's segment
 * entries ({@link io.chronix.engine.store.MetadataCache}: time bounds and column statistics that
 * prune reads without opening files).
 *
 * <p>Layering (kept by {@code EngineLayeringTest}): {@code store} sits above {@code catalog},
 * {@code segment}, {@code summary}, {@code cache} and {@code read}; none of them depends on it, so
 * the engine's packages form no cycle.
 *
 * <p>Threading: {@code SegmentStore} implementations and the metadata cache are thread-safe; reads
 * take immutable snapshots. Nullness: non-null unless documented.
 */
package io.chronix.engine.store;
