/**
 * The catalog: the durable, CRC-32C-framed, append-only manifest of a namespace's segments (with
 * their statistics), its schema declarations and its fixed settings. Opening a namespace replays
 * the catalog and opens no segment file, so open time grows with the number of segments, not with
 * their bytes. Format: {@code docs/format/catalog.md}.
 *
 * <p>Also here: {@link io.chronix.engine.catalog.SegmentStore}, the boundary through which flush
 * writes segment files and reads them back, so the catalog and read path do not depend on one
 * segment format.
 *
 * <p>Threading: {@link io.chronix.engine.catalog.Catalog} appends are serialized by its monitor;
 * records are immutable. Nullness: non-null unless documented.
 */
package io.chronix.engine.catalog;
