/**
 * The query runner: TSBS's cpu-only query set ({@link io.chronix.bench.query.QueryKind}), drawn with
 * random hosts and windows from a seed ({@link io.chronix.bench.query.QueryPlanner}), rendered per
 * target by a {@link io.chronix.bench.query.dialect.QueryDialect}, timed by
 * {@link io.chronix.bench.query.QueryRunner}, and every answer compared by
 * {@link io.chronix.bench.query.AnswerChecker} with the answer that
 * {@link io.chronix.bench.query.ReferenceEvaluator} computes from the generator itself, so a fast
 * wrong answer fails the run instead of winning it.
 *
 * <p>Results are normalised to a {@link io.chronix.bench.query.ResultTable}: {@code time} as epoch
 * nanoseconds ({@code Long}), numbers as {@code Double}, tags as {@code String}, SQL NULL as
 * {@code null}.
 */
package io.chronix.bench.query;
