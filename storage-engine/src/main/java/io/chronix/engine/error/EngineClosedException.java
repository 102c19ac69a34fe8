package io.chronix.engine.error;

import java.nio.file.Path;

/** A call reached an engine after {@code close()}. */
public final class EngineClosedException extends EngineException {

    public EngineClosedException(Path directory) {
        super(describe("engine is closed", "directory", directory));
    }
}
