package io.chronix.api.sql;

import java.util.List;

/**
 * The lastpoint statement the engine answers from each series' newest row ({@link EngineNewest})
 * as DuckDB would, recognised in DuckDB's parse tree by {@link StatementAnalysis}:
 * <pre>
 * SELECT DISTINCT ON (tag, …) * | column [AS name], … FROM m [WHERE tag predicates and time lower bounds]
 * ORDER BY those tags [ASC|DESC] [NULLS …], time DESC [LIMIT n [OFFSET k]]
 * </pre>
 *
 * @param from    the smallest {@code time} kept, at the nanosecond as DuckDB compares
 * @param outputs the answer's columns: a name and the measurement's column it shows
 * @param keys    the {@code DISTINCT ON} tags, in {@code ORDER BY} order, with direction and NULL placement
 */
public record NewestShape(String measurement, long from, List<SelectedColumn> outputs, List<Key> keys, long limit, long offset) {

    public NewestShape {
        outputs = List.copyOf(outputs);
        keys = List.copyOf(keys);
    }

    /** NULLs last unless {@code nullsFirst}, either direction (DuckDB's default). */
    public record Key(String column, boolean descending, boolean nullsFirst) {
    }
}
