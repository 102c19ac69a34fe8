package io.chronix.bench.load;

/**
 * Whole lines of line protocol for one request.
 *
 * @param index  position in the input, from 0
 * @param body   the bytes, each line ending in {@code \n}
 * @param lines  number of points (non-blank, non-comment lines)
 * @param values number of field values in those lines
 */
public record Batch(long index, byte[] body, int lines, long values) {
}
