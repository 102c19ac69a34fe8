package io.chronix.engine.memtable;

import io.chronix.engine.model.PointBatch;

import java.util.Arrays;
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
 * complete. Series are never removed while the engine is open: a series a delete or retention took
 * whole is <em>released</em> — left out of {@link #size()} — and counts again once written.
 *
 * <p>Threading: thread-safe.
 */
public final class SeriesRegistry {

    private record Node(SeriesRef series, Node next) {
    }

    private volatile AtomicReferenceArray<Node> table = new AtomicReferenceArray<>(1024);
    private volatile SeriesRef[] byId = new SeriesRef[1024];
    private int count; // guarded by this
    private int released; // guarded by this
    private final Map<String, MeasurementSeries> byMeasurement = new ConcurrentHashMap<>();

    /** The series of one measurement, in registration order; an append-only array. */
    private static final class MeasurementSeries {
        volatile SeriesRef[] series = new SeriesRef[8];
        volatile int size;
    }

    /** The series of {@code batch}'s point {@code point}, registered if new. */
    public SeriesRef resolve(PointBatch batch, int point) {
        int h = SeriesRef.hashOf(batch, point);
        AtomicReferenceArray<Node> t = table;
        for (Node n = t.get(h & (t.length() - 1)); n != null; n = n.next()) {
            if (n.series().hash() == h && n.series().matches(batch, point)) {
                return live(n.series());
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

    /** The series with these (sorted) tags, registered if new. */
    public SeriesRef resolve(String measurement, String[] sortedKeys, String[] values) {
        int h = SeriesRef.hashOf(measurement, sortedKeys, values);
        AtomicReferenceArray<Node> t = table;
        for (Node n = t.get(h & (t.length() - 1)); n != null; n = n.next()) {
            if (n.series().hash() == h && n.series().matches(measurement, sortedKeys, values)) {
                return live(n.series());
            }
        }
        return register(measurement, sortedKeys.clone(), values.clone(), h);
    }

    private SeriesRef live(SeriesRef s) {
        if (s.released) {
            revive(s);
        }
        return s;
    }

    private synchronized void revive(SeriesRef s) {
        if (s.released) {
            s.released = false;
            released--;
        }
    }

    /**
     * Leaves a wholly deleted series out of {@link #size()} until it is resolved (written) again.
     *
     * @return whether it was counted before
     */
    public synchronized boolean release(SeriesRef s) {
        if (s.released) {
            return false;
        }
        s.released = true;
        released++;
        return true;
    }

    /** Every registered series, released ones included (a snapshot). */
    public synchronized SeriesRef[] all() {
        return Arrays.copyOf(byId, count);
    }

    /** The series with these (sorted) tags if it is registered (released or not), else {@code null}. */
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

    private synchronized SeriesRef register(String measurement, String[] keys, String[] values, int h) {
        AtomicReferenceArray<Node> t = table;
        int slot = h & (t.length() - 1);
        for (Node n = t.get(slot); n != null; n = n.next()) {
            if (n.series().hash() == h && n.series().matches(measurement, keys, values)) {
                return n.series();
            }
        }
        SeriesRef ref = new SeriesRef(count, measurement, keys, values, h);
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

    /** Series registered and not released: the live cardinality. */
    public synchronized int size() {
        return count - released;
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
}
