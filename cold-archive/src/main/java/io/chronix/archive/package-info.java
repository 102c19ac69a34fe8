/**
 * The cold tier: object-store backends that implement the engine's
 * {@link io.chronix.engine.storage.StorageBackend}, and (later) the Parquet writer and reader of
 * archived segments.
 */
package io.chronix.archive;
