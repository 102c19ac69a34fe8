package io.chronix.engine.error;

/**
 * A compaction could not merge or record one group. Its inputs stay live and its output, if one was
 * written, is deleted (or left as an orphan the next open removes): nothing is lost or doubled.
 */
public final class CompactionFailedException extends EngineException {

    public CompactionFailedException(long shard, String measurement, int segments, Throwable cause) {
        super(describe("compaction failed", "shard", shard, "measurement", measurement, "segments", segments, "cause", cause), cause);
    }
}
