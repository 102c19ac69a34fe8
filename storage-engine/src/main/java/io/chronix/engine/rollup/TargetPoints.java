package io.chronix.engine.rollup;

import io.chronix.engine.model.FieldType;
import io.chronix.engine.model.PointBatch;
import io.chronix.engine.schema.Column;

import java.util.List;
import java.util.function.Consumer;

/**
 * Turns finished buckets into target points — one per series and bucket, at the bucket's start,
 * with the source series' tags and a field per numeric source field holding a non-NaN value in
 * the bucket and aggregate — and hands them on in batches of {@link #CHUNK} points.
 */
final class TargetPoints {

    /** Points per written batch (seed 001: chunks of 8 192). */
    static final int CHUNK = 8192;

    private final String target;
    private final List<Column> tags;
    private final List<Column> fields;
    private final Aggregate[] aggregates;
    private final String[][] names;
    private final FieldType[][] types;
    private PointBatch.Builder builder = PointBatch.builder();
    private final java.util.ArrayList<PointBatch> batches = new java.util.ArrayList<>();
    private long points;
    /** Per (series, bucket start) written, the target fields it has: what a repair compares stored rows with. */
    private final java.util.Map<java.util.List<Object>, java.util.Set<String>> written = new java.util.HashMap<>();

    TargetPoints(RollupConfig config, List<Column> sourceTags, List<Column> sourceFields) {
        this.target = config.target();
        this.tags = sourceTags;
        this.fields = sourceFields;
        this.aggregates = config.aggregates().toArray(Aggregate[]::new);
        this.names = new String[fields.size()][aggregates.length];
        this.types = new FieldType[fields.size()][aggregates.length];
        for (int f = 0; f < fields.size(); f++) {
            for (int a = 0; a < aggregates.length; a++) {
                names[f][a] = aggregates[a].targetField(fields.get(f).name());
                types[f][a] = RollupSchema.typeOf(aggregates[a], fields.get(f).type());
            }
        }
    }

    void add(RollupAccumulator.Bucket b) {
        BucketAccumulator s = b.stats();
        boolean any = false;
        for (int f = 0; f < s.fieldCount() && !any; f++) {
            any = s.count(f) > 0;
        }
        if (!any) {
            return; // every value NaN: no point
        }
        java.util.Set<String> fieldsWritten = new java.util.HashSet<>();
        written.put(key(b.start(), b.group()), fieldsWritten);
        builder.beginPoint(target, b.start());
        for (int t = 0; t < tags.size(); t++) {
            String v = b.group().get(t);
            if (v != null) {
                builder.tag(tags.get(t).name(), v);
            }
        }
        for (int f = 0; f < fields.size(); f++) {
            if (s.count(f) == 0) {
                continue;
            }
            for (int a = 0; a < aggregates.length; a++) {
                long bits = s.bits(f, aggregates[a]);
                fieldsWritten.add(names[f][a]);
                switch (types[f][a]) {
                    case FLOAT -> builder.floatField(names[f][a], Double.longBitsToDouble(bits));
                    case INTEGER -> builder.integerField(names[f][a], bits);
                    case UNSIGNED -> builder.unsignedField(names[f][a], bits);
                    default -> throw new AssertionError(types[f][a]);
                }
            }
        }
        builder.endPoint();
        points++;
        if (builder.size() == CHUNK) {
            batches.add(builder.build());
            builder = PointBatch.builder();
        }
    }

    /** Hands every batch held to {@code sink} and forgets them. */
    void drainTo(Consumer<PointBatch> sink) {
        if (builder.size() > 0) {
            batches.add(builder.build());
            builder = PointBatch.builder();
        }
        for (PointBatch p : batches) {
            sink.accept(p);
        }
        batches.clear();
    }

    long points() {
        return points;
    }

    private static java.util.List<Object> key(long start, java.util.List<String> group) {
        java.util.List<Object> k = new java.util.ArrayList<>(group.size() + 1);
        k.add(start);
        k.addAll(group);
        return k;
    }

    /**
     * Whether writing these points over the target's stored rows in {@code [from, to)} would leave
     * a stale value: a stored row (series, bucket) these points do not have, or a field of it they do not have.
     */
    boolean wouldLeaveStale(RollupHost host, long from, long to) {
        java.util.Optional<io.chronix.engine.schema.MeasurementSchema> found = host.schema(target);
        if (found.isEmpty()) {
            return false;
        }
        io.chronix.engine.schema.MeasurementSchema ms = found.get();
        try (org.apache.arrow.memory.BufferAllocator allocator = new org.apache.arrow.memory.RootAllocator();
             io.chronix.engine.read.ScanResult r = host.scanStored(io.chronix.engine.read.ScanRequest.all(target)
                     .withTimeRange(from, to - 1), allocator, false)) {
            for (org.apache.arrow.vector.VectorSchemaRoot root : r.batches()) {
                org.apache.arrow.vector.TimeStampVector time = (org.apache.arrow.vector.TimeStampVector) root.getVector(Column.TIME);
                for (int row = 0; row < root.getRowCount(); row++) {
                    java.util.List<String> group = new java.util.ArrayList<>(tags.size());
                    for (Column t : tags) {
                        org.apache.arrow.vector.FieldVector v = root.getVector(t.name());
                        group.add(v == null || v.isNull(row) ? null : v.getObject(row).toString());
                    }
                    java.util.Set<String> now = written.get(key(time.get(row), group));
                    if (now == null) {
                        return true;
                    }
                    for (Column f : ms.fields()) {
                        org.apache.arrow.vector.FieldVector v = root.getVector(f.name());
                        if (v != null && !v.isNull(row) && !now.contains(f.name())) {
                            return true;
                        }
                    }
                }
            }
        }
        return false;
    }
}
