package io.chronix.engine.segment.encoding;

/**
 * Chooses the float encoding per block: ALP when the block is decimal-like and ALP's output is at
 * most {@value #ALP_GOOD_ENOUGH_BYTES} bytes per value (then nothing else is tried: the others
 * rarely do better there), otherwise the smallest of ALP (if it accepted the block), ALP-RD and
 * Gorilla. Full-precision noise — a random walk printed with every digit — makes ALP refuse the
 * block or store long integers; ALP-RD or Gorilla takes it.
 *
 * <p>Reusable; not thread-safe.
 */
public final class FloatEncoder {

    static final int ALP_GOOD_ENOUGH_BYTES = 2;

    /** Which encodings the writer may use. */
    public enum Policy {
        /** The smallest per block, as above. */
        AUTO,
        /** Gorilla only. */
        GORILLA,
        /** ALP wherever it accepts a block, else Gorilla. */
        ALP,
        /** ALP-RD only (every block). */
        ALP_RD,
        /** What format version 1 chose: ALP when good enough, else the smaller of ALP and Gorilla. */
        ALP_OR_GORILLA
    }

    private final Policy policy;
    private final BlockBuffer candidate = new BlockBuffer(4096);
    private final BlockBuffer best = new BlockBuffer(4096);
    /** Created on first use: its tables (320 KB) are not needed while ALP takes every block. */
    private AlpRd.Encoder alpRd;
    private long[] ints = new long[1024];
    private long[] positions = new long[1024];
    private long[] scratch = new long[1024];
    private final int[] histogram = new int[65];

    public FloatEncoder(Policy policy) {
        this.policy = policy;
    }

    /**
     * Appends the block to {@code out}; returns the encoding id ({@link Encodings#GORILLA}, {@link
     * Encodings#ALP} or {@link Encodings#ALP_RD}).
     */
    public int encode(double[] values, int from, int count, BlockBuffer out) {
        if (count == 0 || policy == Policy.GORILLA) {
            Gorilla.encode(values, from, count, out);
            return Encodings.GORILLA;
        }
        if (policy == Policy.ALP_RD) {
            alpRd().encode(values, from, count, out);
            return Encodings.ALP_RD;
        }
        if (ints.length < count) {
            ints = new long[count];
            positions = new long[count];
            scratch = new long[count];
        }
        best.reset();
        int bestEncoding = -1;
        if (Alp.encode(values, from, count, best, ints, positions, scratch, histogram)) {
            if (policy == Policy.ALP || best.size() <= (long) ALP_GOOD_ENOUGH_BYTES * count) {
                out.putBytes(best.array(), 0, best.size());
                return Encodings.ALP;
            }
            bestEncoding = Encodings.ALP;
        }
        if (policy == Policy.AUTO) {
            candidate.reset();
            alpRd().encode(values, from, count, candidate);
            bestEncoding = keepSmaller(bestEncoding, Encodings.ALP_RD);
        }
        // Gorilla goes straight into out: it is the last candidate, and wins ties
        int start = out.size();
        Gorilla.encode(values, from, count, out);
        if (bestEncoding >= 0 && best.size() < out.size() - start) {
            out.truncate(start);
            out.putBytes(best.array(), 0, best.size());
            return bestEncoding;
        }
        return Encodings.GORILLA;
    }

    private AlpRd.Encoder alpRd() {
        if (alpRd == null) {
            alpRd = new AlpRd.Encoder();
        }
        return alpRd;
    }

    /** Keeps {@code candidate} as the best so far if it is smaller (or the first); returns the best's encoding. */
    private int keepSmaller(int bestEncoding, int candidateEncoding) {
        if (bestEncoding < 0 || candidate.size() < best.size()) {
            best.reset();
            best.putBytes(candidate.array(), 0, candidate.size());
            return candidateEncoding;
        }
        return bestEncoding;
    }
}
