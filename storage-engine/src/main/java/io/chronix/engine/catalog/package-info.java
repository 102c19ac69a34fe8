/**
 * The catalog: the durable, CRC-32C-framed, append-only manifest of a namespace's segments (with
 * their statistics), its schema declarations and its fixed settings. Opening a namespace replays
 * the catalog and opens no segment file, so open time grows with the number of segments, not with
 * their bytes. Format: {@code docs/format/catalog.md}.
 *
 * <p>The catalog depends on no segment format, cache or archive code: it records
 * {@link io.chronix.engine.catalog.SegmentEntry} and {@link io.chronix.engine.catalog.ArchivedSegment}
 * values (the stored object an archive pass wrote, {@link io.chronix.engine.catalog.StoredObject},
 * included); {@code io.chronix.engine.store} writes and reads the files they name.
 *
 * <p>Threading: {@link io.chronix.engine.catalog.Catalog} appends are serialized by its monitor;
 * records are immutable. Nullness: non-null unless documented.
 */
package io.chronix.engine.catalog;
