/**
 * The process-wide block cache of decoded column blocks ({@link io.chronix.engine.cache.BlockCache},
 * Caffeine W-TinyLFU, weighed by bytes), below the segment readers: it knows blocks, not segments
 * or the catalog. The metadata cache of an engine's segment entries is
 * {@code io.chronix.engine.store.MetadataCache}. The last-value cache lives on the interned series ({@code memtable.LastValue}).
 *
 * <p>Threading: thread-safe; reads take immutable snapshots. Nullness: non-null unless documented.
 */
package io.chronix.engine.cache;
