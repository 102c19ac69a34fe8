package io.chronix.engine.memtable;

import io.chronix.engine.model.FieldType;
import io.chronix.engine.model.PointBatch;

import java.util.Arrays;

/**
 * The last-value cache entry of one series: the fields of its newest timestamp, merged last write
 * wins like everywhere else. Updated in place on every insert — no allocation unless the series
 * gains a field — under this object's monitor.
 *
 * <p>Only points that went through this process's write path or replay are here; a series whose
 * newest point sits only in a segment has an empty entry, and the engine falls back to a scan.
 */
public final class LastValue {

    private boolean present;
    private long timestamp;
    private long[] bits = new long[0];
    private String[] strings = new String[0];
    private boolean[] has = new boolean[0];

    /** A consistent copy of an entry: {@code has[ordinal]} tells which fields the newest timestamp holds. */
    public record Snapshot(long timestamp, long[] bits, String[] strings, boolean[] has) {
    }

    synchronized void offer(long ts, PointBatch batch, int point, int[] ordinals, int ordinalBase) {
        if (present && ts < timestamp) {
            return;
        }
        if (!present || ts > timestamp) {
            Arrays.fill(has, false);
            timestamp = ts;
            present = true;
        }
        int n = batch.fieldCount(point);
        for (int f = 0; f < n; f++) {
            int ord = ordinals[ordinalBase + f];
            if (ord >= has.length) {
                int len = Math.max(ord + 1, has.length * 2);
                bits = Arrays.copyOf(bits, len);
                strings = Arrays.copyOf(strings, len);
                has = Arrays.copyOf(has, len);
            }
            if (batch.fieldType(point, f) == FieldType.STRING) {
                strings[ord] = batch.stringValue(point, f);
            } else {
                bits[ord] = batch.fieldBits(point, f);
            }
            has[ord] = true;
        }
    }

    /** Empties the entry (the series' newest points were deleted); the next insert refills it. */
    synchronized void clear() {
        present = false;
        Arrays.fill(has, false);
    }

    /** The entry, or {@code null} if the series has none. */
    public synchronized Snapshot snapshot() {
        return present ? new Snapshot(timestamp, bits.clone(), strings.clone(), has.clone()) : null;
    }
}
