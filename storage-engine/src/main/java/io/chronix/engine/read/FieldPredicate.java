package io.chronix.engine.read;

import java.util.Objects;

/**
 * A range a numeric field's value must lie in, pushed into a scan as a hint: a source may leave
 * out a row only where the field is NULL or its value lies outside {@code [min, max]}, and any
 * source may ignore the predicate altogether (the consumer — SQL — applies its whole condition
 * again). Only sources whose rows nothing can overwrite use it: filtering a row before last write
 * wins folds it with a newer version would change the answer.
 *
 * <p>Values compare as doubles ({@code INTEGER} and {@code UNSIGNED} fields converted, which may
 * round beyond 2^53: callers widen the bounds by a margin that covers it). NaN sorts above every
 * number, as in DuckDB, so it passes exactly when {@code max} is {@code +Infinity}. {@code -0.0}
 * and {@code 0.0} are the same value.
 *
 * @param field the field's name; a source without the column holds it as NULL everywhere
 * @param min   the least value kept, inclusive ({@code -Infinity}: no lower bound)
 * @param max   the greatest value kept, inclusive ({@code +Infinity}: no upper bound)
 */
public record FieldPredicate(String field, double min, double max) {

    public FieldPredicate {
        Objects.requireNonNull(field, "field");
        if (Double.isNaN(min) || Double.isNaN(max)) {
            throw new IllegalArgumentException("a bound is NaN [field=" + field + "]");
        }
    }

    /** {@code field >= min}. */
    public static FieldPredicate atLeast(String field, double min) {
        return new FieldPredicate(field, min, Double.POSITIVE_INFINITY);
    }

    /** {@code field <= max}. */
    public static FieldPredicate atMost(String field, double max) {
        return new FieldPredicate(field, Double.NEGATIVE_INFINITY, max);
    }

    /** Whether the range holds no value at all (nothing passes, not even NaN). */
    public boolean empty() {
        return min > max;
    }

    /** Whether a non-NULL value passes. */
    public boolean test(double v) {
        if (Double.isNaN(v)) {
            return max == Double.POSITIVE_INFINITY;
        }
        return v >= min && v <= max;
    }

    /** Both predicates on the same field at once. */
    public FieldPredicate and(FieldPredicate other) {
        if (!field.equals(other.field)) {
            throw new IllegalArgumentException("an intersection is of one field [" + field + ", " + other.field + "]");
        }
        return new FieldPredicate(field, Math.max(min, other.min), Math.min(max, other.max));
    }
}
