/**
 * Segment summaries: per series of a segment, per numeric field, count, first and last (time and
 * value), min, max and a compensated (floats) or exact (integers) sum, in a {@code .summary} file
 * beside the segment ({@code docs/format/summary.md}). Optional and derived: the engine answers
 * aggregates from them where that is exact, and reads blocks wherever a summary is missing,
 * damaged, foreign or not applicable.
 *
 * <p>Threading: {@link io.chronix.engine.summary.FieldAggregate} and the builder are not
 * thread-safe; reader and writer are stateless. Nullness: non-null unless documented.
 */
package io.chronix.engine.summary;
