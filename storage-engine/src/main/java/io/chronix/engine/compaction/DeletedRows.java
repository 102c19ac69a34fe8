package io.chronix.engine.compaction;

import io.chronix.engine.catalog.SegmentEntry;

import java.util.List;
import java.util.function.LongPredicate;

/**
 * Which rows of a compaction's inputs are deleted (tombstoned), so the merge drops them inline and
 * they never reach the output. Asked once per (input segment, series); a {@code null} answer means
 * nothing of that series is deleted in that segment, which keeps the common case free of per-row
 * calls. A tombstone is scoped to the segments it was issued against, which is why the input is
 * part of the question: rows of a segment written after the delete survive it.
 *
 * <p>The deletes work implements this from the catalog's tombstones; until then compaction runs
 * with {@link #NONE}.
 */
@FunctionalInterface
public interface DeletedRows {

    /** Nothing is deleted. */
    DeletedRows NONE = (input, tagNames, tagValues) -> null;

    /**
     * @param input     the segment the rows come from (its measurement, shard, id)
     * @param tagNames  the measurement's tag names as the merge orders them
     * @param tagValues the series' values for {@code tagNames}, {@code null} for an absent tag
     * @return a test on a row's timestamp, true = deleted; or {@code null} if no row of the series is
     */
    LongPredicate deletedTimes(SegmentEntry input, List<String> tagNames, List<String> tagValues);
}
