package io.chronix.engine.segment.encoding;

/**
 * Encoding ids as stored in a column block's {@code encoding} byte, and shared helpers. Never
 * renumber: the ids are part of the {@code .csx} format.
 */
public final class Encodings {

    /** Timestamps: first value, then zigzag delta-of-deltas, patched bit-packed ({@link DeltaOfDelta}). */
    public static final int DELTA_OF_DELTA = 1;
    /** Integers: first value, then zigzag deltas, patched bit-packed ({@link DeltaZigzag}). */
    public static final int DELTA_ZIGZAG = 2;
    /** Floats: Gorilla XOR ({@link Gorilla}). */
    public static final int GORILLA = 3;
    /** Floats: ALP, decimal floats as integers plus exceptions ({@link Alp}). */
    public static final int ALP = 4;
    /** Strings and tags: block dictionary with codes or runs ({@link Dictionary}). */
    public static final int DICTIONARY = 5;
    /** Booleans: one bit per value, LSB first ({@link BooleanBits}). */
    public static final int BITS = 6;
    /** Floats: ALP-RD, full-precision doubles split into a dictionary-coded left and a bit-packed right part ({@link AlpRd}); format version 2. */
    public static final int ALP_RD = 7;

    /**
     * Spare bytes a decoder may read past the end of a block's payload (never interpreted). Every
     * buffer handed to a decoder has at least this many bytes after {@code end}.
     */
    public static final int PAD = 16;

    private Encodings() {
    }

    public static String name(int encoding) {
        return switch (encoding) {
            case DELTA_OF_DELTA -> "delta-of-delta";
            case DELTA_ZIGZAG -> "delta-zigzag";
            case GORILLA -> "gorilla";
            case ALP -> "alp";
            case DICTIONARY -> "dictionary";
            case BITS -> "bits";
            case ALP_RD -> "alp-rd";
            default -> "unknown(" + encoding + ")";
        };
    }

    static long zigzag(long v) {
        return (v << 1) ^ (v >> 63);
    }

    static long unzigzag(long v) {
        return (v >>> 1) ^ -(v & 1);
    }

    static void need(int pos, int bytes, int end, String what) {
        if (bytes < 0 || pos > end - bytes) {
            throw new EncodingException(what + " runs past the end of the block");
        }
    }

    static long getLong(byte[] src, int pos) {
        return (long) BlockBuffer.LONG.get(src, pos);
    }

    static int getInt(byte[] src, int pos) {
        return (int) BlockBuffer.INT.get(src, pos);
    }
}
