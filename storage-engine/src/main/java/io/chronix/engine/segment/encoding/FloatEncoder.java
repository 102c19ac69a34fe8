package io.chronix.engine.segment.encoding;

/**
 * Chooses the float encoding per block: ALP when the block is decimal-like and ALP's output is at
 * most {@value #ALP_GOOD_ENOUGH_BYTES} bytes per value (then Gorilla is not tried: it rarely does
 * better there), otherwise the smaller of ALP and Gorilla. Full-precision noise — a random walk
 * printed with every digit — makes ALP refuse the block, and Gorilla takes it.
 *
 * <p>Reusable; not thread-safe.
 */
public final class FloatEncoder {

    static final int ALP_GOOD_ENOUGH_BYTES = 2;

    /** Which encodings the writer may use. */
    public enum Policy { AUTO, GORILLA, ALP }

    private final Policy policy;
    private final BlockBuffer alpOut = new BlockBuffer(4096);
    private long[] ints = new long[1024];
    private long[] positions = new long[1024];
    private long[] scratch = new long[1024];
    private final int[] histogram = new int[65];

    public FloatEncoder(Policy policy) {
        this.policy = policy;
    }

    /** Appends the block to {@code out}; returns the encoding id ({@link Encodings#GORILLA} or {@link Encodings#ALP}). */
    public int encode(double[] values, int from, int count, BlockBuffer out) {
        if (policy != Policy.GORILLA) {
            if (ints.length < count) {
                ints = new long[count];
                positions = new long[count];
                scratch = new long[count];
            }
            alpOut.reset();
            if (Alp.encode(values, from, count, alpOut, ints, positions, scratch, histogram)) {
                if (policy == Policy.ALP || alpOut.size() <= (long) ALP_GOOD_ENOUGH_BYTES * count) {
                    out.putBytes(alpOut.array(), 0, alpOut.size());
                    return Encodings.ALP;
                }
                int start = out.size();
                Gorilla.encode(values, from, count, out);
                if (out.size() - start <= alpOut.size()) {
                    return Encodings.GORILLA;
                }
                out.truncate(start);
                out.putBytes(alpOut.array(), 0, alpOut.size());
                return Encodings.ALP;
            }
        }
        Gorilla.encode(values, from, count, out);
        return Encodings.GORILLA;
    }
}
