package io.chronix.engine.error;

/**
 * Base of every exception the engine throws on purpose. Unchecked, so that callers handle what
 * they can act on and let the rest reach the edge that maps it to an answer.
 */
public abstract class EngineException extends RuntimeException {

    protected EngineException(String message) {
        super(message);
    }

    protected EngineException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Formats {@code what [k1=v1, k2=v2]} from alternating keys and values. */
    protected static String describe(String what, Object... keyValues) {
        if (keyValues.length % 2 != 0) {
            throw new IllegalArgumentException("keyValues must come in pairs");
        }
        if (keyValues.length == 0) {
            return what;
        }
        StringBuilder sb = new StringBuilder(what).append(" [");
        for (int i = 0; i < keyValues.length; i += 2) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(keyValues[i]).append('=').append(keyValues[i + 1]);
        }
        return sb.append(']').toString();
    }
}
