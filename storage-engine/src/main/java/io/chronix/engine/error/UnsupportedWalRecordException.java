package io.chronix.engine.error;

/**
 * A WAL record of a kind this engine does not write and will not guess the meaning of, met during
 * replay. Deletes are recorded in the catalog only (see the storage-engine README, "Deletes and
 * retention"), so a WAL {@code Tombstone} record was written by something else.
 */
public final class UnsupportedWalRecordException extends EngineException {

    private final long sequence;

    public UnsupportedWalRecordException(String kind, long sequence, String reason) {
        super(describe("WAL record refused: " + reason, "kind", kind, "sequence", sequence));
        this.sequence = sequence;
    }

    public long sequence() {
        return sequence;
    }
}
