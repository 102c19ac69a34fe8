/**
 * Immutable columnar segment files ({@code .csx}) and their {@code .series} sidecars. Format pages:
 * {@code docs/format/segment.md}, {@code docs/format/series.md}.
 *
 * <h2>API in one screen</h2>
 * <pre>{@code
 * // 1. the flush builds one SegmentColumns per measurement, rows sorted series by series
 * //    (tags in the order given, which is the sort order — usually ascending cardinality — then time)
 * SegmentColumns cols = SegmentColumns.builder("cpu", n)
 *         .time(long[] time)                                  // strictly increasing within a series
 *         .tag("region", String[] values)                     // null entry = tag absent
 *         .tag("hostname", String[] values)
 *         .floatField("usage_user", double[] v, long[] validity) // validity: LSB-first words, bit set = value present; null = no nulls
 *         .integerField("n", long[] v, long[] validity)
 *         .unsignedField("u", long[] v, long[] validity)
 *         .booleanField("ok", boolean[] v, long[] validity)
 *         .stringField("msg", String[] v)                     // null entry = NULL
 *         .build();                                            // checks lengths, names and the sort order
 *
 * // 2. write: streaming, temp file in tmpDir -> fsync -> rename -> directory fsync; also writes the .series sidecar
 * SegmentFile file = SegmentFile.of(shardId, nanos, counter);  // shard_{id}/seg_{nanos}_{counter}.csx
 * SegmentWriter.Written w = SegmentWriter.write(io, tmpDir, segmentsDir, file,
 *         List.of(cols),                                       // one or more parts: same measurement and columns, order continuing
 *         SegmentWriterConfig.defaults(), maxWalSequence);     // a failure publishes nothing and removes the temp file
 * w.meta();                                                    // header, column stats, row groups, series, file size, CRC
 * w.series();                                                  // SeriesIndex: the series keys (also written as the .series sidecar)
 *
 * // 3. read: open verifies magic, version (1 or 2), footer, whole-file CRC-32C (once per process per
 * //    length/mtime/inode of a settled file) and all metadata bounds; every block read checks its CRC
 * try (SegmentReader r = SegmentReader.open(io, file.resolve(segmentsDir))) {
 *     r.header(); r.columns(); r.rowGroups(); r.series(); r.meta();
 *     for (int rg : r.rowGroupsOverlapping(minTime, maxTime)) {     // both ends inclusive; pruning only
 *         try (VectorSchemaRoot root = r.readRowGroup(allocator, rg, List.of("time", "hostname", "usage_user"))) { ... }
 *     }                                                          // null projection = every column; output in canonical order
 *     r.scanReverse(allocator, projection, minTime, maxTime, (rg, root) -> keepGoing);  // newest row group first
 *     r.readRowGroupAs(allocator, rg, tableSchema);            // exactly these columns; one the segment lacks is all NULL
 * }
 *
 * // 4. sidecar: the segment's series keys, rebuilt from the segment when missing or damaged
 * SeriesIndex keys = SeriesSidecar.loadOrRebuild(io, segmentsDir, tmpDir, file);
 * }</pre>
 *
 * <p>Arrow output columns are in canonical order: {@code time} ({@code Timestamp(NANOSECOND, null)}),
 * tags by name ({@code Utf8}), fields by name (float → {@code Float64}, integer → {@code Int64},
 * unsigned → {@code UInt64}, boolean → {@code Bool}, string → {@code Utf8}); {@link
 * io.chronix.engine.segment.SegmentArrow} maps a schema the same way for the table schema.
 *
 * <p>Errors: any damage found while opening or reading is a {@link
 * io.chronix.engine.error.CorruptFileException} with path and offset; a foreign version is {@link
 * io.chronix.engine.error.UnsupportedFormatVersionException}; I/O failures are {@link
 * io.chronix.engine.segment.SegmentIoException}.
 *
 * <p>Threading: a writer is single-threaded. A reader may be shared by threads for reads ({@code
 * readRowGroup} is thread-safe); {@code close} must not race reads. Nullness: non-null unless
 * documented otherwise.
 */
package io.chronix.engine.segment;
