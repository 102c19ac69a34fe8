package io.chronix.api.sql;

import java.util.List;

/**
 * A statement the engine's own aggregation answers exactly as DuckDB would
 * ({@link EngineAggregation}), recognised in DuckDB's parse tree by {@link StatementAnalysis}:
 * <pre>
 * SELECT [time_bucket|date_bin](INTERVAL 'n unit', time) AS b, tag, …, agg(field) AS a, …
 * FROM m [WHERE time and tag conjuncts]
 * [GROUP BY ordinals or tags] [ORDER BY ordinals] [LIMIT n [OFFSET k]]
 * </pre>
 * Every output that is not an aggregate is a group key, and every group key is an output.
 *
 * @param from    the smallest {@code time} any conjunct keeps, at the nanosecond as DuckDB compares
 * @param to      the largest, inclusive
 * @param outputs the select list, in order
 * @param orders  the sort keys, outputs by index; empty: the groups in key order
 * @param limit   rows kept after {@code offset}; {@code Long.MAX_VALUE} without a {@code LIMIT}
 */
public record AggregateShape(String measurement, long from, long to, List<Output> outputs, List<Order> orders,
        long limit, long offset) {

    public AggregateShape {
        outputs = List.copyOf(outputs);
        orders = List.copyOf(orders);
    }

    /** One column of the answer. */
    public sealed interface Output {
        String name();
    }

    /** A fixed-width time bucket: {@code time - ((time - origin) mod width)}, a floored modulo. */
    public record Bucket(String name, long width, long origin) implements Output {
    }

    /** A tag's value (a group key); NULL for series without the tag. */
    public record Tag(String name, String column) implements Output {
    }

    /**
     * An aggregate over the rows of a group. {@code column} is null for {@code count(*)};
     * {@code integer} says the field is a {@code BIGINT} (else {@code DOUBLE}, or any type for
     * {@code count}).
     */
    public record Aggregate(String name, Function function, String column, boolean integer) implements Output {
    }

    public enum Function {
        COUNT_STAR, COUNT, MIN, MAX, SUM, AVG
    }

    /** Sort by one output; NULLs last unless {@code nullsFirst}, either direction (DuckDB's default). */
    public record Order(int output, boolean descending, boolean nullsFirst) {
    }

    /**
     * The bucket output if the answer is the newest few buckets' groups: the first sort key is the
     * bucket, descending, under a {@code LIMIT}, and the range has an end. Then only as many
     * buckets, counted back from the end, can hold the answer as there are rows to keep
     * ({@code offset + limit}), and fewer if some are empty.
     */
    public java.util.Optional<Bucket> newestBucketsFirst() {
        if (orders.isEmpty() || limit == Long.MAX_VALUE || to == Long.MAX_VALUE || !orders.getFirst().descending()) {
            return java.util.Optional.empty();
        }
        return outputs.get(orders.getFirst().output()) instanceof Bucket b ? java.util.Optional.of(b) : java.util.Optional.empty();
    }

    /** Whether the statement groups at all; without group keys it answers one row, even over no rows. */
    public boolean grouped() {
        for (Output o : outputs) {
            if (!(o instanceof Aggregate)) {
                return true;
            }
        }
        return false;
    }
}
