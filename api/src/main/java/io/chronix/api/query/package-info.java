/**
 * The query surface: {@code POST|GET /api/v1/namespaces/{ns}/query} (SQL through DuckDB over the
 * engine's pruned scans), {@code …/measurements}, {@code …/measurements/{m}} and {@code …/last}.
 * {@link io.chronix.api.query.QueryService} enforces the tenant's {@code queryTimeout} (by
 * cancelling the statement) and {@code maxConcurrentQueries}, bounds each query's Arrow memory and
 * records metrics; {@link io.chronix.api.query.ResultFormat} writes JSON, CSV or an Arrow IPC
 * stream batch by batch, so large results stream. The engine of a namespace comes through
 * {@link io.chronix.api.query.NamespaceTables}.
 *
 * <p>Threading: request threads (virtual) run one query each; a single timer thread cancels
 * queries past their timeout. Nullness: nothing is null unless documented.
 */
package io.chronix.api.query;
