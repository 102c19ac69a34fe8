package io.chronix.engine.rollup;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The rollups of one namespace and their state (seed 001 "Rollup": {@code RollupRegistry},
 * {@code RollupState}). Every change goes to the {@link Store} — the catalog, which fsyncs it —
 * before the call returns; the in-memory state follows only once it is durable.
 *
 * <p><b>State.</b> Per rollup: {@code materialisedUntil} (the durable watermark, a bucket
 * boundary) and the invalidation log ({@link InvalidationLog}). Two transient marks make
 * concurrent writes safe without holding writers off while a pass reads: a <em>claim</em> (the
 * watermark an advance in progress will persist: writes below it already count as late) and,
 * during a repair, the ranges invalidated since the repair took its snapshot (they survive the
 * repair's clearing). The engine takes its rollup gate exclusively around {@link #claim} and
 * {@link #beginRepair}, and shared from a late write's check to its memtable insert.
 *
 * <p>Threading: thread-safe (this object's monitor).
 */
public final class RollupRegistry {

    /** Where definitions and state are made durable. Each call returns once durable. */
    public interface Store {
        void defined(RollupConfig config);

        void removed(String name);

        void state(String name, long materialisedUntil, List<TimeRange> invalid);
    }

    /** A rollup as the catalog holds it, for {@link #load}. */
    public record Persisted(RollupConfig config, long materialisedUntil, List<TimeRange> invalid) {
    }

    private static final class Entry {
        final RollupConfig config;
        long until;
        long claim = Long.MIN_VALUE;
        List<TimeRange> invalid;
        List<TimeRange> arrived; // non-null while a repair runs
        String lastError;

        Entry(RollupConfig config, long until, List<TimeRange> invalid) {
            this.config = config;
            this.until = until;
            this.invalid = List.copyOf(invalid);
        }

        RollupInfo info() {
            return new RollupInfo(config, until, invalid, Optional.ofNullable(lastError));
        }

        long lateBelow() {
            return Math.max(until, claim);
        }
    }

    private final Store store;
    private final Map<String, Entry> rollups = new LinkedHashMap<>();
    private volatile boolean empty = true;

    public RollupRegistry(Store store) {
        this.store = store;
    }

    /** The rollups the catalog holds, at open (nothing is written). */
    public synchronized void load(List<Persisted> persisted) {
        for (Persisted p : persisted) {
            rollups.put(p.config().name(), new Entry(p.config(), p.materialisedUntil(), p.invalid()));
        }
        empty = rollups.isEmpty();
    }

    /** No rollup defined: the write path's fast exit (no lock). */
    public boolean isEmpty() {
        return empty;
    }

    /**
     * Adds a rollup, durably.
     *
     * @throws InvalidRollupException for a duplicate name, a target another rollup writes, a
     *     target that is a raw measurement feeding this source, or a definition that would make a
     *     measurement feed itself (directly or through a chain)
     */
    public synchronized RollupInfo add(RollupConfig config) {
        if (rollups.containsKey(config.name())) {
            throw new InvalidRollupException("a rollup of this name exists", "name", config.name());
        }
        for (Entry e : rollups.values()) {
            if (e.config.target().equals(config.target())) {
                throw new InvalidRollupException("target already written by rollup " + e.config.name(), "target", config.target());
            }
        }
        if (wouldCycle(config.source(), config.target())) {
            throw new InvalidRollupException("rollup would make a measurement feed itself", "target", config.target());
        }
        store.defined(config);
        Entry e = new Entry(config, Long.MIN_VALUE, List.of());
        rollups.put(config.name(), e);
        empty = false;
        return e.info();
    }

    /** Whether an edge {@code source → target} closes a cycle: {@code source} is reachable from {@code target}. */
    private boolean wouldCycle(String source, String target) {
        Deque<String> todo = new ArrayDeque<>(List.of(target));
        Set<String> seen = new HashSet<>();
        while (!todo.isEmpty()) {
            String m = todo.pop();
            if (m.equals(source)) {
                return true;
            }
            if (seen.add(m)) {
                for (Entry e : rollups.values()) {
                    if (e.config.source().equals(m)) {
                        todo.push(e.config.target());
                    }
                }
            }
        }
        return false;
    }

    /** Removes a rollup, durably; its target keeps what was materialised. */
    public synchronized boolean remove(String name) {
        if (!rollups.containsKey(name)) {
            return false;
        }
        store.removed(name);
        rollups.remove(name);
        empty = rollups.isEmpty();
        return true;
    }

    public synchronized Optional<RollupInfo> get(String name) {
        Entry e = rollups.get(name);
        return e == null ? Optional.empty() : Optional.of(e.info());
    }

    /** Every rollup, sources before the rollups that read their targets, then by definition order. */
    public synchronized List<RollupInfo> list() {
        List<RollupInfo> out = new ArrayList<>();
        Set<String> done = new HashSet<>();
        while (done.size() < rollups.size()) {
            for (Entry e : rollups.values()) {
                if (!done.contains(e.config.name()) && upstreamDone(e, done)) {
                    out.add(e.info());
                    done.add(e.config.name());
                }
            }
        }
        return out;
    }

    private boolean upstreamDone(Entry e, Set<String> done) {
        for (Entry u : rollups.values()) {
            if (u.config.target().equals(e.config.source()) && !done.contains(u.config.name())) {
                return false;
            }
        }
        return true;
    }

    public synchronized List<RollupInfo> forSource(String measurement) {
        return rollups.values().stream().filter(e -> e.config.source().equals(measurement)).map(Entry::info).toList();
    }

    /** The rollup writing {@code measurement}, if it is a rollup target. */
    public synchronized Optional<RollupInfo> forTarget(String measurement) {
        return rollups.values().stream().filter(e -> e.config.target().equals(measurement)).map(Entry::info).findFirst();
    }

    /**
     * The watermark below which a write to the rollup's source is late (the durable one, or the
     * claim of an advance in progress); {@link Long#MIN_VALUE} for an unknown rollup.
     */
    public synchronized long lateBelow(String name) {
        Entry e = rollups.get(name);
        return e == null ? Long.MIN_VALUE : e.lateBelow();
    }

    /**
     * Invalidates {@code [from, to)} of a rollup, durably: widened to bucket boundaries, clipped to
     * what lies below its watermark (above it the advance computes anyway). Returns whether the log changed.
     */
    public synchronized boolean invalidate(String name, long from, long to) {
        Entry e = rollups.get(name);
        if (e == null) {
            throw new InvalidRollupException("no such rollup", "name", name);
        }
        return invalidate(e, List.of(new long[] {from, to}));
    }

    /** Invalidates the buckets holding {@code timestamps} that lie below the rollup's watermark, durably, in one record. */
    public synchronized boolean invalidateBuckets(String name, long[] timestamps, int count) {
        Entry e = rollups.get(name);
        if (e == null) {
            return false;
        }
        List<long[]> ranges = new ArrayList<>();
        long below = e.lateBelow();
        TimeBucket b = e.config.bucket();
        long lastStart = Long.MIN_VALUE;
        boolean any = false;
        for (int i = 0; i < count; i++) {
            long t = timestamps[i];
            if (t >= below) {
                continue;
            }
            long s = b.startOf(t);
            if (any && s == lastStart) {
                continue;
            }
            any = true;
            lastStart = s;
            ranges.add(new long[] {s, b.next(s)});
        }
        return !ranges.isEmpty() && invalidate(e, ranges);
    }

    private boolean invalidate(Entry e, List<long[]> ranges) {
        long below = e.lateBelow();
        TimeBucket b = e.config.bucket();
        List<TimeRange> log = e.invalid;
        List<TimeRange> added = new ArrayList<>();
        for (long[] r : ranges) {
            long from = b.startOf(r[0]);
            long to = Math.min(r[1], below);
            if (to > from && b.startOf(to) != to) {
                to = b.next(b.startOf(to));
            }
            if (from >= to) {
                continue;
            }
            TimeRange tr = new TimeRange(from, to);
            added.add(tr);
            log = InvalidationLog.add(log, tr);
        }
        if (log.equals(e.invalid)) {
            return false;
        }
        store.state(e.config.name(), e.until, log);
        e.invalid = log;
        if (e.arrived != null) {
            e.arrived = InvalidationLog.addAll(e.arrived, added);
        }
        return true;
    }

    /** An advance is about to materialise up to {@code until}: writes below it count as late from now on. */
    public synchronized void claim(String name, long until) {
        Entry e = rollups.get(name);
        if (e != null) {
            e.claim = Math.max(e.claim, until);
        }
    }

    /** Persists the watermark an advance reached (its points are synced); drops the claim once reached. */
    public synchronized void advanced(String name, long until) {
        Entry e = rollups.get(name);
        if (e == null) {
            return;
        }
        if (until > e.until) {
            store.state(name, until, e.invalid);
            e.until = until;
        }
        if (e.claim <= e.until) {
            e.claim = Long.MIN_VALUE;
        }
    }

    /** Drops an advance's claim (it failed; writes below the old watermark only are late again). */
    public synchronized void unclaim(String name) {
        Entry e = rollups.get(name);
        if (e != null) {
            e.claim = Long.MIN_VALUE;
        }
    }

    /** The ranges a repair is to fix now; later invalidations are remembered apart until {@link #repaired}. */
    public synchronized List<TimeRange> beginRepair(String name) {
        Entry e = rollups.get(name);
        if (e == null) {
            return List.of();
        }
        e.arrived = List.of();
        return e.invalid;
    }

    /** Clears the repaired ranges, durably — except what was invalidated again since {@link #beginRepair}. */
    public synchronized void repaired(String name, List<TimeRange> repaired) {
        Entry e = rollups.get(name);
        if (e == null) {
            return;
        }
        List<TimeRange> log = InvalidationLog.addAll(InvalidationLog.subtract(e.invalid, repaired), e.arrived == null ? List.of() : e.arrived);
        if (!log.equals(e.invalid)) {
            store.state(name, e.until, log);
            e.invalid = log;
        }
        e.arrived = null;
    }

    /** Ends a repair that failed: its ranges stay. */
    public synchronized void repairFailed(String name) {
        Entry e = rollups.get(name);
        if (e != null) {
            e.arrived = null;
        }
    }

    /** Records the outcome of the latest pass ({@code null}: it succeeded). */
    public synchronized void outcome(String name, String error) {
        Entry e = rollups.get(name);
        if (e != null) {
            e.lastError = error;
        }
    }

    /**
     * The oldest timestamp of {@code measurement} a rollup reading it still needs: the lowest
     * watermark among them, lowered to the start of the first pending repair; empty if no rollup reads it.
     */
    public synchronized OptionalLong oldestNeeded(String measurement) {
        long needed = Long.MAX_VALUE;
        boolean any = false;
        for (Entry e : rollups.values()) {
            if (e.config.source().equals(measurement)) {
                any = true;
                needed = Math.min(needed, e.until);
                if (!e.invalid.isEmpty()) {
                    needed = Math.min(needed, e.invalid.getFirst().from());
                }
            }
        }
        return any ? OptionalLong.of(needed) : OptionalLong.empty();
    }
}
