package io.chronix.engine.error;

/** A cold segment asked for by key does not exist in the store. */
public final class SegmentNotFoundException extends EngineException {

    private final String key;

    public SegmentNotFoundException(String key) {
        super(describe("cold segment not found", "key", key));
        this.key = key;
    }

    public String key() {
        return key;
    }
}
