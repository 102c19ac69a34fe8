package io.chronix.engine.error;

/**
 * A flush could not write or register a segment. The frozen memtable and the WAL are kept, so
 * nothing is lost; the next flush retries.
 */
public final class FlushFailedException extends EngineException {

    public FlushFailedException(long shard, String measurement, Throwable cause) {
        super(describe("flush failed", "shard", shard, "measurement", measurement, "cause", cause), cause);
    }
}
