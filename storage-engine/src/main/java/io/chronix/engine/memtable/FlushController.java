package io.chronix.engine.memtable;

import io.chronix.engine.error.NoFrozenMemtableException;

/**
 * A shard's two memtable slots: the active one that takes writes, and at most one frozen one
 * waiting to be written as segments.
 *
 * <pre>
 *   active --freeze()--> frozen --flushed()--> (gone: its rows are in segments)
 * </pre>
 *
 * <p>Threading: {@link #freeze} and {@link #flushed} are called with the engine's write gate held
 * exclusively or by the single flusher of the engine; the slots are volatile so readers snapshot
 * them without locks. Readers must take {@link #frozen()} <em>before</em> the segment list, so a
 * flush in between shows them the rows twice (harmless: identical rows merge) rather than never.
 */
public final class FlushController {

    private final long shard;
    private volatile Memtable active;
    private volatile Memtable frozen;

    public FlushController(long shard) {
        this.shard = shard;
        this.active = new Memtable(shard);
    }

    public long shard() {
        return shard;
    }

    public Memtable active() {
        return active;
    }

    /** The frozen memtable, or {@code null}. */
    public Memtable frozen() {
        return frozen;
    }

    /**
     * Freezes the active memtable and swaps in a fresh one, if the active one holds points and no
     * frozen one is pending (flushes of one shard go strictly in order).
     *
     * @return whether it froze
     */
    public boolean freeze(long walSequence) {
        Memtable a = active;
        if (frozen != null || a.isEmpty()) {
            return false;
        }
        a.freeze(walSequence);
        frozen = a;
        active = new Memtable(shard);
        return true;
    }

    /**
     * Drops the frozen memtable once its rows are in published segments.
     *
     * @throws NoFrozenMemtableException if there is none
     */
    public void flushed(Memtable m) {
        if (frozen == null) {
            throw new NoFrozenMemtableException(shard);
        }
        assert frozen == m : "flushed the pending frozen memtable";
        frozen = null;
    }

    @Override
    public String toString() {
        return "FlushController[shard=" + shard + ", active=" + active + ", frozen=" + frozen + "]";
    }
}
