package io.chronix.engine.cache;

/**
 * One decoded column block as the bytes of its Arrow buffers, on the heap (see {@link BlockCache}
 * for why not vectors). Immutable by contract: nobody writes into the arrays after construction.
 *
 * @param valueCount rows of the block
 * @param validity Arrow validity bitmap (LSB first, bit set = present), {@code null} if every row is present
 * @param data the data buffer: 8 bytes per value (little endian) for fixed-width columns, the bit
 *     buffer for booleans, the UTF-8 bytes for strings
 * @param offsets for strings the {@code valueCount + 1} little-endian int32 offsets into {@code data}; else {@code null}
 */
public record DecodedBlock(int valueCount, byte[] validity, byte[] data, byte[] offsets) {

    /** Bytes this entry holds, with a small allowance for the objects. */
    public long weight() {
        return 64L + data.length + (validity == null ? 0 : validity.length) + (offsets == null ? 0 : offsets.length);
    }
}
