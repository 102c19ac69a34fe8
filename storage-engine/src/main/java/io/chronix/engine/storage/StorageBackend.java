package io.chronix.engine.storage;

import java.util.List;

/**
 * The object store the cold tier is written against. Operations block; callers run them on the
 * maintenance scheduler or on request (virtual) threads.
 *
 * <p>Failures are {@link io.chronix.engine.error.StorageBackendException}; a missing object on
 * {@code get} is {@link io.chronix.engine.error.SegmentNotFoundException}.
 */
public interface StorageBackend extends AutoCloseable {

    /** Stores the whole object, replacing any object of that key. Visible whole or not at all. */
    void put(SegmentPath path, byte[] data);

    /** The whole object. */
    byte[] get(SegmentPath path);

    /** {@code length} bytes from {@code offset}; fewer only if the object ends first. */
    byte[] getRange(SegmentPath path, long offset, long length);

    /** Removes the object; removing a missing object is not an error. */
    void delete(SegmentPath path);

    /** Every segment of the namespace, in key order. */
    List<SegmentPath> list(NamespaceId namespace);

    boolean exists(SegmentPath path);

    /**
     * Checks that the store answers and its bucket (or root) exists and is usable; throws
     * {@link io.chronix.engine.error.StorageBackendException} saying what is wrong otherwise.
     */
    void checkAvailable();

    /** A short description for health reports and logs, without credentials. */
    String describe();

    @Override
    default void close() {
    }
}
