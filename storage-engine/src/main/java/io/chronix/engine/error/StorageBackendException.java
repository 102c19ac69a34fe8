package io.chronix.engine.error;

/** An object-store operation failed; the message names the operation and the object key. */
public final class StorageBackendException extends EngineException {

    private final String key;

    public StorageBackendException(String operation, String key, Throwable cause) {
        super(describe("object store " + operation + " failed", "key", key, "cause", String.valueOf(cause)), cause);
        this.key = key;
    }

    public StorageBackendException(String operation, String key, String reason) {
        super(describe("object store " + operation + " failed", "key", key, "reason", reason));
        this.key = key;
    }

    /** The object key the operation was about, or the bucket/prefix for whole-store checks. */
    public String key() {
        return key;
    }
}
