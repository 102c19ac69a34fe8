package io.chronix.engine.rollup;

import io.chronix.engine.model.FieldType;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Folds rows into buckets per tag group (seed 001 {@code RollupAccumulator}).
 *
 * <p>{@link #ordered}: for input time-ordered within each group (what an ordered scan gives):
 * holds one open bucket per group and emits it as soon as a later bucket of that group begins, so
 * memory is one bucket per group. A row older than its group's open bucket is <em>unordered
 * input</em>: it is not folded, {@link #sawUnorderedInput()} turns true, and the caller must fail
 * rather than write a partial bucket. {@link #unordered}: for complete but unsorted input, holds
 * every bucket until {@link #finish()}.
 *
 * <p>Groups are lists of tag values (source schema tag order, {@code null} for an absent tag),
 * kept as given: a caller must not change a list it passed. Not thread-safe.
 */
public final class RollupAccumulator {

    /** One finished bucket of one group. */
    public record Bucket(List<String> group, long start, BucketAccumulator stats) {
    }

    private final TimeBucket bucket;
    private final FieldType[] types;
    private final Consumer<Bucket> sink;
    private final boolean ordered;
    private final Map<List<String>, Open> open = new HashMap<>();
    private final Map<List<String>, TreeMap<Long, BucketAccumulator>> all = new HashMap<>();
    private boolean unorderedInput;
    private List<String> lastGroup;
    private Open lastOpen;

    private static final class Open {
        long start;
        long end;
        BucketAccumulator stats;
    }

    private RollupAccumulator(TimeBucket bucket, FieldType[] types, Consumer<Bucket> sink, boolean ordered) {
        this.bucket = bucket;
        this.types = types.clone();
        this.sink = sink;
        this.ordered = ordered;
    }

    public static RollupAccumulator ordered(TimeBucket bucket, FieldType[] types, Consumer<Bucket> sink) {
        return new RollupAccumulator(bucket, types, sink, true);
    }

    public static RollupAccumulator unordered(TimeBucket bucket, FieldType[] types, Consumer<Bucket> sink) {
        return new RollupAccumulator(bucket, types, sink, false);
    }

    /**
     * The statistics a row of {@code group} at {@code ts} folds into (add its fields there), or
     * {@code null} for unordered input to an ordered accumulator (the row is dropped).
     */
    public BucketAccumulator row(List<String> group, long ts) {
        if (!ordered) {
            TreeMap<Long, BucketAccumulator> g = all.computeIfAbsent(group, k -> new TreeMap<>());
            return g.computeIfAbsent(bucket.startOf(ts), k -> new BucketAccumulator(types));
        }
        Open o = group.equals(lastGroup) ? lastOpen : open.get(group);
        if (o == null) {
            o = new Open();
            start(o, ts);
            open.put(group, o);
        } else if (ts < o.start) {
            unorderedInput = true;
            return null;
        } else if (ts >= o.end) {
            sink.accept(new Bucket(group, o.start, o.stats));
            start(o, ts);
        }
        lastGroup = group;
        lastOpen = o;
        return o.stats;
    }

    private void start(Open o, long ts) {
        o.start = bucket.startOf(ts);
        o.end = bucket.next(o.start);
        o.stats = new BucketAccumulator(types);
    }

    /** Whether an ordered accumulator was given a row older than its group's open bucket. */
    public boolean sawUnorderedInput() {
        return unorderedInput;
    }

    /** Emits every bucket still held: per group in time order, groups in no particular order. */
    public void finish() {
        if (ordered) {
            for (Map.Entry<List<String>, Open> e : open.entrySet()) {
                sink.accept(new Bucket(e.getKey(), e.getValue().start, e.getValue().stats));
            }
            open.clear();
            lastGroup = null;
            lastOpen = null;
            return;
        }
        List<Map.Entry<List<String>, TreeMap<Long, BucketAccumulator>>> groups = new ArrayList<>(all.entrySet());
        groups.sort(Comparator.comparing(e -> e.getKey().toString()));
        for (var g : groups) {
            g.getValue().forEach((start, stats) -> sink.accept(new Bucket(g.getKey(), start, stats)));
        }
        all.clear();
    }
}
