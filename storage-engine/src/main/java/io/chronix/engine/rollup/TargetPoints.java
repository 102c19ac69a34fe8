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
}
