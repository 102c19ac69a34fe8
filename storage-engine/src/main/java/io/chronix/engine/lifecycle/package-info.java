/**
 * Data lifecycle: deletes (tombstones) and retention (by age per namespace, and a disk budget
 * shared by every namespace of a process). Seed 001 "Data Lifecycle", seed 003 "Retention".
 *
 * <ul>
 *   <li>{@link io.chronix.engine.lifecycle.DeleteBuilder} / {@link io.chronix.engine.lifecycle.DeleteRequest}
 *       → {@link io.chronix.engine.lifecycle.DeleteResult}: what {@code Chronix.delete()} takes and answers.</li>
 *   <li>{@link io.chronix.engine.lifecycle.Tombstones}: the live tombstones of one engine, indexed
 *       for reads ({@link io.chronix.engine.read.RowMask} per segment) and for collection.</li>
 *   <li>{@link io.chronix.engine.lifecycle.Retention}: the reference time and the shard choice;
 *       {@link io.chronix.engine.lifecycle.RetentionResult} its counts;
 *       {@link io.chronix.engine.lifecycle.RollupRetentionHold} the hook through which rollups hold data back.</li>
 *   <li>{@link io.chronix.engine.lifecycle.DiskBudget}: the process-wide byte budget, oldest segments
 *       first across engines.</li>
 * </ul>
 *
 * <p>Threading: {@code Tombstones} and {@code DiskBudget} are thread-safe; the request and result
 * records are immutable; a {@code DeleteBuilder} belongs to the thread that uses it.
 * Nullness: nothing here accepts or returns {@code null} unless its Javadoc says so.
 */
package io.chronix.engine.lifecycle;
