package io.chronix.engine.memtable;

import io.chronix.engine.error.MemtableFrozenException;
import io.chronix.engine.model.PointBatch;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One shard's points in memory: a {@link SeriesBuffer} per series, found by the series' dense id.
 *
 * <p>{@link #insertBatch} takes the points of one batch that route to this shard, checks the frozen
 * flag once, appends each point to its series' buffer, and then updates the size estimate, the WAL
 * sequence bounds and the time bounds once for the whole batch.
 *
 * <p>Ordered iteration — series in canonical order, each in time order, last write wins — is
 * {@link #series()} (sorted) with {@link #read}.
 *
 * <p>Threading: inserts and reads are concurrent. Buffers are installed under this object's
 * monitor and published with release/acquire array accesses. {@link #freeze()} is called by the
 * owner only while no insert is in flight (the engine's write gate); the frozen check in {@link
 * #insertBatch} is the seed's guard against a caller that holds a stale reference.
 */
public final class Memtable {

    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(SeriesBuffer[].class);
    /** Bytes charged per point beyond its fields: timestamp and bookkeeping. */
    static final int POINT_OVERHEAD = 16;
    /** Bytes charged per field value: 8 value bytes plus a presence bit, rounded. */
    static final int FIELD_COST = 9;

    private final long shard;
    private volatile SeriesBuffer[] buffers = new SeriesBuffer[64];
    private final List<SeriesBuffer> installed = new ArrayList<>(); // guarded by this
    private final AtomicLong estimatedBytes = new AtomicLong();
    private final AtomicLong points = new AtomicLong();
    private final AtomicLong minSequence = new AtomicLong(Long.MAX_VALUE);
    private final AtomicLong maxSequence = new AtomicLong(0);
    private final AtomicLong minTime = new AtomicLong(Long.MAX_VALUE);
    private final AtomicLong maxTime = new AtomicLong(Long.MIN_VALUE);
    private volatile boolean frozen;
    private volatile long frozenAtSequence = -1;

    public Memtable(long shard) {
        this.shard = shard;
    }

    public long shard() {
        return shard;
    }

    /**
     * Inserts the points {@code pointIndexes[from..to)} of {@code batch}, which the caller routed to
     * this shard, written under WAL sequence {@code sequence}.
     *
     * @param series the series of each point of the batch (indexed by point)
     * @param ordinals each field's ordinal, indexed like the batch's flat field arrays: point {@code
     *     p}'s fields start at {@code ordinalStart[p]}
     * @throws MemtableFrozenException if this memtable is frozen; nothing was inserted
     */
    public void insertBatch(PointBatch batch, int[] pointIndexes, int from, int to, SeriesRef[] series,
            int[] ordinals, int[] ordinalStart, long sequence) {
        if (frozen) {
            throw new MemtableFrozenException(shard);
        }
        long bytes = 0;
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        for (int i = from; i < to; i++) {
            int p = pointIndexes[i];
            long t = batch.timestamp(p);
            buffer(series[p]).add(t, batch, p, ordinals, ordinalStart[p]);
            bytes += POINT_OVERHEAD + (long) FIELD_COST * batch.fieldCount(p);
            lo = Math.min(lo, t);
            hi = Math.max(hi, t);
        }
        estimatedBytes.addAndGet(bytes);
        points.addAndGet(to - from);
        minSequence.accumulateAndGet(sequence, Math::min);
        maxSequence.accumulateAndGet(sequence, Math::max);
        minTime.accumulateAndGet(lo, Math::min);
        maxTime.accumulateAndGet(hi, Math::max);
    }

    private SeriesBuffer buffer(SeriesRef s) {
        SeriesBuffer[] arr = buffers;
        int id = s.id();
        if (id < arr.length) {
            SeriesBuffer b = (SeriesBuffer) SLOTS.getAcquire(arr, id);
            if (b != null) {
                return b;
            }
        }
        return install(s);
    }

    private synchronized SeriesBuffer install(SeriesRef s) {
        SeriesBuffer[] arr = buffers;
        int id = s.id();
        if (id >= arr.length) {
            arr = Arrays.copyOf(arr, Math.max(id + 1, arr.length * 2));
            buffers = arr;
        }
        SeriesBuffer b = (SeriesBuffer) SLOTS.getAcquire(arr, id);
        if (b == null) {
            b = new SeriesBuffer(s);
            SLOTS.setRelease(arr, id, b);
            installed.add(b);
        }
        return b;
    }

    /** The series this memtable holds points of, in canonical order. */
    public synchronized List<SeriesRef> series() {
        List<SeriesRef> out = new ArrayList<>(installed.size());
        for (SeriesBuffer b : installed) {
            out.add(b.series());
        }
        out.sort(null);
        return out;
    }

    /** Whether this memtable holds points of {@code s}. */
    public boolean contains(SeriesRef s) {
        SeriesBuffer[] arr = buffers;
        return s.id() < arr.length && SLOTS.getAcquire(arr, s.id()) != null;
    }

    /**
     * Passes the rows of series {@code s} with timestamps in {@code [from, to]} to {@code sink}, in
     * time order, one row per timestamp, merged last write wins.
     */
    public void read(SeriesRef s, long from, long to, RowSink sink) {
        SeriesBuffer[] arr = buffers;
        if (s.id() >= arr.length) {
            return;
        }
        SeriesBuffer b = (SeriesBuffer) SLOTS.getAcquire(arr, s.id());
        if (b != null) {
            b.read(from, to, sink);
        }
    }

    /**
     * The points of {@code s} appended here, before duplicates of a timestamp are merged: an upper
     * bound on the rows {@link #read} passes on for it (a flush sizes its columns with it).
     */
    public int appendedPoints(SeriesRef s) {
        SeriesBuffer[] arr = buffers;
        if (s.id() >= arr.length) {
            return 0;
        }
        SeriesBuffer b = (SeriesBuffer) SLOTS.getAcquire(arr, s.id());
        return b == null ? 0 : b.size();
    }

    /** The newest timestamp of {@code s} here, or {@link Long#MIN_VALUE}. */
    public long maxTimestamp(SeriesRef s) {
        SeriesBuffer[] arr = buffers;
        if (s.id() >= arr.length) {
            return Long.MIN_VALUE;
        }
        SeriesBuffer b = (SeriesBuffer) SLOTS.getAcquire(arr, s.id());
        return b == null ? Long.MIN_VALUE : b.maxTimestamp();
    }

    /**
     * Marks this memtable frozen: later inserts fail with {@link MemtableFrozenException}.
     *
     * @param walSequence the highest WAL sequence written when it froze: every record up to it that
     *     routes here is in this memtable or an older one, none after it is
     */
    public void freeze(long walSequence) {
        frozenAtSequence = walSequence;
        frozen = true;
    }

    public boolean isFrozen() {
        return frozen;
    }

    /** The WAL sequence the memtable froze at (see {@link #freeze}); -1 while active. */
    public long frozenAtSequence() {
        return frozenAtSequence;
    }

    public long estimatedBytes() {
        return estimatedBytes.get();
    }

    public long pointCount() {
        return points.get();
    }

    public boolean isEmpty() {
        return points.get() == 0;
    }

    /** The lowest WAL sequence inserted, {@link Long#MAX_VALUE} when empty. */
    public long minSequence() {
        return minSequence.get();
    }

    public long maxSequence() {
        return maxSequence.get();
    }

    public long minTime() {
        return minTime.get();
    }

    public long maxTime() {
        return maxTime.get();
    }

    @Override
    public String toString() {
        return "Memtable[shard=" + shard + ", points=" + points.get() + ", estimatedBytes=" + estimatedBytes.get()
                + ", sequences=" + minSequence.get() + ".." + maxSequence.get() + ", frozen=" + frozen + "]";
    }
}
