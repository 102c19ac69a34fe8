package io.chronix.engine.memtable;

import io.chronix.engine.model.PointBatch;

import java.util.Arrays;

/**
 * One series, interned: measurement and tags sorted by key. Identity is the canonical key; there
 * is one {@code SeriesRef} per series per engine, so references compare by identity.
 *
 * <p>It also carries the series' entry in the last-value cache ({@link LastValue}), so updating
 * that cache on the write path allocates nothing.
 */
public final class SeriesRef implements Comparable<SeriesRef> {

    private final int id;
    private final String measurement;
    private final String[] tagKeys;
    private final String[] tagValues;
    private final int hash;
    /** {@link #alignedTags}'s last answer. */
    private volatile AlignedTags aligned;
    final LastValue last = new LastValue();
    /** False once {@link SeriesRegistry#markDead} found no data of it anywhere; a write revives it. Guarded by the registry. */
    volatile boolean live = true;

    SeriesRef(int id, String measurement, String[] tagKeys, String[] tagValues, int hash) {
        this.id = id;
        this.measurement = measurement;
        this.tagKeys = tagKeys;
        this.tagValues = tagValues;
        this.hash = hash;
    }

    /** Dense per engine, from 0; memtables index their buffers by it. */
    public int id() {
        return id;
    }

    public String measurement() {
        return measurement;
    }

    public int tagCount() {
        return tagKeys.length;
    }

    public String tagKey(int i) {
        return tagKeys[i];
    }

    public String tagValue(int i) {
        return tagValues[i];
    }

    /**
     * This series' tag values aligned with {@code tagNames} (a measurement's tag columns; {@code
     * null} where the series has no such tag), as strings and as UTF-8. Kept for the last {@code
     * key} asked for (the measurement's schema, compared by identity), so lastpoint, which writes
     * every series' tags into each answer, finds and encodes them once per series and schema. The
     * arrays are shared; callers must not change them.
     */
    public AlignedTags alignedTags(Object key, String[] tagNames) {
        AlignedTags a = aligned;
        if (a != null && a.key() == key) {
            return a;
        }
        String[] values = new String[tagNames.length];
        byte[][] utf8 = new byte[tagNames.length][];
        // the names and the series' tags are both in name order: each found where the last ended
        for (int t = 0, from = 0; t < tagNames.length; t++) {
            int i = indexOfTag(tagNames[t], from);
            if (i >= 0) {
                values[t] = tagValues[i];
                utf8[t] = tagValues[i].getBytes(java.nio.charset.StandardCharsets.UTF_8);
                from = i + 1 == tagKeys.length ? 0 : i + 1;
            }
        }
        a = new AlignedTags(key, values, utf8);
        aligned = a; // a race computes it twice, alike
        return a;
    }

    /** {@link #alignedTags}'s answer: values and their UTF-8, per name asked for. */
    public record AlignedTags(Object key, String[] values, byte[][] utf8) {
    }

    /**
     * The index of tag {@code key} ({@link #tagValue}), or -1: searched from {@code from} on, then
     * from the start, so a caller asking for tags in the series' own (sorted) order finds each
     * where the last one ended.
     */
    public int indexOfTag(String key, int from) {
        int n = tagKeys.length;
        for (int k = 0; k < n; k++) {
            int i = from + k < n ? from + k : from + k - n;
            if (tagKeys[i].equals(key)) {
                return i;
            }
        }
        return -1;
    }

    /** The value of tag {@code key}, or {@code null} if the series has no such tag. */
    public String tag(String key) {
        int i = indexOfTag(key, 0);
        return i < 0 ? null : tagValues[i];
    }

    /** Whether the series counts towards the engine's cardinality (it holds data somewhere). */
    public boolean isLive() {
        return live;
    }

    public LastValue lastValue() {
        return last;
    }

    int hash() {
        return hash;
    }

    /** The hash {@link SeriesRegistry} files a point's series under, computed without allocating. */
    static int hashOf(PointBatch batch, int point) {
        int h = batch.measurement(point).hashCode();
        for (int t = 0; t < batch.tagCount(point); t++) {
            h = 31 * h + batch.tagKey(point, t).hashCode();
            h = 31 * h + batch.tagValue(point, t).hashCode();
        }
        return h ^ (h >>> 16);
    }

    static int hashOf(String measurement, String[] keys, String[] values) {
        int h = measurement.hashCode();
        for (int t = 0; t < keys.length; t++) {
            h = 31 * h + keys[t].hashCode();
            h = 31 * h + values[t].hashCode();
        }
        return h ^ (h >>> 16);
    }

    boolean matches(PointBatch batch, int point) {
        int n = batch.tagCount(point);
        if (n != tagKeys.length || !measurement.equals(batch.measurement(point))) {
            return false;
        }
        for (int t = 0; t < n; t++) {
            if (!tagKeys[t].equals(batch.tagKey(point, t)) || !tagValues[t].equals(batch.tagValue(point, t))) {
                return false;
            }
        }
        return true;
    }

    boolean matches(String m, String[] keys, String[] values) {
        return measurement.equals(m) && Arrays.equals(tagKeys, keys) && Arrays.equals(tagValues, values);
    }

    /** Canonical order: measurement, then the tag lists compared pair by pair, a shorter prefix first. */
    @Override
    public int compareTo(SeriesRef o) {
        int c = measurement.compareTo(o.measurement);
        if (c != 0) {
            return c;
        }
        int n = Math.min(tagKeys.length, o.tagKeys.length);
        for (int i = 0; i < n; i++) {
            c = tagKeys[i].compareTo(o.tagKeys[i]);
            if (c != 0) {
                return c;
            }
            c = tagValues[i].compareTo(o.tagValues[i]);
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(tagKeys.length, o.tagKeys.length);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(measurement);
        for (int i = 0; i < tagKeys.length; i++) {
            sb.append(',').append(tagKeys[i]).append('=').append(tagValues[i]);
        }
        return sb.toString();
    }
}
