package io.chronix.engine.archive;

import io.chronix.engine.catalog.SegmentEntry;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.List;
import java.util.Objects;

/**
 * One hot segment handed to {@link ColdTier#archive}: its catalog entry and all its rows.
 *
 * @param objectName the object's name inside its shard ({@code seg_{nanos}_{counter}.parquet}),
 *     chosen by the engine from the segment's file name; never user input
 * @param schema the rows' schema in canonical order ({@code time} as a nanosecond timestamp
 *     without zone, tags as strings, fields in their types)
 * @param batches the rows, series by series and in time order within a series; owned by the
 *     caller, valid during the call
 * @param allocator the allocator the batches live in (an export must use the same root)
 */
public record ArchiveSource(SegmentEntry segment, String objectName, Schema schema, List<VectorSchemaRoot> batches,
        BufferAllocator allocator) {

    public ArchiveSource {
        Objects.requireNonNull(segment, "segment");
        Objects.requireNonNull(objectName, "objectName");
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(allocator, "allocator");
        batches = List.copyOf(batches);
    }

    public long shard() {
        return segment.shard();
    }

    public String measurement() {
        return segment.measurement();
    }
}
