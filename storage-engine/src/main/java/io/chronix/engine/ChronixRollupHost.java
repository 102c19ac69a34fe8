package io.chronix.engine;

import io.chronix.engine.lifecycle.DeleteRequest;
import io.chronix.engine.model.PointBatch;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.read.ScanResult;
import io.chronix.engine.rollup.RollupHost;
import io.chronix.engine.schema.Column;
import io.chronix.engine.schema.MeasurementSchema;
import org.apache.arrow.memory.BufferAllocator;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/** {@link Chronix} as the rollups of its namespace see it. */
final class ChronixRollupHost implements RollupHost {

    private final Chronix engine;

    ChronixRollupHost(Chronix engine) {
        this.engine = engine;
    }

    @Override
    public Optional<MeasurementSchema> schema(String measurement) {
        return engine.registeredSchema(measurement);
    }

    @Override
    public void declare(String measurement, List<Column> columns) {
        engine.declareColumns(measurement, columns);
    }

    @Override
    public ScanResult scanStored(ScanRequest request, BufferAllocator allocator, boolean ordered) {
        return engine.scanStored(request, allocator, ordered);
    }

    @Override
    public ScanResult scanLatestStored(ScanRequest request, BufferAllocator allocator) {
        return engine.scanLatestStored(request, allocator);
    }

    @Override
    public ScanResult scanView(ScanRequest request, BufferAllocator allocator) {
        return engine.scanUnordered(request, allocator);
    }

    @Override
    public void writeTarget(PointBatch batch) {
        engine.writeRollupPoints(batch);
    }

    @Override
    public void deleteRange(String measurement, long from, long toInclusive) {
        engine.delete(new DeleteRequest(measurement, Map.of(), from, toInclusive, false, false));
    }

    @Override
    public void syncWal() {
        engine.syncWal();
    }

    @Override
    public void flush() {
        engine.flush();
    }

    @Override
    public long finalHorizon() {
        return engine.finalHorizon();
    }

    @Override
    public OptionalLong oldestTime(String measurement) {
        return engine.oldestTime(measurement);
    }

    @Override
    public void hook(String point) {
        engine.hook(point);
    }
}
