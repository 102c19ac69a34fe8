package io.chronix.api.sql;

import io.chronix.engine.Chronix;
import io.chronix.engine.read.ScanHelpers;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.read.ScanResult;
import io.chronix.engine.schema.MeasurementSchema;
import org.apache.arrow.memory.BufferAllocator;

import java.util.Optional;
import java.util.Set;

/**
 * A namespace's engine as the tables of a query: its measurements, their schemas, its scans.
 *
 * @param helpers threads the scans may borrow to read settled segments side by side; null for none
 */
public record EngineTables(Chronix engine, ScanHelpers helpers) implements SqlQuery.Tables {

    public EngineTables(Chronix engine) {
        this(engine, null);
    }

    @Override
    public Set<String> measurements() {
        return Set.copyOf(engine.measurements());
    }

    /** The engine's identity: a namespace's statements share remembered parse trees, no other's do. */
    @Override
    public int parseScope() {
        return System.identityHashCode(engine);
    }

    @Override
    public Optional<MeasurementSchema> schema(String measurement) {
        return engine.schema(measurement);
    }

    /** Unordered: DuckDB does not need the engine's row order, and settled segments then skip the row merge. */
    @Override
    public ScanResult scan(ScanRequest request, BufferAllocator allocator) {
        return engine.scanUnordered(request, allocator, helpers);
    }

    /** The engine's streamed scan: batches handed to {@code sink} as the engine reads them, on the threads reading them. */
    @Override
    public io.chronix.engine.read.StreamedScan scanInto(ScanRequest request, BufferAllocator allocator, io.chronix.engine.read.BatchSink sink) {
        return engine.scanUnordered(request, allocator, helpers, sink);
    }

    /** Each series' newest row from the engine's last-value cache (the plan is unbounded above). */
    @Override
    public ScanResult scanNewest(ScanRequest request, BufferAllocator allocator) {
        return engine.scanLatest(request, allocator);
    }
}
