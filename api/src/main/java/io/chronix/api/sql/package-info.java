/**
 * DuckDB plumbing for tenant SQL, free of Spring: the locked-down shared instance
 * ({@link io.chronix.api.sql.SqlSandbox}), what a statement reads as found in DuckDB's own parse
 * tree ({@link io.chronix.api.sql.StatementAnalysis}), the engine batches handed to DuckDB through
 * the Arrow C Data Interface ({@link io.chronix.engine.read.BatchListReader}) and one query's life
 * ({@link io.chronix.api.sql.SqlQuery}).
 *
 * <p>Threading: the sandbox is thread-safe; a {@link io.chronix.api.sql.SqlQuery} belongs to one
 * thread, except {@link io.chronix.api.sql.SqlQuery#cancel()}. Nullness: no parameter or result is
 * null unless its Javadoc says so.
 */
package io.chronix.api.sql;
