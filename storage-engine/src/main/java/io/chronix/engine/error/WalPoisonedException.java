package io.chronix.engine.error;

import java.nio.file.Path;

/**
 * An fsync of the WAL failed, so the log refuses every append from then on. After a failed fsync
 * the kernel may have dropped the dirty pages and cleared the error, so a retry that "succeeds"
 * proves nothing (PostgreSQL's fsync rule). Only reopening the log, which replays what is really on
 * disk, clears this state.
 */
public final class WalPoisonedException extends EngineException {

    private final Path directory;

    public WalPoisonedException(Path directory, Throwable cause) {
        super(describe("WAL is unusable after a failed fsync; reopen to recover", "dir", directory,
                "cause", String.valueOf(cause)), cause);
        this.directory = directory;
    }

    public Path directory() {
        return directory;
    }
}
