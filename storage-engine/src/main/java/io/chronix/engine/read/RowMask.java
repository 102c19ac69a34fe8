package io.chronix.engine.read;

/**
 * Rows of one source (a segment) that a read must not return: the tombstones that apply to it,
 * asked series by series. Implementations are immutable and cheap to ask once per series run.
 */
@FunctionalInterface
public interface RowMask {

    /** Nothing is masked. */
    RowMask NONE = tuple -> null;

    /**
     * The deleted time ranges of the series with these tag values (over the merger's tag keys, in
     * their order; {@code null} where the series has no such tag), as {@code [start0, end0, start1,
     * end1, …]} with both ends inclusive, or {@code null} if none of its rows is masked.
     */
    long[] deletedRanges(String[] tagValues);

    /** Whether {@code t} lies in one of {@code ranges} (as {@link #deletedRanges} answers them). */
    static boolean covered(long[] ranges, long t) {
        for (int i = 0; i < ranges.length; i += 2) {
            if (t >= ranges[i] && t <= ranges[i + 1]) {
                return true;
            }
        }
        return false;
    }
}
