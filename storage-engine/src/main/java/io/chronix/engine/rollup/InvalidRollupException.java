package io.chronix.engine.rollup;

import io.chronix.engine.error.EngineException;

/**
 * A rollup definition, bucket or request the engine refuses: a width, zone or origin it cannot
 * parse, a bad name, a duplicate, a cycle, a target of another shape, an unknown rollup. The
 * message names what was refused, as {@code what [key=value, …]}.
 */
public final class InvalidRollupException extends EngineException {

    private final String subject;

    public InvalidRollupException(String what, String subject, Object value) {
        super(describe(what, subject, value));
        this.subject = subject;
    }

    /** The part that was refused: {@code every}, {@code timezone}, {@code origin}, {@code name}, {@code target}, … */
    public String subject() {
        return subject;
    }
}
