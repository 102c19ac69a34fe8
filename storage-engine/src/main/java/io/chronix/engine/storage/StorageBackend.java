package io.chronix.engine.storage;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The object store the cold tier is written against (seed 001, "Storage Backend").
 *
 * <p>Two faces of one contract: the blocking methods, which the maintenance scheduler and request
 * (virtual) threads call directly, and the asynchronous ones ({@code putAsync} …), which return a
 * {@link CompletableFuture} completed by a virtual thread running the blocking call — so a caller
 * can start many transfers at once without owning a thread per transfer. A backend with a native
 * asynchronous client may override them.
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

    /** Size and version tag of an object. */
    ObjectInfo stat(SegmentPath path);

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

    // ------------------------------------------------------------------ asynchronous face

    default CompletableFuture<Void> putAsync(SegmentPath path, byte[] data) {
        return CompletableFuture.runAsync(() -> put(path, data), Async.EXECUTOR);
    }

    default CompletableFuture<byte[]> getAsync(SegmentPath path) {
        return CompletableFuture.supplyAsync(() -> get(path), Async.EXECUTOR);
    }

    default CompletableFuture<byte[]> getRangeAsync(SegmentPath path, long offset, long length) {
        return CompletableFuture.supplyAsync(() -> getRange(path, offset, length), Async.EXECUTOR);
    }

    default CompletableFuture<Void> deleteAsync(SegmentPath path) {
        return CompletableFuture.runAsync(() -> delete(path), Async.EXECUTOR);
    }

    default CompletableFuture<List<SegmentPath>> listAsync(NamespaceId namespace) {
        return CompletableFuture.supplyAsync(() -> list(namespace), Async.EXECUTOR);
    }

    default CompletableFuture<Boolean> existsAsync(SegmentPath path) {
        return CompletableFuture.supplyAsync(() -> exists(path), Async.EXECUTOR);
    }

    /** The executor of the asynchronous face: a virtual thread per call, nothing to close. */
    final class Async {
        static final ExecutorService EXECUTOR = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("chronix-store-", 0).factory());

        private Async() {
        }
    }
}
