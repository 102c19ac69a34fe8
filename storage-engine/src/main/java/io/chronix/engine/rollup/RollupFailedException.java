package io.chronix.engine.rollup;

import io.chronix.engine.error.EngineException;

/** A rollup's materialisation could not complete (its watermark stays); the message names rollup and reason. */
public final class RollupFailedException extends EngineException {

    public RollupFailedException(String rollup, String reason, long from, long to) {
        super(describe("rollup materialisation failed: " + reason, "rollup", rollup, "from", from, "to", to));
    }
}
