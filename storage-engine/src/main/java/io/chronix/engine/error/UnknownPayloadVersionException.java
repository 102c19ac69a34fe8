package io.chronix.engine.error;

/**
 * A WAL payload does not start with the codec version this build reads ({@code 0x01}). A JSON
 * document, for instance, starts with {@code '{'} and lands here rather than being parsed.
 */
public final class UnknownPayloadVersionException extends EngineException {

    private final int found;
    private final int expected;

    public UnknownPayloadVersionException(int found, int expected) {
        super(describe("unknown WAL payload codec version", "found", String.format("0x%02x", found),
                "expected", String.format("0x%02x", expected)));
        this.found = found;
        this.expected = expected;
    }

    /** The first byte of the payload, 0..255; -1 for an empty payload. */
    public int found() {
        return found;
    }

    public int expected() {
        return expected;
    }
}
