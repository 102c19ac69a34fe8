package io.chronix.api.sql;

import java.util.List;

/**
 * A filter the engine answers from the scan's rows ({@link EngineFilter}) as DuckDB would,
 * recognised in DuckDB's parse tree by {@link StatementAnalysis}:
 * <pre>
 * SELECT * | column [AS name], … FROM m
 * [WHERE time comparisons with literals, tag predicates (one per tag), field &lt;op&gt; number, …]
 * [LIMIT n [OFFSET k]]
 * </pre>
 * No {@code ORDER BY}: the rows come in the order the scan hands them over, the order DuckDB keeps
 * for such a statement (it preserves its input's order), and SQL leaves free.
 *
 * @param from    the smallest {@code time} kept, at the nanosecond as DuckDB compares
 * @param to      the largest {@code time} kept, likewise
 * @param outputs the answer's columns
 * @param fields  every one must hold for a row to be kept
 */
public record FilterShape(String measurement, long from, long to, List<SelectedColumn> outputs, List<FieldTest> fields,
                          long limit, long offset) {

    public FilterShape {
        outputs = List.copyOf(outputs);
        fields = List.copyOf(fields);
    }

    /** A comparison operator, the column on its left. */
    public enum Op {
        LT, LE, EQ, GE, GT
    }

    /** One {@code field <op> number} conjunct, as DuckDB evaluates it. A NULL field fails it. */
    public sealed interface FieldTest {

        /** The field compared. */
        String field();

        /**
         * An {@code INTEGER} field against an integer or a decimal literal, which DuckDB compares
         * exactly (in {@code DECIMAL}): the integers in {@code [min, max]} pass (none if
         * {@code min > max}).
         */
        record LongRange(String field, long min, long max) implements FieldTest {

            boolean test(long v) {
                return v >= min && v <= max;
            }
        }

        /**
         * A field compared in {@code DOUBLE}: a {@code FLOAT} field against any number, or an
         * {@code INTEGER} field (converted) against a literal in exponent notation. NaN is greater
         * than every number, as DuckDB orders it; {@code -0.0} equals {@code 0.0}.
         *
         * @param value finite
         */
        record DoubleCompare(String field, Op op, double value) implements FieldTest {

            boolean test(double v) {
                if (Double.isNaN(v)) {
                    return op == Op.GT || op == Op.GE;
                }
                return switch (op) {
                    case LT -> v < value;
                    case LE -> v <= value;
                    case EQ -> v == value;
                    case GE -> v >= value;
                    case GT -> v > value;
                };
            }
        }
    }
}
