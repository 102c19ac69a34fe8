package io.chronix.engine.error;

/** An insert reached a memtable that has been frozen for flushing; the caller retries on the active one. */
public final class MemtableFrozenException extends EngineException {

    public MemtableFrozenException(long shard) {
        super(describe("memtable is frozen", "shard", shard));
    }
}
