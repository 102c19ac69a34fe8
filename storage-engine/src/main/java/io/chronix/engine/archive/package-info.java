/**
 * The cold tier as the engine sees it: the {@link io.chronix.engine.archive.ColdTier} SPI (written
 * by {@code cold-archive} as Parquet over a {@link io.chronix.engine.storage.StorageBackend}), the
 * in-memory index for scans ({@link io.chronix.engine.archive.ColdIndex}) of the archived segments
 * the catalog records ({@link io.chronix.engine.catalog.ArchivedSegment}), and the archiving pass
 * ({@link io.chronix.engine.archive.Archiver}).
 *
 * <p>Invariant of the pass: a segment's rows are in the hot tier, in the archive, or in both — never
 * in neither. The order is upload → read back and verify → catalog record → drop from the hot
 * in-memory view → delete the hot files. Every crash point leaves either a hot segment (and maybe a
 * stray object the next pass overwrites or sweeps) or an archived one (and maybe hot files the
 * next open deletes as orphans).
 *
 * <p>Threading: {@code ColdTier} implementations are thread-safe; the archiver runs one pass at a
 * time per engine; {@code ColdIndex} is copy-on-write. Nullness: nothing here is nullable unless
 * its Javadoc says so.
 */
package io.chronix.engine.archive;
