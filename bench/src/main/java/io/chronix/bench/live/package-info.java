/**
 * The live query suite (issue 44, item 6): {@link io.chronix.bench.live.LiveCommand} loads TSBS
 * cpu-only data into the service over HTTP and, with no flush and no wait, runs the ordinary SQL
 * statements of {@code queries.sql} against it and against DuckDB over its own table of the same
 * rows, checking every answer ({@link io.chronix.bench.live.Answer}) and timing both; then again
 * after a restart. See {@code bench/README.md}, "Live query suite".
 *
 * <p>Threading: everything runs on the calling thread, one statement at a time (the load uses the
 * load generator's own workers). Nullness: a null is a SQL NULL cell or a missing difference
 * ({@link io.chronix.bench.live.Answer#difference}); nothing else returns null.
 */
package io.chronix.bench.live;
