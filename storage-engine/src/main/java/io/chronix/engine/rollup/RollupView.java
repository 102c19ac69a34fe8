package io.chronix.engine.rollup;

import io.chronix.engine.model.FieldType;
import io.chronix.engine.read.RowMerger;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.read.ScanResult;
import io.chronix.engine.schema.Column;
import io.chronix.engine.schema.MeasurementSchema;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The rollup view (seed 001 "Rollup", issue item 7): a scan of a rollup target answers the
 * materialised buckets where they are current — below the watermark, outside pending invalid
 * ranges — and, for the rest (the live half after the watermark, and ranges awaiting repair),
 * buckets computed on the fly from the source, read through the source's own view (so a chain of
 * tiers is complete up to now at every level). The SQL layer sees an ordinary measurement.
 *
 * <p>Live buckets are computed from the whole bucket's source rows (a bucket starting inside the
 * requested range is complete even where its data runs past the range's end); a bucket is
 * answered when its start lies in the range, as a stored row would be. The live part is held in
 * memory: it spans the out-of-order window plus pending ranges, not history.
 */
final class RollupView {

    private final RollupHost host;
    private final RollupRegistry registry;

    RollupView(RollupHost host, RollupRegistry registry) {
        this.host = host;
        this.registry = registry;
    }

    /** The view's rows, or {@code null} if the request's measurement is not a rollup target (or has no shape yet). */
    ScanResult scan(ScanRequest request, BufferAllocator allocator, boolean ordered) {
        Target t = target(request, ordered);
        if (t == null) {
            return null;
        }
        MeasurementSchema ms = t.schema;
        List<Column> output = t.output;
        List<Column> inner = t.inner;
        List<String> innerNames = inner.stream().map(Column::name).toList();
        Optional<RollupInfo> found = Optional.of(t.info);
        List<long[]> live = t.live;
        List<VectorSchemaRoot> batches = new ArrayList<>();
        try {
            for (long[] stored : complement(live, request.from(), request.to())) {
                ScanResult r = host.scanStored(new ScanRequest(ms.measurement(), innerNames, stored[0], stored[1], request.tags()),
                        allocator, ordered);
                batches.addAll(r.batches()); // ownership moves to the combined result
            }
            List<RollupAccumulator.Bucket> buckets = liveBuckets(found.get().config(), live, request);
            if (!buckets.isEmpty()) {
                batches.add(toRoot(found.get().config(), buckets, inner, allocator));
            }
            if (ordered && batches.size() > 1) {
                RowMerger merger = new RowMerger(ms, inner.stream().filter(c -> c.kind() == Column.Kind.FIELD).toList(), request.tags());
                for (VectorSchemaRoot b : batches) {
                    merger.addArrow(b, request.from(), request.to());
                }
                List<VectorSchemaRoot> merged = merger.finish(output, allocator, 64 * 1024);
                batches.forEach(VectorSchemaRoot::close);
                batches = new ArrayList<>(merged);
            } else if (ordered && !inner.equals(output)) {
                List<VectorSchemaRoot> projected = new ArrayList<>();
                for (VectorSchemaRoot b : batches) {
                    projected.add(project(b, output, allocator));
                    b.close();
                }
                batches = projected;
            }
        } catch (RuntimeException e) {
            batches.forEach(VectorSchemaRoot::close);
            throw e;
        }
        return new ScanResult(MeasurementSchema.toArrow(output), batches);
    }

    /** The newest row of every series of the view whose newest row lies in the range; {@code null} if no rollup target. */
    ScanResult latest(ScanRequest request, BufferAllocator allocator) {
        Target t = target(request, true);
        if (t == null) {
            return null;
        }
        MeasurementSchema ms = t.schema;
        List<Column> output = t.output;
        List<String> innerNames = t.inner.stream().map(Column::name).toList();
        Optional<RollupInfo> found = Optional.of(t.info);
        List<Column> inner = t.inner;
        List<long[]> live = t.live;
        List<VectorSchemaRoot> sources = new ArrayList<>();
        try {
            ScanResult stored = host.scanLatestStored(new ScanRequest(ms.measurement(), innerNames, request.from(), request.to(),
                    request.tags()), allocator);
            sources.addAll(stored.batches());
            List<RollupAccumulator.Bucket> buckets = liveBuckets(found.get().config(), live, request);
            if (!buckets.isEmpty()) {
                sources.add(toRoot(found.get().config(), buckets, inner, allocator));
            }
            return new ScanResult(MeasurementSchema.toArrow(output), List.of(newestPerSeries(ms, sources, output, allocator)));
        } finally {
            sources.forEach(VectorSchemaRoot::close);
        }
    }

    /**
     * What a view answer is built from: the rollup, the target's schema, the asked columns, the
     * columns read ({@code withTags}: every tag too, for re-merging or picking by series) and the
     * live pieces of the range; {@code null} if the measurement is no rollup target or has no shape.
     */
    private record Target(RollupInfo info, MeasurementSchema schema, List<Column> output, List<Column> inner, List<long[]> live) {
    }

    private Target target(ScanRequest request, boolean withTags) {
        Optional<RollupInfo> found = registry.forTarget(request.measurement());
        Optional<MeasurementSchema> schema = host.schema(request.measurement());
        if (found.isEmpty() || schema.isEmpty()) {
            return null;
        }
        MeasurementSchema ms = schema.get();
        List<Column> output = ms.columnsFor(request.columns());
        return new Target(found.get(), ms, output, withTags ? withTags(ms, output) : output,
                liveRanges(found.get(), request.from(), request.to()));
    }

    private static List<Column> withTags(MeasurementSchema ms, List<Column> output) {
        Set<String> names = new HashSet<>();
        output.forEach(c -> names.add(c.name()));
        return ms.columns().stream().filter(c -> names.contains(c.name()) || c.kind() == Column.Kind.TAG || c.kind() == Column.Kind.TIME)
                .toList();
    }

    /**
     * The bucket-aligned ranges answered live, as inclusive {@code [from, to]} pieces clipped to the
     * request: pending invalid ranges, and everything from the watermark on.
     */
    private static List<long[]> liveRanges(RollupInfo info, long from, long to) {
        List<long[]> out = new ArrayList<>();
        List<TimeRange> ranges = new ArrayList<>(info.pendingInvalid());
        long w = info.materialisedUntil();
        for (TimeRange r : ranges) {
            if (r.from() >= w) {
                break;
            }
            clipInto(out, r.from(), Math.min(r.to(), w) - 1, from, to);
        }
        clipInto(out, w, Long.MAX_VALUE, from, to);
        return out;
    }

    private static void clipInto(List<long[]> out, long a, long b, long from, long to) {
        long lo = Math.max(a, from);
        long hi = Math.min(b, to);
        if (lo > hi) {
            return;
        }
        if (!out.isEmpty() && out.getLast()[1] + 1 >= lo && out.getLast()[1] != Long.MAX_VALUE) {
            out.getLast()[1] = Math.max(out.getLast()[1], hi);
        } else {
            out.add(new long[] {lo, hi});
        }
    }

    /** {@code [from, to]} minus the live pieces, as inclusive pieces. */
    private static List<long[]> complement(List<long[]> live, long from, long to) {
        List<long[]> out = new ArrayList<>();
        long cursor = from;
        boolean done = false;
        for (long[] l : live) {
            if (l[0] > cursor) {
                out.add(new long[] {cursor, l[0] - 1});
            }
            if (l[1] == Long.MAX_VALUE || l[1] >= to) {
                done = true;
                break;
            }
            cursor = l[1] + 1;
        }
        if (!done && cursor <= to) {
            out.add(new long[] {cursor, to});
        }
        return out;
    }

    /** The buckets starting in the live pieces, from the whole of each bucket's source rows. */
    private List<RollupAccumulator.Bucket> liveBuckets(RollupConfig c, List<long[]> live, ScanRequest request) {
        Optional<MeasurementSchema> found = host.schema(c.source());
        if (found.isEmpty() || live.isEmpty()) {
            return List.of();
        }
        MeasurementSchema source = found.get();
        TimeBucket bucket = c.bucket();
        List<RollupAccumulator.Bucket> out = new ArrayList<>();
        for (long[] piece : live) {
            long firstStart = bucket.startOf(piece[0]) == piece[0] ? piece[0] : bucket.next(bucket.startOf(piece[0]));
            if (firstStart > piece[1]) {
                continue;
            }
            long sourceEnd = bucket.next(bucket.startOf(piece[1])); // exclusive
            RollupAccumulator acc = RollupAccumulator.unordered(bucket, RollupFold.types(source), b -> {
                if (b.start() >= piece[0] && b.start() <= piece[1]) {
                    out.add(b);
                }
            });
            RollupFold fold = new RollupFold(source, acc, firstStart, sourceEnd);
            try (org.apache.arrow.memory.RootAllocator a = new org.apache.arrow.memory.RootAllocator();
                 ScanResult r = host.scanView(new ScanRequest(c.source(), fold.columns(), firstStart,
                         sourceEnd == Long.MAX_VALUE ? Long.MAX_VALUE : sourceEnd - 1, request.tags()), a)) {
                for (VectorSchemaRoot root : r.batches()) {
                    fold.accept(root);
                }
                acc.finish();
            }
        }
        return out;
    }

    /** Live buckets as one batch of {@code columns} (target schema types; a column the source does not give is NULL). */
    private VectorSchemaRoot toRoot(RollupConfig c, List<RollupAccumulator.Bucket> buckets, List<Column> columns,
            BufferAllocator allocator) {
        MeasurementSchema source = host.schema(c.source()).orElseThrow();
        Map<String, Integer> tagIndex = new HashMap<>();
        for (int t = 0; t < source.tags().size(); t++) {
            tagIndex.put(source.tags().get(t).name(), t);
        }
        // target field name → (numeric source field index, aggregate)
        Map<String, int[]> fieldOf = new HashMap<>();
        List<Column> numeric = RollupSchema.numericFields(source);
        for (int f = 0; f < numeric.size(); f++) {
            for (Aggregate a : c.aggregates()) {
                fieldOf.put(a.targetField(numeric.get(f).name()), new int[] {f, a.ordinal()});
            }
        }
        Aggregate[] aggregates = Aggregate.values();
        VectorSchemaRoot root = VectorSchemaRoot.create(MeasurementSchema.toArrow(columns), allocator);
        try {
            root.allocateNew();
            for (int col = 0; col < columns.size(); col++) {
                Column column = columns.get(col);
                FieldVector v = root.getVector(col);
                for (int r = 0; r < buckets.size(); r++) {
                    RollupAccumulator.Bucket b = buckets.get(r);
                    switch (column.kind()) {
                        case TIME -> ((TimeStampVector) v).setSafe(r, b.start());
                        case TAG -> {
                            Integer t = tagIndex.get(column.name());
                            String value = t == null ? null : b.group().get(t);
                            if (value == null) {
                                v.setNull(r);
                            } else {
                                ((VarCharVector) v).setSafe(r, value.getBytes(StandardCharsets.UTF_8));
                            }
                        }
                        case FIELD -> {
                            int[] fa = fieldOf.get(column.name());
                            if (fa == null || b.stats().count(fa[0]) == 0
                                    || RollupSchema.typeOf(aggregates[fa[1]], numeric.get(fa[0]).type()) != column.type()) {
                                v.setNull(r);
                                continue;
                            }
                            long bits = b.stats().bits(fa[0], aggregates[fa[1]]);
                            setBits(v, column.type(), r, bits);
                        }
                    }
                }
                v.setValueCount(buckets.size());
            }
            root.setRowCount(buckets.size());
            return root;
        } catch (RuntimeException e) {
            root.close();
            throw e;
        }
    }

    private static void setBits(FieldVector v, FieldType type, int row, long bits) {
        switch (type) {
            case FLOAT -> ((Float8Vector) v).setSafe(row, Double.longBitsToDouble(bits));
            case INTEGER -> ((BigIntVector) v).setSafe(row, bits);
            case UNSIGNED -> ((UInt8Vector) v).setSafe(row, bits);
            default -> v.setNull(row);
        }
    }

    /** A copy of {@code b} with only {@code output}'s columns. */
    private static VectorSchemaRoot project(VectorSchemaRoot b, List<Column> output, BufferAllocator allocator) {
        VectorSchemaRoot out = VectorSchemaRoot.create(MeasurementSchema.toArrow(output), allocator);
        try {
            out.allocateNew();
            for (int c = 0; c < output.size(); c++) {
                FieldVector to = out.getVector(c);
                FieldVector from = b.getVector(output.get(c).name());
                for (int r = 0; r < b.getRowCount(); r++) {
                    to.copyFromSafe(r, r, from);
                }
                to.setValueCount(b.getRowCount());
            }
            out.setRowCount(b.getRowCount());
            return out;
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
    }

    /** One row per series — its newest across {@code sources} (which carry every tag) — with {@code output}'s columns. */
    private static VectorSchemaRoot newestPerSeries(MeasurementSchema ms, List<VectorSchemaRoot> sources, List<Column> output,
            BufferAllocator allocator) {
        Map<List<String>, int[]> newest = new LinkedHashMap<>(); // series → (source, row)
        Map<List<String>, Long> newestTs = new HashMap<>();
        for (int s = 0; s < sources.size(); s++) {
            VectorSchemaRoot root = sources.get(s);
            TimeStampVector time = (TimeStampVector) root.getVector(Column.TIME);
            for (int r = 0; r < root.getRowCount(); r++) {
                List<String> key = new ArrayList<>();
                for (Column t : ms.tags()) {
                    VarCharVector v = (VarCharVector) root.getVector(t.name());
                    key.add(v == null || v.isNull(r) ? null : new String(v.get(r), StandardCharsets.UTF_8));
                }
                long ts = time.get(r);
                Long seen = newestTs.get(key);
                if (seen == null || ts >= seen) {
                    newestTs.put(key, ts);
                    newest.put(key, new int[] {s, r});
                }
            }
        }
        List<Map.Entry<List<String>, int[]>> rows = new ArrayList<>(newest.entrySet());
        rows.sort((a, b) -> compareSeries(a.getKey(), b.getKey()));
        VectorSchemaRoot out = VectorSchemaRoot.create(MeasurementSchema.toArrow(output), allocator);
        try {
            out.allocateNew();
            for (int c = 0; c < output.size(); c++) {
                FieldVector to = out.getVector(c);
                for (int i = 0; i < rows.size(); i++) {
                    int[] at = rows.get(i).getValue();
                    FieldVector from = sources.get(at[0]).getVector(output.get(c).name());
                    if (from == null) {
                        to.setNull(i);
                    } else {
                        to.copyFromSafe(at[1], i, from);
                    }
                }
                to.setValueCount(rows.size());
            }
            out.setRowCount(rows.size());
            return out;
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
    }

    /** Canonical series order: tag values in tag order, an absent tag first. */
    private static int compareSeries(List<String> a, List<String> b) {
        for (int i = 0; i < a.size(); i++) {
            String x = a.get(i);
            String y = b.get(i);
            if (x == null || y == null) {
                if (x != y) {
                    return x == null ? -1 : 1;
                }
                continue;
            }
            int c = x.compareTo(y);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }
}
