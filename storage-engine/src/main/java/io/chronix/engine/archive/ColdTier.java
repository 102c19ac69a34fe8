package io.chronix.engine.archive;

import io.chronix.engine.catalog.ArchivedSegment;
import io.chronix.engine.catalog.StoredObject;
import io.chronix.engine.read.TagPredicate;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.util.List;
import java.util.function.Consumer;

/**
 * The cold tier of one namespace: where archived segments go and are read back from. Bound to one
 * namespace id when created, so every object it writes carries that namespace's key prefix; object
 * keys are built from the namespace id, the shard id and an engine-chosen name only.
 *
 * <p>Failures are {@link io.chronix.engine.error.StorageBackendException} (the store) or
 * {@link ColdObjectException} (an object that is not what the catalog says).
 *
 * <p>Threading: implementations are safe for concurrent use.
 */
public interface ColdTier {

    /**
     * Writes {@code source}'s rows as one object, uploads it, reads it back and checks size and
     * checksum, and only then returns what is stored. A failure at any step throws and leaves at
     * most a stray object under the key (the next attempt overwrites it).
     */
    StoredObject archive(ArchiveSource source);

    /**
     * Passes the rows of {@code segment} in {@code [from, to]} to {@code sink}, projected to
     * {@code columns} (which include {@code time}; each is one the segment holds), batch by batch;
     * a batch is valid only during the call that receives it. Pruning may be coarse (the caller
     * filters rows again), but no row that passes {@code tags} in the range may be skipped.
     */
    void read(ArchivedSegment segment, List<String> columns, long from, long to, List<TagPredicate> tags,
            BufferAllocator allocator, Consumer<VectorSchemaRoot> sink);

    /** Removes the object of that key; a missing object is not an error. */
    void delete(String objectKey);

    /** Every object key the store holds for this namespace, in key order. */
    List<String> list();

    /** A short description for logs and reports, without credentials. */
    String describe();
}
