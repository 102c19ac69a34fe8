/**
 * Rollups (seed 001 "Rollup", issue 10): downsampling a source measurement into a target
 * measurement, bucket by bucket, kept right under late data and deletes.
 *
 * <ul>
 *   <li>{@link io.chronix.engine.rollup.TimeBucket}: the only source of bucket boundaries — fixed
 *       spans below a day, the local calendar of a zone for {@code d}, {@code w}, {@code mo}, {@code y}.</li>
 *   <li>{@link io.chronix.engine.rollup.RollupConfig}, {@link io.chronix.engine.rollup.Aggregate},
 *       {@link io.chronix.engine.rollup.RollupInfo}, {@link io.chronix.engine.rollup.TimeRange},
 *       {@link io.chronix.engine.rollup.MaterialiseReport}: what {@code Chronix}'s rollup calls take and answer.</li>
 *   <li>{@link io.chronix.engine.rollup.RollupRegistry} (definitions and state, persisted through its
 *       {@code Store}), {@link io.chronix.engine.rollup.InvalidationLog} (coalesced pending ranges).</li>
 *   <li>{@link io.chronix.engine.rollup.RollupAccumulator} / {@link io.chronix.engine.rollup.BucketAccumulator}
 *       (streaming and unordered folding), {@link io.chronix.engine.rollup.RollupFold} (Arrow rows in),
 *       {@link io.chronix.engine.rollup.RollupSchema} (the target's columns and types).</li>
 *   <li>{@link io.chronix.engine.rollup.Rollups}: materialisation, invalidation producers, the
 *       retention hold and the view, over a {@link io.chronix.engine.rollup.RollupHost}.</li>
 * </ul>
 *
 * <p>Threading: {@code TimeBucket}, the records and {@code Rollups}/{@code RollupRegistry} are
 * thread-safe; accumulators and folds belong to one pass on one thread. Nullness: nothing here
 * accepts or returns {@code null} unless its Javadoc says so.
 */
package io.chronix.engine.rollup;
