/**
 * One {@link io.chronix.bench.query.dialect.QueryDialect} per target: how a
 * {@link io.chronix.bench.query.QueryInstance} is written in the target's language, how it is sent,
 * and how the answer is read back into a {@link io.chronix.bench.query.ResultTable}. Chronix speaks
 * DuckDB-flavoured SQL over its JSON query endpoint, QuestDB its SQL over {@code /exec}, InfluxDB 1.x
 * InfluxQL over {@code /query}. Each template follows TSBS's own for that system, with the
 * deviations that the TSBS templates get wrong noted where they are made.
 */
package io.chronix.bench.query.dialect;
