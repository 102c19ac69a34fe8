package io.chronix.engine.rollup;

import io.chronix.engine.model.PointBatch;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.read.ScanResult;
import io.chronix.engine.schema.Column;
import io.chronix.engine.schema.MeasurementSchema;
import org.apache.arrow.memory.BufferAllocator;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/** What rollups need of the engine they belong to ({@code Chronix} implements it). */
public interface RollupHost {

    Optional<MeasurementSchema> schema(String measurement);

    /** Declares columns of a measurement (a rollup target's shape before its first point). */
    void declare(String measurement, List<Column> columns);

    /** The stored rows, as {@code Chronix.scan} (ordered) or {@code scanUnordered}, with no rollup view applied. */
    ScanResult scanStored(ScanRequest request, BufferAllocator allocator, boolean ordered);

    /** {@code Chronix.scanLatest} with no rollup view applied. */
    ScanResult scanLatestStored(ScanRequest request, BufferAllocator allocator);

    /** {@code Chronix.scanUnordered} as callers see it (a rollup target through its view). */
    ScanResult scanView(ScanRequest request, BufferAllocator allocator);

    /** Writes rollup points through the backfill path (any timestamp; late writes invalidate downstream tiers). */
    void writeTarget(PointBatch batch);

    /** Deletes every series' points of {@code measurement} in {@code [from, toInclusive]} (invalidating downstream tiers). */
    void deleteRange(String measurement, long from, long toInclusive);

    /** Makes every WAL record written so far durable, whatever the fsync policy. */
    void syncWal();

    void flush();

    /** The start of the oldest shard the out-of-order window still admits: data before it is final (but for backfill). */
    long finalHorizon();

    /** The oldest timestamp {@code measurement} holds (segments, archived segments, memtables), if any. */
    OptionalLong oldestTime(String measurement);

    /** Test hook at named points ({@code rollup-points-synced}, {@code rollup-repair-synced}). */
    void hook(String point);
}
