package io.chronix.engine.error;

/**
 * A WAL payload has the right codec version but its body does not decode: a count larger than the
 * bytes left, a varint too long, an unknown field type, trailing bytes. The offset is within the
 * payload.
 */
public final class PayloadDecodeException extends EngineException {

    private final int offset;
    private final String reason;

    public PayloadDecodeException(int offset, String reason) {
        super(describe("malformed WAL payload", "offset", offset, "reason", reason));
        this.offset = offset;
        this.reason = reason;
    }

    public int offset() {
        return offset;
    }

    public String reason() {
        return reason;
    }
}
