package io.chronix.api.sql;

import java.util.Arrays;

/**
 * The values of some tags, each its UTF-8 bytes or null for NULL, compared by content: a key of
 * hash maps that group rows by tag values ({@link EngineAggregation}, {@link EngineNewest}).
 */
record TagValues(byte[][] values) {

    @Override
    public boolean equals(Object o) {
        return o instanceof TagValues k && Arrays.deepEquals(values, k.values);
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(values);
    }

    /**
     * Two tag values (UTF-8 bytes, null for NULL) in DuckDB's order of {@code VARCHAR}: by their
     * bytes (the binary collation), NULLs last unless {@code nullsFirst}, in either direction.
     */
    static int compare(byte[] a, byte[] b, boolean descending, boolean nullsFirst) {
        if (a == null || b == null) {
            return a == b ? 0 : (a == null) == nullsFirst ? -1 : 1;
        }
        int c = Arrays.compareUnsigned(a, b);
        return descending ? -c : c;
    }

    @Override
    public String toString() {
        return Arrays.deepToString(values);
    }
}
