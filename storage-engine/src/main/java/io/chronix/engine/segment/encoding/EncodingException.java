package io.chronix.engine.segment.encoding;

/**
 * An encoded block does not decode: a length, width or count that cannot be, bytes that end early.
 * The segment reader turns it into a {@code CorruptFileException} with the file's path and the
 * block's offset; encoders never throw it.
 */
public final class EncodingException extends RuntimeException {

    public EncodingException(String reason) {
        super(reason, null, false, false);
    }
}
