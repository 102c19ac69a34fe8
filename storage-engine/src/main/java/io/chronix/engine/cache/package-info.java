/**
 * In-memory caches of one engine: the metadata cache of segment entries (time bounds, column
 * statistics) that prunes reads without opening files, and the last-value lookup.
 *
 * <p>Threading: thread-safe; reads take immutable snapshots. Nullness: non-null unless documented.
 */
package io.chronix.engine.cache;
