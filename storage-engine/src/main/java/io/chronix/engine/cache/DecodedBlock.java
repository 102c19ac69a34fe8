package io.chronix.engine.cache;

/**
 * One decoded column block as the bytes of its Arrow buffers, on the heap (see {@link BlockCache}
 * for why not vectors). Immutable by contract: nobody writes into the arrays after construction.
 *
 * <p>A string block comes in one of two forms. <em>Materialised</em> ({@code codes == null}):
 * {@code data} and {@code offsets} are the Arrow buffers of every row. <em>Dictionary</em>
 * ({@code codes != null}): {@code data} holds the block's distinct strings once each and
 * {@code offsets} their {@code entries + 1} offsets; a row's string is the entry of its code. A tag
 * column of a series-by-series segment changes once per series, so its dictionary image is a few
 * KB where the materialised one is every row's bytes — and a query that wants a few hundred rows
 * gathers just those.
 *
 * @param valueCount rows of the block
 * @param validity Arrow validity bitmap (LSB first, bit set = present), {@code null} if every row is present
 * @param data the data buffer: 8 bytes per value (little endian) for fixed-width columns, the bit
 *     buffer for booleans, the UTF-8 bytes of the rows (materialised) or of the entries (dictionary) for strings
 * @param offsets for strings the little-endian int32 offsets into {@code data}, {@code valueCount + 1}
 *     of them (materialised) or one more than the entries (dictionary); else {@code null}
 * @param codes dictionary form only: the entry of each row, or of each run when {@code runEnds} is set
 * @param runEnds dictionary form only, optional: where each run of one code ends (exclusive,
 *     ascending, the last one {@code valueCount}); {@code null} when {@code codes} has one entry per row
 */
public record DecodedBlock(int valueCount, byte[] validity, byte[] data, byte[] offsets, int[] codes, int[] runEnds) {

    /** A fixed-width, boolean or materialised string block. */
    public DecodedBlock(int valueCount, byte[] validity, byte[] data, byte[] offsets) {
        this(valueCount, validity, data, offsets, null, null);
    }

    public DecodedBlock {
        if (runEnds != null && (codes == null || codes.length != runEnds.length)) {
            throw new IllegalArgumentException("one code per run [codes=" + (codes == null ? "none" : codes.length)
                    + ", runs=" + runEnds.length + "]");
        }
        if (codes != null && (offsets == null || (runEnds == null && codes.length != valueCount))) {
            throw new IllegalArgumentException("a dictionary image needs its entry offsets and one code per row or run");
        }
    }

    /** Bytes this entry holds, with a small allowance for the objects. */
    public long weight() {
        return 64L + data.length + (validity == null ? 0 : validity.length) + (offsets == null ? 0 : offsets.length)
                + 4L * ((codes == null ? 0 : codes.length) + (runEnds == null ? 0 : runEnds.length));
    }
}
