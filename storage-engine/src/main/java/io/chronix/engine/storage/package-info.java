/**
 * The cold tier's abstraction: {@link io.chronix.engine.storage.StorageBackend} and its object key,
 * {@link io.chronix.engine.storage.SegmentPath}. The hot path never goes through it (a flush writes
 * a file, a read maps it); archiving and cold reads do. Implementations live in {@code cold-archive}.
 *
 * <p>Threading: implementations must be safe for concurrent use. Keys are built only from ids
 * and engine-chosen file names, never from user input.
 */
package io.chronix.engine.storage;
