package io.chronix.api.engine;

/**
 * The namespace's engine could not be opened for a storage error a moment ago, and is not tried
 * again before its retry is due ({@link EngineProperties#storageRetryInterval()}): answered 503
 * (507 when the error was a full disk) with {@code Retry-After}.
 */
public final class StorageUnavailableException extends RuntimeException {

    private final long namespace;
    private final StorageFault fault;
    private final long retryAfterSeconds;

    StorageUnavailableException(long namespace, StorageFault fault, String reason, long retryAfterSeconds) {
        super("namespace storage unavailable [namespace=" + namespace + ", fault=" + fault + ", reason=" + reason + "]");
        this.namespace = namespace;
        this.fault = fault;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public long namespace() {
        return namespace;
    }

    public StorageFault fault() {
        return fault;
    }

    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
