package io.chronix.api.engine;

import io.chronix.engine.error.DiskFullException;
import io.chronix.engine.error.StorageIoException;
import io.chronix.engine.error.WalIoException;
import io.chronix.engine.error.WalPoisonedException;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * What kind of storage failure an engine's exception is, if it is one: how the service answers it
 * (507 for a full device, 503 for a failing one) and whether the namespace counts as failing in
 * the health component {@code engine}.
 */
public enum StorageFault {

    /** The device is full (ENOSPC): nothing of the operation was written; it succeeds once space returns. */
    DISK_FULL,
    /** An fsync failed: the WAL or the catalog refuses work until the registry reopens the engine. */
    SYNC_FAILED,
    /** Another I/O error: the operation failed and wrote nothing that will be read. */
    IO_FAILED;

    private static final int MAX_CAUSES = 16;

    /** The fault {@code e} (or a cause of it) reports; null for anything that is not a storage failure. */
    public static StorageFault of(Throwable e) {
        if (e instanceof StorageUnavailableException u) {
            return u.fault();
        }
        int n = 0;
        for (Throwable t = e; t != null && n++ < MAX_CAUSES; t = t.getCause()) {
            if (t instanceof DiskFullException || noSpace(t.getMessage())) {
                return DISK_FULL;
            }
        }
        n = 0;
        for (Throwable t = e; t != null && n++ < MAX_CAUSES; t = t.getCause()) {
            if (t instanceof WalPoisonedException) {
                return SYNC_FAILED;
            }
        }
        n = 0;
        for (Throwable t = e; t != null && n++ < MAX_CAUSES; t = t.getCause()) {
            if (t instanceof WalIoException || t instanceof StorageIoException || t instanceof UncheckedIOException
                    || t instanceof IOException) {
                return IO_FAILED;
            }
        }
        return null;
    }

    private static boolean noSpace(String message) {
        return message != null && (message.contains("No space left on device") || message.contains("ENOSPC"));
    }
}
