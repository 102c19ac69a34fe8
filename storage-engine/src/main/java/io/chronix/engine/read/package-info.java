/**
 * The read path: scan requests (measurement, projection by column name, inclusive time range, tag
 * predicates), the merge of active and frozen memtables with segments under last-write-wins, and
 * the Arrow record batches a scan returns.
 *
 * <p>Merge rule: sources are added oldest first (segments in publish order, then frozen, then
 * active memtables); rows are ordered by (series, time) with a stable sort, and rows of one
 * (series, time) fold into one, each field taken from the newest source that holds it. An absent
 * field stays NULL (absent is not zero).
 *
 * <p>Threading: {@link io.chronix.engine.read.ScanRequest} and {@link
 * io.chronix.engine.read.TagPredicate} are immutable; a {@link io.chronix.engine.read.RowMerger}
 * belongs to one scan on one thread; a {@link io.chronix.engine.read.ScanResult} belongs to its
 * caller, who closes it. Nullness: a NULL cell is a null value in Arrow; nothing else is null.
 */
package io.chronix.engine.read;
