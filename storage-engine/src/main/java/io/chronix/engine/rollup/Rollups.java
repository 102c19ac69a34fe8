package io.chronix.engine.rollup;

import io.chronix.engine.lifecycle.RollupRetentionHold;
import io.chronix.engine.model.FieldType;
import io.chronix.engine.model.PointBatch;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.read.ScanResult;
import io.chronix.engine.schema.Column;
import io.chronix.engine.schema.MeasurementSchema;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The rollups of one engine (seed 001 "Rollup"): definitions ({@link RollupRegistry}), the
 * invalidation producers of the write and delete paths, {@link #materialise()} (repair, then
 * advance, per rollup, sources before their targets), the retention hold, and the rollup view
 * ({@link RollupView}).
 *
 * <p><b>Materialisation</b> per rollup, in order. <em>Repair</em>: for each pending invalid range
 * delete the target's points over it, recompute it from the source, sync the WAL, then clear the
 * entry and invalidate the same range in every tier downstream. <em>Advance</em>: from the
 * watermark to the newest bucket whose input is final (for a raw source every bucket ending
 * before the oldest shard the out-of-order window admits; for a rollup target that rollup's
 * watermark), one shard-wide window of buckets at a time: the window's source rows (deduplicated,
 * tombstones applied, time-ordered per series) are folded by a streaming {@link
 * RollupAccumulator}, and only when the whole window folded in order are its points written, in
 * chunks of 8 192, flushing every eighth chunk. The WAL is synced before the watermark claiming
 * the points is persisted — under every fsync policy — so a crash never leaves a watermark past
 * missing rows. A failing rollup keeps its watermark and does not stop the others.
 *
 * <p><b>Concurrency.</b> One materialisation at a time (the engine runs it under its compaction
 * lock). A write to a rollup source holds {@link #gate} shared from its late-data check to its
 * memtable insert; a repair's snapshot and an advance's claim take it exclusively, so a late write
 * is either visible to the pass's read or leaves a pending range it does not clear.
 */
public final class Rollups {

    private static final System.Logger LOG = System.getLogger(Rollups.class.getName());
    /** Chunks between flushes while writing points (seed 001: every eighth chunk). */
    private static final int CHUNKS_PER_FLUSH = 8;
    /** Windows between intermediate watermark persists of a long advance. */
    private static final int WINDOWS_PER_CHECKPOINT = 64;

    private final RollupHost host;
    private final RollupRegistry registry;
    private final long windowNanos;
    private final ReentrantReadWriteLock gate = new ReentrantReadWriteLock();
    private final RollupView view;
    /** Points written since the last flush: one every {@link #CHUNKS_PER_FLUSH} chunks of {@link TargetPoints#CHUNK}. */
    private long pointsSinceFlush;

    /** @param windowNanos the span of source time an advance reads at once (the shard duration) */
    public Rollups(RollupHost host, RollupRegistry.Store store, long windowNanos) {
        this.host = host;
        this.registry = new RollupRegistry(store);
        this.windowNanos = windowNanos;
        this.view = new RollupView(host, registry);
    }

    /** At open: the catalog's rollups; declares each target's shape. */
    public void load(List<RollupRegistry.Persisted> persisted) {
        registry.load(persisted);
        for (RollupRegistry.Persisted p : persisted) {
            declareTarget(p.config());
        }
    }

    private void declareTarget(RollupConfig c) {
        host.schema(c.source()).ifPresent(s -> host.declare(c.target(), RollupSchema.targetColumns(s, c.aggregates())));
    }

    // ------------------------------------------------------------------------------ definitions

    /**
     * Adds a rollup. Refuses (with {@link InvalidRollupException}) a duplicate name, a target
     * another rollup writes, a cycle, and a target that exists with a column of the same name but
     * another kind or type than the rollup writes. A target that exists with compatible columns
     * (say, left by a removed rollup) is accepted: its points are overwritten bucket by bucket.
     */
    public RollupInfo add(RollupConfig config) {
        gate.writeLock().lock();
        try {
            Optional<MeasurementSchema> source = host.schema(config.source());
            Optional<MeasurementSchema> target = host.schema(config.target());
            if (source.isPresent() && target.isPresent()) {
                Optional<String> conflict = RollupSchema.conflict(target.get(), source.get(), config.aggregates());
                if (conflict.isPresent()) {
                    throw new InvalidRollupException("target has data of another shape: " + conflict.get(), "target", config.target());
                }
            }
            RollupInfo info = registry.add(config);
            declareTarget(config);
            return info;
        } finally {
            gate.writeLock().unlock();
        }
    }

    public boolean remove(String name) {
        gate.writeLock().lock();
        try {
            return registry.remove(name);
        } finally {
            gate.writeLock().unlock();
        }
    }

    public List<RollupInfo> list() {
        return registry.list();
    }

    public Optional<RollupInfo> get(String name) {
        return registry.get(name);
    }

    public List<RollupInfo> forSource(String measurement) {
        return registry.forSource(measurement);
    }

    public Optional<RollupInfo> forTarget(String measurement) {
        return registry.forTarget(measurement);
    }

    /**
     * Marks {@code [fromNanos, toNanos)} of a rollup for recomputation at the next pass (widened to
     * its buckets, clipped to its watermark), durably.
     *
     * @throws InvalidRollupException for an unknown rollup
     * @throws IllegalArgumentException for {@code fromNanos >= toNanos}
     */
    public void refresh(String name, long fromNanos, long toNanos) {
        if (fromNanos >= toNanos) {
            throw new IllegalArgumentException("refresh range empty [from=" + fromNanos + ", to=" + toNanos + "]");
        }
        registry.invalidate(name, fromNanos, toNanos);
    }

    /** How retention waits for rollups: a source's data is kept from the lowest watermark (or first pending range) of the rollups reading it. */
    public RollupRetentionHold hold() {
        return registry::oldestNeeded;
    }

    // ------------------------------------------------------------------------------ producers

    /**
     * The write path's late-data check, before the batch's WAL append: invalidates, durably, the
     * buckets of every point below the watermark of a rollup reading its measurement. Returns the
     * gate (held shared) when the batch touches a rollup source — the caller releases it after
     * the memtable insert — or {@code null}.
     */
    public Lock beforeWrite(PointBatch batch) {
        if (registry.isEmpty()) {
            return null;
        }
        Map<String, long[]> byMeasurement = null;
        Map<String, Integer> counts = null;
        String last = null;
        boolean lastRolled = false;
        for (int p = 0; p < batch.size(); p++) {
            String m = batch.measurement(p);
            if (!m.equals(last)) {
                last = m;
                lastRolled = !registry.forSource(m).isEmpty();
            }
            if (!lastRolled) {
                continue;
            }
            if (byMeasurement == null) {
                byMeasurement = new HashMap<>();
                counts = new HashMap<>();
            }
            long[] ts = byMeasurement.computeIfAbsent(m, k -> new long[8]);
            int n = counts.getOrDefault(m, 0);
            if (n == ts.length) {
                ts = Arrays.copyOf(ts, n * 2);
                byMeasurement.put(m, ts);
            }
            ts[n] = batch.timestamp(p);
            counts.put(m, n + 1);
        }
        if (byMeasurement == null) {
            return null;
        }
        Lock shared = gate.readLock();
        shared.lock();
        try {
            for (Map.Entry<String, long[]> e : byMeasurement.entrySet()) {
                int n = counts.get(e.getKey());
                long[] ts = e.getValue();
                Arrays.sort(ts, 0, n);
                for (RollupInfo r : registry.forSource(e.getKey())) {
                    if (ts[0] < registry.lateBelow(r.name())) {
                        registry.invalidateBuckets(r.name(), ts, n);
                    }
                }
            }
        } catch (RuntimeException e) {
            shared.unlock();
            throw e;
        }
        return shared;
    }

    /** A delete of {@code measurement}'s points in {@code [start, end]} (inclusive): invalidates the rollups reading it, durably, before the delete. */
    public void beforeDelete(String measurement, long start, long end) {
        for (RollupInfo r : registry.forSource(measurement)) {
            registry.invalidate(r.name(), start, end == Long.MAX_VALUE ? Long.MAX_VALUE : end + 1);
        }
    }

    // ------------------------------------------------------------------------------ materialise

    /** One pass over every rollup (see the class comment); the caller serialises passes. */
    public MaterialiseReport materialise() {
        List<MaterialiseReport.Outcome> out = new ArrayList<>();
        for (RollupInfo info : registry.list()) {
            String name = info.name();
            long[] counters = new long[2]; // buckets written, source rows read
            int repairs = 0;
            String failure = null;
            try {
                declareTarget(info.config());
                repairs = repair(info.config(), counters);
                advance(info.config(), counters);
            } catch (RuntimeException e) {
                failure = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
                LOG.log(Level.WARNING, "rollup materialisation failed; its watermark stays [rollup=" + name + "]", e);
            }
            registry.outcome(name, failure);
            long until = registry.get(name).map(RollupInfo::materialisedUntil).orElse(Long.MIN_VALUE);
            out.add(new MaterialiseReport.Outcome(name, counters[0], counters[1], repairs, until, Optional.ofNullable(failure)));
        }
        return new MaterialiseReport(out);
    }

    private int repair(RollupConfig c, long[] counters) {
        List<TimeRange> ranges;
        gate.writeLock().lock();
        try {
            ranges = registry.beginRepair(c.name());
        } finally {
            gate.writeLock().unlock();
        }
        if (ranges.isEmpty()) {
            registry.repairFailed(c.name()); // nothing to clear
            return 0;
        }
        try {
            for (TimeRange r : ranges) {
                foldRange(c, r.from(), r.to(), counters);
            }
            host.syncWal();
            host.hook("rollup-repair-synced");
            registry.repaired(c.name(), ranges);
        } catch (RuntimeException e) {
            registry.repairFailed(c.name());
            throw e;
        }
        for (RollupInfo downstream : registry.forSource(c.target())) {
            for (TimeRange r : ranges) {
                registry.invalidate(downstream.name(), r.from(), r.to());
            }
        }
        return ranges.size();
    }

    private void advance(RollupConfig c, long[] counters) {
        long horizon = registry.forTarget(c.source()).map(RollupInfo::materialisedUntil).orElseGet(host::finalHorizon);
        if (horizon == Long.MIN_VALUE) {
            return;
        }
        TimeBucket bucket = c.bucket();
        long end = bucket.startOf(horizon);
        long start = registry.get(c.name()).map(RollupInfo::materialisedUntil).orElse(Long.MIN_VALUE);
        if (start == Long.MIN_VALUE) {
            OptionalLong oldest = host.oldestTime(c.source());
            if (oldest.isEmpty()) {
                return; // nothing to roll up yet: the watermark stays unset
            }
            start = bucket.startOf(oldest.getAsLong());
        }
        if (start >= end) {
            return;
        }
        gate.writeLock().lock();
        try {
            registry.claim(c.name(), end);
        } finally {
            gate.writeLock().unlock();
        }
        try {
            long a = start;
            int windows = 0;
            while (a < end) {
                long b = windowEnd(bucket, a, end);
                foldWindow(c, a, b, counters, false);
                a = b;
                if (++windows % WINDOWS_PER_CHECKPOINT == 0 && a < end) {
                    host.syncWal();
                    registry.advanced(c.name(), a);
                }
            }
            host.syncWal();
            host.hook("rollup-points-synced");
            registry.advanced(c.name(), end);
        } catch (RuntimeException e) {
            registry.unclaim(c.name());
            throw e;
        }
    }

    /** The end of the window starting at bucket boundary {@code a}: about {@link #windowNanos} of buckets, at least one, at most {@code end}. */
    private long windowEnd(TimeBucket bucket, long a, long end) {
        long far = a + windowNanos < a ? Long.MAX_VALUE : a + windowNanos;
        long b = bucket.startOf(far);
        if (b <= a) {
            b = bucket.next(a);
        }
        return Math.min(b, end);
    }

    /** Folds {@code [from, to)} (bucket-aligned) window by window. */
    private void foldRange(RollupConfig c, long from, long to, long[] counters) {
        long a = from;
        while (a < to) {
            long b = windowEnd(c.bucket(), a, to);
            foldWindow(c, a, b, counters, true);
            a = b;
        }
    }

    /**
     * Reads one window of the source, folds it in order and — only if all of it folded — writes its
     * points. A repair ({@code replace}) first deletes the target's points over the window if
     * writing the new ones over them would leave a stale value: a stored bucket the recomputation
     * no longer has (its source rows were deleted), or a field it no longer has. Otherwise the new
     * points simply win (last write wins, field by field) and no delete is needed.
     */
    private void foldWindow(RollupConfig c, long from, long to, long[] counters, boolean replace) {
        Optional<MeasurementSchema> found = host.schema(c.source());
        if (found.isEmpty()) {
            return;
        }
        MeasurementSchema source = found.get();
        FieldType[] types = RollupFold.types(source);
        TargetPoints points = new TargetPoints(c, source.tags(), RollupSchema.numericFields(source));
        RollupAccumulator acc = RollupAccumulator.ordered(c.bucket(), types, points::add);
        RollupFold fold = new RollupFold(source, acc, from, to);
        try (BufferAllocator allocator = new RootAllocator();
             ScanResult r = host.scanStored(new ScanRequest(c.source(), fold.columns(), from, to - 1, List.of()), allocator, true)) {
            for (VectorSchemaRoot root : r.batches()) {
                fold.accept(root);
            }
        }
        if (acc.sawUnorderedInput()) {
            throw new RollupFailedException(c.name(), "source rows out of time order within a series", from, to);
        }
        acc.finish();
        counters[1] += fold.rows();
        counters[0] += points.points();
        if (replace && points.wouldLeaveStale(host, from, to)) {
            host.deleteRange(c.target(), from, to - 1);
        }
        points.drainTo(batch -> {
            host.writeTarget(batch);
            pointsSinceFlush += batch.size();
            if (pointsSinceFlush >= (long) CHUNKS_PER_FLUSH * TargetPoints.CHUNK) {
                pointsSinceFlush = 0;
                host.flush();
            }
        });
    }

    // ------------------------------------------------------------------------------ view

    /** The view of a rollup target ({@link RollupView#scan}), or {@code null} if {@code request}'s measurement is none. */
    public ScanResult scanView(ScanRequest request, BufferAllocator allocator, boolean ordered) {
        if (registry.isEmpty()) {
            return null;
        }
        currentShape(request.measurement());
        return view.scan(request, allocator, ordered);
    }

    /**
     * Brings a rollup target's declared shape up to its source's fields (a field the source gained
     * shows in the target before its first bucket is stored); nothing for another measurement.
     */
    public void currentShape(String measurement) {
        if (!registry.isEmpty()) {
            registry.forTarget(measurement).ifPresent(r -> declareTarget(r.config()));
        }
    }

    /** {@link #currentShape} of every rollup target. */
    public void currentShapes() {
        if (!registry.isEmpty()) {
            registry.list().forEach(r -> declareTarget(r.config()));
        }
    }

    /** The newest row per series of a rollup target's view ({@link RollupView#latest}), or {@code null} if it is none. */
    public ScanResult scanLatestView(ScanRequest request, BufferAllocator allocator) {
        if (registry.isEmpty()) {
            return null;
        }
        currentShape(request.measurement());
        return view.latest(request, allocator);
    }

    /** The target columns a source of this schema gives (for callers showing a target's shape). */
    public static List<Column> targetColumns(MeasurementSchema source, RollupConfig config) {
        return RollupSchema.targetColumns(source, config.aggregates());
    }
}
