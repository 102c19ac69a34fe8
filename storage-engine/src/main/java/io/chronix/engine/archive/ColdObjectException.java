package io.chronix.engine.archive;

import io.chronix.engine.error.EngineException;

/**
 * An archived object is not what was written or recorded: the read-back after an upload, or a
 * download, differs in size or checksum, or the object is not a cold segment we wrote.
 */
public final class ColdObjectException extends EngineException {

    private final String key;

    public ColdObjectException(String key, String reason) {
        super(describe("cold object is not what was recorded", "key", key, "reason", reason));
        this.key = key;
    }

    public String key() {
        return key;
    }
}
