package io.chronix.engine.memtable;

import io.chronix.engine.model.PointBatch;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Interns series for one engine. {@link #resolve} finds a point's series straight from the batch's
 * arrays — hash and compare over the batch's strings — so a hit allocates nothing; a miss (a new
 * series) allocates its {@link SeriesRef} once.
 *
 * <p>Structure: a chained hash table whose chains are immutable nodes in an {@link
 * AtomicReferenceArray}. Lookups are lock-free; inserts and resizes take this object's monitor and
 * publish by a volatile write, so a lookup racing a resize sees the old or the new table, both
 * complete. Series are never removed while the engine is open; one whose data is all gone (deletes,
 * retention) is marked dead ({@link #markDead}) and stops counting in {@link #liveSize()} until a
 * write brings it back.
 *
 * <p>Threading: thread-safe.
 */
public final class SeriesRegistry {

    private record Node(SeriesRef series, Node next) {
    }

    private volatile AtomicReferenceArray<Node> table = new AtomicReferenceArray<>(1024);
    private volatile SeriesRef[] byId = new SeriesRef[1024];
    private int count; // guarded by this
    private int live; // guarded by this
    private final Map<String, MeasurementSeries> byMeasurement = new ConcurrentHashMap<>();

    /** The series of one measurement, in registration order; an append-only array. */
    private static final class MeasurementSeries {
        volatile SeriesRef[] series = new SeriesRef[8];
        volatile int size;
        /** The first {@code sorted.length} series in canonical order, kept for {@link #seriesInOrder}. */
        volatile SeriesRef[] sorted = new SeriesRef[0];
        /** The last {@link #seriesInOrder(String, List)} answer other than canonical order. */
        volatile ByTags byTags;
    }

    /** {@code sorted} (a canonical-order array) ordered by the values of {@code tags}. */
    private record ByTags(SeriesRef[] canonical, List<String> tags, SeriesRef[] sorted) {
    }

    /** The series of {@code batch}'s point {@code point}, registered if new. */
    public SeriesRef resolve(PointBatch batch, int point) {
        int h = SeriesRef.hashOf(batch, point);
        AtomicReferenceArray<Node> t = table;
        for (Node n = t.get(h & (t.length() - 1)); n != null; n = n.next()) {
            if (n.series().hash() == h && n.series().matches(batch, point)) {
                return alive(n.series());
            }
        }
        int tags = batch.tagCount(point);
        String[] keys = new String[tags];
        String[] values = new String[tags];
        for (int i = 0; i < tags; i++) {
            keys[i] = batch.tagKey(point, i);
            values[i] = batch.tagValue(point, i);
        }
        return register(batch.measurement(point), keys, values, h);
    }

    /**
     * {@link #resolve(PointBatch, int)} for every point of {@code batch}, into {@code out[point]}.
     * A series is looked up once per batch rather than once per point: the batch interns its
     * strings, so two points of one series carry the same measurement, tag key and tag value ids,
     * and a table keyed by those ids (a hash of ints, compared as ints) finds the series of every
     * point after its first without hashing or comparing a string.
     */
    public void resolveAll(PointBatch batch, SeriesRef[] out) {
        int n = batch.size();
        if (out.length < n) {
            throw new IllegalArgumentException("out holds " + out.length + " series, the batch has " + n + " points");
        }
        int capacity = 64;
        int[] firstPoint = new int[capacity]; // point + 1 of the slot's key, 0 = empty
        int[] hashes = new int[capacity];
        int used = 0;
        for (int p = 0; p < n; p++) {
            int h = idHash(batch, p);
            int mask = capacity - 1;
            int i = h & mask;
            SeriesRef found = null;
            for (int q; (q = firstPoint[i]) != 0; i = (i + 1) & mask) {
                if (hashes[i] == h && sameIds(batch, q - 1, p)) {
                    found = out[q - 1];
                    break;
                }
            }
            if (found != null) {
                out[p] = alive(found);
                continue;
            }
            out[p] = resolve(batch, p);
            firstPoint[i] = p + 1;
            hashes[i] = h;
            if (++used * 2 > capacity) {
                int[] oldFirst = firstPoint;
                int[] oldHashes = hashes;
                capacity *= 2;
                firstPoint = new int[capacity];
                hashes = new int[capacity];
                for (int j = 0; j < oldFirst.length; j++) {
                    if (oldFirst[j] != 0) {
                        int k = oldHashes[j] & (capacity - 1);
                        while (firstPoint[k] != 0) {
                            k = (k + 1) & (capacity - 1);
                        }
                        firstPoint[k] = oldFirst[j];
                        hashes[k] = oldHashes[j];
                    }
                }
            }
        }
    }

    private static int idHash(PointBatch batch, int p) {
        int h = batch.measurementId(p);
        for (int t = 0, tags = batch.tagCount(p); t < tags; t++) {
            h = 31 * (31 * h + batch.tagKeyId(p, t)) + batch.tagValueId(p, t);
        }
        return h ^ (h >>> 16);
    }

    private static boolean sameIds(PointBatch batch, int a, int b) {
        int tags = batch.tagCount(a);
        if (batch.measurementId(a) != batch.measurementId(b) || batch.tagCount(b) != tags) {
            return false;
        }
        for (int t = 0; t < tags; t++) {
            if (batch.tagKeyId(a, t) != batch.tagKeyId(b, t) || batch.tagValueId(a, t) != batch.tagValueId(b, t)) {
                return false;
            }
        }
        return true;
    }

    /** The series with these (sorted) tags, registered (or revived) if new. */
    public SeriesRef resolve(String measurement, String[] sortedKeys, String[] values) {
        int h = SeriesRef.hashOf(measurement, sortedKeys, values);
        AtomicReferenceArray<Node> t = table;
        for (Node n = t.get(h & (t.length() - 1)); n != null; n = n.next()) {
            if (n.series().hash() == h && n.series().matches(measurement, sortedKeys, values)) {
                return alive(n.series());
            }
        }
        return register(measurement, sortedKeys.clone(), values.clone(), h);
    }

    /** The series with these (sorted) tags if it is registered, else {@code null}. */
    public SeriesRef find(String measurement, String[] sortedKeys, String[] values) {
        int h = SeriesRef.hashOf(measurement, sortedKeys, values);
        AtomicReferenceArray<Node> t = table;
        for (Node n = t.get(h & (t.length() - 1)); n != null; n = n.next()) {
            if (n.series().hash() == h && n.series().matches(measurement, sortedKeys, values)) {
                return n.series();
            }
        }
        return null;
    }

    private SeriesRef alive(SeriesRef ref) {
        if (!ref.live) {
            revive(ref);
        }
        return ref;
    }

    private synchronized void revive(SeriesRef ref) {
        if (!ref.live) {
            ref.live = true;
            live++;
        }
    }

    /** Stops counting {@code ref} as live (it holds no data anywhere); a later write revives it. */
    public synchronized void markDead(SeriesRef ref) {
        if (ref.live) {
            ref.live = false;
            live--;
        }
    }

    private synchronized SeriesRef register(String measurement, String[] keys, String[] values, int h) {
        AtomicReferenceArray<Node> t = table;
        int slot = h & (t.length() - 1);
        for (Node n = t.get(slot); n != null; n = n.next()) {
            if (n.series().hash() == h && n.series().matches(measurement, keys, values)) {
                SeriesRef found = n.series();
                revive(found);
                return found;
            }
        }
        SeriesRef ref = new SeriesRef(count, measurement, keys, values, h);
        live++;
        if (count == byId.length) {
            byId = Arrays.copyOf(byId, count * 2);
        }
        byId[count] = ref;
        count++;
        t.set(slot, new Node(ref, t.get(slot)));
        if (count > t.length() * 3 / 4) {
            resize(t);
        }
        MeasurementSeries ms = byMeasurement.computeIfAbsent(measurement, k -> new MeasurementSeries());
        SeriesRef[] arr = ms.series;
        int size = ms.size;
        if (size == arr.length) {
            arr = Arrays.copyOf(arr, size * 2);
        }
        arr[size] = ref;
        ms.series = arr;
        ms.size = size + 1;
        return ref;
    }

    private void resize(AtomicReferenceArray<Node> old) {
        AtomicReferenceArray<Node> grown = new AtomicReferenceArray<>(old.length() * 2);
        for (int i = 0; i < old.length(); i++) {
            for (Node n = old.get(i); n != null; n = n.next()) {
                int slot = n.series().hash() & (grown.length() - 1);
                grown.set(slot, new Node(n.series(), grown.get(slot)));
            }
        }
        table = grown;
    }

    /** Series registered so far, dead ones included. */
    public synchronized int size() {
        return count;
    }

    /** Series registered and live: the engine's cardinality. */
    public synchronized int liveSize() {
        return live;
    }

    /** Every measurement with a registered series. */
    public java.util.Set<String> measurements() {
        return java.util.Set.copyOf(byMeasurement.keySet());
    }

    /** The series of {@code measurement} registered so far (a snapshot). */
    public SeriesRef[] seriesOf(String measurement) {
        MeasurementSeries ms = byMeasurement.get(measurement);
        if (ms == null) {
            return new SeriesRef[0];
        }
        int size = ms.size;
        return Arrays.copyOf(ms.series, size);
    }

    /**
     * {@link #seriesOf} in canonical order ({@link SeriesRef#compareTo}), sorted again only after a
     * series was registered: lastpoint asks for it on every query. The array is shared; callers
     * must not change it.
     */
    public SeriesRef[] seriesInOrder(String measurement) {
        MeasurementSeries ms = byMeasurement.get(measurement);
        if (ms == null) {
            return new SeriesRef[0];
        }
        SeriesRef[] sorted = ms.sorted;
        int size = ms.size;
        if (sorted.length != size) { // series are only ever added, so a snapshot of this size holds the same ones
            sorted = Arrays.copyOf(ms.series, size);
            Arrays.sort(sorted);
            ms.sorted = sorted;
        }
        return sorted;
    }

    /**
     * {@link #seriesInOrder(String)} ordered by the values of {@code tags} (ascending, {@code
     * String} order, a series without the tag after those with it), series with equal values in
     * canonical order; {@code tags} empty: canonical order. The last order asked for is kept until
     * a series is registered: lastpoint asks for the same one on every query. The array is shared;
     * callers must not change it.
     */
    public SeriesRef[] seriesInOrder(String measurement, List<String> tags) {
        SeriesRef[] canonical = seriesInOrder(measurement);
        MeasurementSeries ms = byMeasurement.get(measurement);
        if (tags.isEmpty() || ms == null) {
            return canonical;
        }
        ByTags kept = ms.byTags;
        if (kept != null && kept.canonical() == canonical && kept.tags().equals(tags)) {
            return kept.sorted();
        }
        SeriesRef[] sorted = canonical.clone();
        Comparator<SeriesRef> byTags = (x, y) -> 0;
        for (String t : tags) {
            byTags = byTags.thenComparing(s -> s.tag(t), Comparator.nullsLast(Comparator.naturalOrder()));
        }
        Arrays.sort(sorted, byTags); // stable: equal values keep canonical order
        ms.byTags = new ByTags(canonical, List.copyOf(tags), sorted);
        return sorted;
    }
}
