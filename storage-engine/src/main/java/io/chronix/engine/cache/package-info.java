/**
 * In-memory caches: the metadata cache of one engine's segment entries (time bounds, column
 * statistics) that prunes reads without opening files, and the process-wide block cache of
 * decoded column blocks ({@link io.chronix.engine.cache.BlockCache}, Caffeine W-TinyLFU, weighed by
 * bytes). The last-value cache lives on the interned series ({@code memtable.LastValue}).
 *
 * <p>Threading: thread-safe; reads take immutable snapshots. Nullness: non-null unless documented.
 */
package io.chronix.engine.cache;
