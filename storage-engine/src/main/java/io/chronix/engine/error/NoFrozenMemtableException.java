package io.chronix.engine.error;

/** A flush of a shard was asked for while the shard has no frozen memtable to flush. */
public final class NoFrozenMemtableException extends EngineException {

    public NoFrozenMemtableException(long shard) {
        super(describe("no frozen memtable to flush", "shard", shard));
    }
}
