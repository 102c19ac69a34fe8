package io.chronix.engine.memtable;

import io.chronix.engine.model.FieldType;
import io.chronix.engine.model.PointBatch;

import java.util.Arrays;

/**
 * The last-value cache entry of one series: the fields of its newest timestamp, merged last write
 * wins like everywhere else. Updated in place on every insert — no allocation unless the series
 * gains a field — under this object's monitor.
 *
 * <p>Only points that went through this process's write path or replay are offered here, so an
 * entry is trusted only when it is <em>complete</em>: when every point of the series at or after
 * its timestamp is known to have been offered. A series first seen by this process's write path
 * (no segment held it at open) starts complete; one found in a segment at open starts incomplete
 * ({@link #markIncomplete}), and so does one evicted by a delete or retention ({@link #evict}). An
 * incomplete entry is made complete by {@link #fill} with the result of a reverse segment scan,
 * unless an eviction happened since the scan began ({@link #epoch}).
 */
public final class LastValue {

    private boolean present;
    private boolean complete = true;
    private long epoch;
    private long timestamp;
    private long[] bits = new long[0];
    private String[] strings = new String[0];
    private boolean[] has = new boolean[0];
    /**
     * The copy readers share until the entry next changes, or {@code null} (made at the next read):
     * a dashboard asking for every series' newest point more often than the series are written then
     * copies nothing, and a read after each write copies what it copied before.
     */
    private Snapshot published;

    /**
     * A consistent copy of an entry: {@code has[ordinal]} tells which fields the newest timestamp
     * holds; {@code complete} whether it may answer without I/O. Readers share one copy until the
     * entry changes: its arrays are never written, by the entry or by anyone holding the copy.
     */
    public record Snapshot(long timestamp, long[] bits, String[] strings, boolean[] has, boolean complete) {
    }

    synchronized void offer(long ts, PointBatch batch, int point, int[] ordinals, int ordinalBase) {
        if (present && ts < timestamp) {
            return;
        }
        published = null;
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

    /** The entry, or {@code null} if the series has none. */
    public synchronized Snapshot snapshot() {
        if (!present) {
            return null;
        }
        if (published == null) {
            published = new Snapshot(timestamp, bits.clone(), strings.clone(), has.clone(), complete);
        }
        return published;
    }

    /** Entry, completeness and eviction count, read together. */
    public record State(Snapshot snapshot, boolean complete, long epoch) {
    }

    /** The entry ({@code null} snapshot if none), whether it is complete, and the eviction count — one consistent read. */
    public synchronized State state() {
        return new State(snapshot(), complete, epoch);
    }

    /** Whether the entry may answer without I/O (an absent entry that is complete: the series has no point). */
    public synchronized boolean isComplete() {
        return complete;
    }

    /** Counts evictions; a fill that began before the latest eviction does not make the entry complete. */
    public synchronized long epoch() {
        return epoch;
    }

    /** Marks the entry as possibly missing newer points held elsewhere (a segment found at open). */
    public synchronized void markIncomplete() {
        complete = false;
        published = null;
    }

    /**
     * Forgets the entry: deletes and retention call this (through the engine) for every series
     * they touch, after the removal took effect; the next read scans the segments again.
     */
    public synchronized void evict() {
        present = false;
        complete = false;
        published = null;
        Arrays.fill(has, false);
        epoch++;
    }

    /**
     * Merges the newest point a reverse scan of every source found (its timestamp, and per field
     * ordinal the value bits or string) and marks the entry complete if no eviction happened since
     * {@code epochAtStart}. Points offered meanwhile stay: a newer one wins, and at the same
     * timestamp the offered fields win (they are later writes than anything in a segment).
     */
    public synchronized void fill(long ts, long[] fBits, String[] fStrings, boolean[] fHas, long epochAtStart) {
        if (epoch != epochAtStart) {
            return;
        }
        published = null;
        if (!present || ts > timestamp) {
            Arrays.fill(has, false);
            timestamp = ts;
            present = true;
        }
        if (ts == timestamp) {
            for (int ord = 0; ord < fHas.length; ord++) {
                if (!fHas[ord]) {
                    continue;
                }
                if (ord >= has.length) {
                    int len = Math.max(ord + 1, has.length * 2);
                    bits = Arrays.copyOf(bits, len);
                    strings = Arrays.copyOf(strings, len);
                    has = Arrays.copyOf(has, len);
                }
                if (!has[ord]) {
                    bits[ord] = fBits[ord];
                    strings[ord] = fStrings[ord];
                    has[ord] = true;
                }
            }
        }
        complete = true;
    }

    /** Marks an entry complete after a scan found no point at all (and no eviction happened since). */
    public synchronized void fillEmpty(long epochAtStart) {
        if (epoch == epochAtStart) {
            complete = true;
            published = null;
        }
    }
}
