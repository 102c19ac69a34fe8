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

    @Override
    public String toString() {
        return Arrays.deepToString(values);
    }
}
