package io.chronix.engine.catalog;

import io.chronix.engine.model.FieldType;
import io.chronix.engine.schema.Column;

import java.util.Objects;

/**
 * Statistics of one column of one segment, as the catalog stores them.
 *
 * @param type the field type; {@code null} for a tag
 * @param nullCount rows in which the column is NULL
 * @param minTag the smallest tag value, {@code null} for a field or an all-NULL tag
 * @param maxTag the largest tag value, {@code null} likewise
 * @param minBits for a non-string field with a value: the smallest, in the order of its type
 *     (floats by the ordered-integer mapping of seed 001, NaN excluded); otherwise 0
 * @param maxBits likewise the largest
 * @param hasRange whether {@code minBits}/{@code maxBits} are meaningful
 */
public record ColumnStats(String name, Column.Kind kind, FieldType type, long nullCount, String minTag, String maxTag,
        boolean hasRange, long minBits, long maxBits) {

    public ColumnStats {
        Objects.requireNonNull(name, "name");
        if (kind != Column.Kind.TAG && kind != Column.Kind.FIELD) {
            throw new IllegalArgumentException("only tags and fields have column stats: " + kind);
        }
    }

    /** Float bits mapped so that signed comparison orders them: -inf &lt; -x &lt; -0 &lt; +0 &lt; x &lt; +inf. */
    public static long orderedFloat(double v) {
        long bits = Double.doubleToRawLongBits(v);
        return bits < 0 ? bits ^ Long.MAX_VALUE : bits ^ Long.MIN_VALUE;
    }
}
