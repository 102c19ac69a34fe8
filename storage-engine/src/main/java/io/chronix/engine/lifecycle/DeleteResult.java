package io.chronix.engine.lifecycle;

/**
 * What a delete removed (or, for a dry run, would remove).
 *
 * @param seriesDeleted series with at least one point removed
 * @param pointsDeleted points removed (one per series and timestamp, as a scan counts them)
 * @param seriesReleased series removed whole, released from the cardinality count
 * @param tombstones    tombstones recorded (0 for a dry run)
 */
public record DeleteResult(long seriesDeleted, long pointsDeleted, long seriesReleased, int tombstones, boolean dryRun) {

    static final DeleteResult NOTHING = new DeleteResult(0, 0, 0, 0, false);
}
