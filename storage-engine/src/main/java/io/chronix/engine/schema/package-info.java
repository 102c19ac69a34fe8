/**
 * The schema registry: per measurement, its tag keys and each field's type, fixed by the field's
 * first write. A batch is validated whole against it before anything is written.
 *
 * <p>Threading: {@link io.chronix.engine.schema.SchemaRegistry} is thread-safe; {@link
 * io.chronix.engine.schema.MeasurementSchema} and {@link io.chronix.engine.schema.Column} are
 * immutable. Nullness: {@code Column.type()} is null for the time and tag columns only.
 */
package io.chronix.engine.schema;
