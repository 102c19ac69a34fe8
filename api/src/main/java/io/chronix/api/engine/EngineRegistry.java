package io.chronix.api.engine;

import io.chronix.api.namespace.NamespaceDataListener;
import io.chronix.api.namespace.NamespaceLocations;
import io.chronix.engine.Chronix;
import io.chronix.engine.EngineConfig;
import io.chronix.engine.archive.ColdTier;
import io.chronix.engine.error.EngineClosedException;
import io.chronix.engine.maintenance.MaintenanceScheduler;
import io.chronix.engine.storage.NamespaceId;
import io.chronix.engine.wal.WalMetrics;
import io.chronix.tenancy.namespace.Namespace;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * One {@link Chronix} per namespace id, opened lazily from {@code <data>/namespaces/<id>} with the
 * namespace's settings over the service defaults, closed when idle, reopened transparently.
 *
 * <p>Use: {@code try (var lease = registry.acquire(ns)) { lease.engine().write(batch); }} — or
 * {@link #apply}. While a lease is held the engine stays open: neither the idle sweep nor the
 * budget closes an engine that someone is using. A lease is cheap (a counter); take one per request.
 *
 * <p>Memory: the memtables of all open engines share {@link EngineProperties#memtableBudget()}.
 * When their sum passes it, a coalescing task on the shared scheduler flushes the largest engine
 * until the sum is back under the budget (never on the request thread).
 *
 * <p>Lifecycle: idle engines (no lease for {@link EngineProperties#idleTimeout()}) are flushed and
 * closed by a sweep on the shared scheduler; the next acquire reopens them (WAL replay of nothing).
 * Deleting a namespace ({@link #beforeDataRemoval}) waits for its leases to end, closes its engine
 * and refuses further acquires with {@link NamespaceGoneException}, so the reaper can remove the
 * directory. {@link #close()} closes every engine (flushing the large ones); the owner closes the scheduler after.
 *
 * <p>Storage failures: an engine whose WAL or catalog fsync failed refuses work until it is
 * reopened ({@link Chronix#syncFailure}). The registry notes it (a write that met it tells it, and
 * a task every {@link EngineProperties#storageRetryInterval()} looks at every open engine), and once
 * no lease holds the engine it cuts the engine's WAL and catalog back to what fsyncs covered
 * ({@link Chronix#prepareReopenAfterSyncFailure}), closes it, and opens it again, which replays
 * exactly what was acknowledged. While the device still fails the cut or the open fails, and it is
 * tried again after the interval; meanwhile the namespace answers {@link StorageUnavailableException}
 * (503). A namespace whose engine could not be opened for a storage error is tried again the same
 * way. {@link #storageFailures()} lists both kinds for the health component {@code engine}.
 *
 * <p>Threading: thread-safe. Opening and closing one namespace's engine is serialized on its
 * entry; different namespaces do not wait for each other.
 */
public final class EngineRegistry implements NamespaceDataListener, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EngineRegistry.class);
    /** How long a namespace deletion waits for running requests of the namespace to end. */
    private static final long DELETE_WAIT_MILLIS = 30_000;

    private final NamespaceLocations locations;
    private final EngineProperties defaults;
    private final MaintenanceScheduler scheduler;
    private final LongSupplier nanoTime;
    private final Function<EngineConfig, EngineConfig> configHook;
    private final BiFunction<NamespaceId, Path, ColdTier> coldTiers; // null: engines without a cold tier
    private final Map<Long, Entry> entries = new ConcurrentHashMap<>();
    private final Set<Long> removed = ConcurrentHashMap.newKeySet();
    private final MaintenanceScheduler.Task budgetTask;
    private final ScheduledFuture<?> sweep;
    private final WalTotals closedWalTotals = new WalTotals();
    private final LongAdder opens = new LongAdder();
    private final LongAdder idleCloses = new LongAdder();
    private final LongAdder budgetFlushes = new LongAdder();
    private final LongAdder closedLastValueHits = new LongAdder();
    private final LongAdder closedLastValueMisses = new LongAdder();
    private final LongAdder closedBackpressureNanos = new LongAdder();
    /** Namespaces whose engine failed an fsync or could not be opened for a storage error, by id. */
    private final Map<Long, Failure> failures = new ConcurrentHashMap<>();
    private final ScheduledFuture<?> recovery;
    private final LongAdder storageReopens = new LongAdder();
    private volatile boolean closed;

    /**
     * A namespace in trouble: its engine failed an fsync (and is open, refusing work) or could not be
     * opened. {@code nextAttempt} is when the registry may try to reopen it next (a ticker value).
     */
    private static final class Failure {
        final Namespace namespace;
        final StorageFault fault;
        final String reason;
        volatile long nextAttempt;

        Failure(Namespace namespace, StorageFault fault, String reason, long nextAttempt) {
            this.namespace = namespace;
            this.fault = fault;
            this.reason = reason;
            this.nextAttempt = nextAttempt;
        }
    }

    public EngineRegistry(NamespaceLocations locations, EngineProperties defaults, MaintenanceScheduler scheduler) {
        this(locations, defaults, scheduler, System::nanoTime, Function.identity());
    }

    /**
     * @param nanoTime   the ticker idle times are measured with (tests move it)
     * @param configHook last say over each engine's configuration (tests inject clocks or faults)
     */
    public EngineRegistry(NamespaceLocations locations, EngineProperties defaults, MaintenanceScheduler scheduler,
                          LongSupplier nanoTime, Function<EngineConfig, EngineConfig> configHook) {
        this(locations, defaults, scheduler, nanoTime, configHook, null);
    }

    /**
     * @param coldTiers the cold tier of a namespace (id, engine directory), attached to its engine at
     *                  every open; null for engines without one
     */
    public EngineRegistry(NamespaceLocations locations, EngineProperties defaults, MaintenanceScheduler scheduler,
                          LongSupplier nanoTime, Function<EngineConfig, EngineConfig> configHook,
                          BiFunction<NamespaceId, Path, ColdTier> coldTiers) {
        this.coldTiers = coldTiers;
        this.locations = locations;
        this.defaults = defaults;
        this.scheduler = scheduler;
        this.nanoTime = nanoTime;
        this.configHook = configHook;
        this.budgetTask = scheduler.task("memtable budget", this::enforceBudget);
        this.sweep = scheduler.scheduleWithFixedDelay(this::sweepQuietly, defaults.sweepInterval());
        this.recovery = scheduler.scheduleWithFixedDelay(this::recoverQuietly, defaults.storageRetryInterval());
    }

    /** A handle that keeps one namespace's engine open until closed. */
    public final class Lease implements AutoCloseable {
        private final Entry entry;
        private final Chronix engine;
        private boolean released;

        private Lease(Entry entry, Chronix engine) {
            this.entry = entry;
            this.engine = engine;
        }

        public Chronix engine() {
            if (released) {
                throw new IllegalStateException("lease already closed");
            }
            return engine;
        }

        /** Call after writing, so the shared memtable budget is checked. */
        public void wrote() {
            checkBudget();
        }

        @Override
        public void close() {
            if (!released) {
                released = true;
                entry.release(nanoTime.getAsLong());
            }
        }
    }

    /**
     * The namespace's engine, opened if it is not open.
     *
     * @throws NamespaceGoneException if the namespace's data is being or has been removed
     * @throws IllegalStateException  if the registry is closed
     * @throws IllegalArgumentException if the namespace's settings are not valid
     */
    public Lease acquire(Namespace ns) {
        long id = ns.id();
        while (true) {
            if (closed) {
                throw new IllegalStateException("engine registry is closed");
            }
            if (removed.contains(id)) {
                throw new NamespaceGoneException(id);
            }
            Entry e = entries.computeIfAbsent(id, Entry::new);
            synchronized (e) {
                if (e.retired) {
                    continue; // closed by a sweep between lookup and lock; take the new entry
                }
                if (removed.contains(id)) {
                    throw new NamespaceGoneException(id);
                }
                Failure f = failures.isEmpty() ? null : failures.get(id);
                if (f != null && reopenedAfterFailure(e, f)) {
                    continue; // closed: the next round opens it again
                }
                if (e.engine == null) {
                    try {
                        e.namespace = ns;
                        e.engine = open(ns);
                    } catch (RuntimeException ex) {
                        e.retired = true;
                        entries.remove(id, e);
                        throw openFailed(ns, ex);
                    }
                    if (failures.remove(id) != null) {
                        storageReopens.increment();
                        log.info("namespace engine open again after a storage failure [namespace={}]", id);
                    }
                }
                e.users++;
                e.lastUsed = nanoTime.getAsLong();
                return new Lease(e, e.engine);
            }
        }
    }

    /** Runs {@code fn} with the namespace's engine held open. */
    public <T> T apply(Namespace ns, Function<Chronix, T> fn) {
        try (Lease lease = acquire(ns)) {
            return fn.apply(lease.engine());
        }
    }

    /**
     * {@link #apply} for a request: a namespace deleted since the caller looked it up is the
     * tenancy's {@code NotFoundException} (answered 404 {@code namespace-not-found}, like one that never existed).
     */
    public <T> T applyLive(Namespace ns, Function<Chronix, T> fn) {
        Lease lease;
        try {
            lease = acquire(ns);
        } catch (NamespaceGoneException e) {
            throw new io.chronix.tenancy.NotFoundException(io.chronix.tenancy.NotFoundException.Kind.NAMESPACE, ns.name());
        }
        try (lease) {
            return fn.apply(lease.engine());
        }
    }

    /**
     * Under the entry's lock, for a namespace with a failure noted: true if its engine failed an
     * fsync, is unused, its retry is due, and it was made ready and closed (the caller opens it
     * again). A noted failure whose engine turns out healthy is forgotten; one whose open failed
     * and whose retry is not due yet is refused at once, rather than every request trying the
     * device again.
     */
    private boolean reopenedAfterFailure(Entry e, Failure f) {
        assert Thread.holdsLock(e);
        long now = nanoTime.getAsLong();
        Chronix c = e.engine;
        if (c == null) {
            if (now - f.nextAttempt < 0) {
                throw new StorageUnavailableException(e.id, f.fault, f.reason, retryAfterSeconds(f, now));
            }
            return false; // due: the caller tries to open it
        }
        if (c.syncFailure().isEmpty()) {
            failures.remove(e.id, f);
            return false;
        }
        if (e.users > 0 || now - f.nextAttempt < 0) {
            return false; // the engine refuses the work itself (503); tried again later
        }
        if (!c.prepareReopenAfterSyncFailure()) {
            f.nextAttempt = now + defaults.storageRetryInterval().toNanos();
            log.warn("namespace engine with a failed fsync cannot be reopened yet: the device still fails; retrying in {} [namespace={}]",
                    defaults.storageRetryInterval(), e.id);
            return false;
        }
        log.warn("closing the namespace engine after a failed fsync to open it again from what was synced [namespace={}]", e.id);
        retire(e, false);
        return true;
    }

    private long retryAfterSeconds(Failure f, long now) {
        long left = Math.max(0, f.nextAttempt - now);
        return Math.max(1, java.util.concurrent.TimeUnit.NANOSECONDS.toSeconds(left + 999_999_999L));
    }

    /** Notes an open that failed for a storage error, to be retried after the interval; returns what to throw. */
    private RuntimeException openFailed(Namespace ns, RuntimeException ex) {
        StorageFault fault = StorageFault.of(ex);
        if (fault == null) {
            return ex;
        }
        long next = nanoTime.getAsLong() + defaults.storageRetryInterval().toNanos();
        Failure previous = failures.put(ns.id(), new Failure(ns, fault, String.valueOf(ex.getMessage()), next));
        if (previous == null) {
            log.error("namespace engine cannot be opened: {}; retrying every {} [namespace={}]", fault, defaults.storageRetryInterval(),
                    ns.id(), ex);
        }
        return ex;
    }

    /**
     * A write or a read met a failed fsync of the namespace's engine ({@link StorageFault#SYNC_FAILED}):
     * the registry reopens the engine once no lease holds it (at once if that is now). Idempotent.
     */
    public void syncFailed(Namespace ns, RuntimeException e) {
        if (failures.putIfAbsent(ns.id(), new Failure(ns, StorageFault.SYNC_FAILED, String.valueOf(e.getMessage()),
                nanoTime.getAsLong())) == null) {
            log.error("namespace engine refuses work after a failed fsync; it will be closed and opened again from what was synced "
                    + "[namespace={}]: {}", ns.id(), e.getMessage());
        }
    }

    /** The seconds a client should wait before retrying a namespace in trouble: the retry interval. */
    public long storageRetryAfterSeconds() {
        return Math.max(1, defaults.storageRetryInterval().toSeconds());
    }

    /**
     * Namespaces in trouble now, by id, with the reason: an open engine whose fsync failed, or an
     * engine that could not be opened for a storage error and is retried.
     */
    public Map<Long, String> storageFailures() {
        Map<Long, String> out = new java.util.TreeMap<>();
        for (Map.Entry<Long, Failure> f : failures.entrySet()) {
            out.put(f.getKey(), f.getValue().fault + ": " + f.getValue().reason);
        }
        for (Entry e : entries.values()) {
            Chronix c = e.engine;
            if (c != null && !out.containsKey(e.id)) {
                c.syncFailure().ifPresent(x -> out.put(e.id, StorageFault.SYNC_FAILED + ": " + x.getMessage()));
            }
        }
        return out;
    }

    /** Engines reopened after a storage failure since start. */
    public long storageReopens() {
        return storageReopens.sum();
    }

    /**
     * Every {@link EngineProperties#storageRetryInterval()}: notes engines whose fsync failed in the
     * background (a flush's catalog record, {@code PERIODIC}'s sync), then tries each noted namespace
     * whose retry is due — an acquire does it: it reopens a failed engine, or opens one that failed to
     * open, so the namespace recovers (and readiness with it) without waiting for a request.
     */
    void recoverFailed() {
        for (Entry e : entries.values()) {
            Chronix c = e.engine;
            Namespace ns = e.namespace;
            if (c != null && ns != null && !failures.containsKey(e.id)) {
                c.syncFailure().ifPresent(x -> syncFailed(ns, x));
            }
        }
        long now = nanoTime.getAsLong();
        for (Failure f : List.copyOf(failures.values())) {
            if (closed || now - f.nextAttempt < 0) {
                continue;
            }
            try (Lease ignored = acquire(f.namespace)) {
                // opened (again), or still refusing: either way noted by acquire
            } catch (NamespaceGoneException gone) {
                failures.remove(f.namespace.id(), f);
            } catch (RuntimeException stillFailing) {
                log.debug("namespace engine still failing [namespace={}]: {}", f.namespace.id(), stillFailing.getMessage());
            }
        }
    }

    private void recoverQuietly() {
        try {
            recoverFailed();
        } catch (RuntimeException ex) {
            log.warn("storage recovery pass failed; retrying at the next pass", ex);
        }
    }

    private Chronix open(Namespace ns) {
        EngineConfig config = configHook.apply(NamespaceEngineSettings.parse(ns.settingsJson()).apply(defaults));
        NamespaceId id = NamespaceLocations.engineId(ns);
        Path dir = locations.openable(ns); // never a directory whose identity is another namespace's
        Chronix c = coldTiers == null ? Chronix.open(dir, config, scheduler) : Chronix.open(dir, config, scheduler, coldTiers.apply(id, dir));
        c.retention(ns.retention()); // enforced by the engine's maintenance pass too
        opens.increment();
        log.debug("engine opened [namespace={}, fsync={}]", ns.id(), config.fsyncPolicy());
        return c;
    }

    // ----------------------------------------------------------------------------- idle and budget

    /** Flushes and closes engines unused for the idle timeout; returns how many it closed. */
    public int closeIdle() {
        long now = nanoTime.getAsLong();
        long timeout = defaults.idleTimeout().toNanos();
        int n = 0;
        for (Entry e : entries.values()) {
            synchronized (e) {
                if (e.retired || e.users > 0 || e.engine == null || now - e.lastUsed < timeout) {
                    continue;
                }
                retire(e, true);
                n++;
            }
        }
        idleCloses.add(n);
        return n;
    }

    private void sweepQuietly() {
        try {
            closeIdle();
            checkBudget();
        } catch (RuntimeException ex) {
            log.warn("engine idle sweep failed; retrying at the next sweep", ex);
        }
    }

    private void checkBudget() {
        if (memtableBytes() > defaults.memtableBudget().toBytes()) {
            budgetTask.request();
        }
    }

    /** Flushes the largest engines until the memtables fit the budget again. */
    void enforceBudget() {
        long budget = defaults.memtableBudget().toBytes();
        for (int round = 0; round < 64 && !closed; round++) {
            long total = 0;
            Entry largest = null;
            long largestBytes = 0;
            for (Entry e : entries.values()) {
                Chronix c = e.engine;
                if (c == null) {
                    continue;
                }
                long b = c.memtableBytes();
                total += b;
                if (b > largestBytes) {
                    largest = e;
                    largestBytes = b;
                }
            }
            if (total <= budget || largest == null) {
                return;
            }
            Chronix c = largest.engine;
            try {
                if (c != null) {
                    c.flush();
                    budgetFlushes.increment();
                    log.debug("memtable budget passed; flushed the largest engine [bytes={}, total={}, budget={}]",
                            largestBytes, total, budget);
                }
            } catch (EngineClosedException ignored) {
                // closed meanwhile (idle or deleted): its memory is gone anyway
            } catch (RuntimeException ex) {
                log.warn("flush for the memtable budget failed; the engine retries it itself", ex);
                return;
            }
        }
    }

    // ----------------------------------------------------------------------------- maintenance

    /**
     * Runs {@code work} for every open engine with the namespace record it was opened with, each
     * engine held open meanwhile but without counting as a use (a periodic pass must not keep an
     * idle engine from closing). A failure is logged and the pass goes on with the next engine.
     */
    public void forEachOpen(java.util.function.BiConsumer<Namespace, Chronix> work) {
        for (Entry e : entries.values()) {
            Chronix c;
            Namespace ns;
            synchronized (e) {
                if (e.retired || e.engine == null || closed) {
                    continue;
                }
                c = e.engine;
                ns = e.namespace;
                e.users++;
            }
            try {
                work.accept(ns, c);
            } catch (EngineClosedException ignored) {
                // closed meanwhile (deleted namespace): nothing to maintain
            } catch (RuntimeException ex) {
                log.warn("maintenance of an open engine failed; it runs again at the next pass [namespace={}]", e.id, ex);
            } finally {
                e.releaseQuietly();
            }
        }
    }

    // ----------------------------------------------------------------------------- deletion

    /**
     * The namespace's data is about to be removed: refuse new acquires, wait for running ones to
     * end (at most 30 s, then it fails so the reaper retries), close the engine without a flush.
     * Idempotent.
     */
    @Override
    public void beforeDataRemoval(NamespaceId namespace) {
        long id = namespace.value();
        removed.add(id);
        Entry e = entries.get(id);
        if (e == null) {
            return;
        }
        synchronized (e) {
            long deadline = System.currentTimeMillis() + DELETE_WAIT_MILLIS;
            while (e.users > 0) {
                long left = deadline - System.currentTimeMillis();
                if (left <= 0) {
                    throw new IllegalStateException("namespace " + id + " still in use; its data removal waits");
                }
                try {
                    e.wait(left);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for namespace " + id, ie);
                }
            }
            if (!e.retired) {
                retire(e, false);
            }
        }
        log.info("engine of deleted namespace closed [namespace={}]", id);
    }

    // ----------------------------------------------------------------------------- views

    /** Engines open now. */
    public int openEngines() {
        int n = 0;
        for (Entry e : entries.values()) {
            n += e.engine != null ? 1 : 0;
        }
        return n;
    }

    /** Memtable bytes across all open engines. */
    public long memtableBytes() {
        long n = 0;
        for (Entry e : entries.values()) {
            Chronix c = e.engine;
            if (c != null) {
                n += c.memtableBytes();
            }
        }
        return n;
    }

    public long memtableBudgetBytes() {
        return defaults.memtableBudget().toBytes();
    }

    /** Engines opened since start (first opens and reopens). */
    public long opens() {
        return opens.sum();
    }

    public long idleCloses() {
        return idleCloses.sum();
    }

    public long budgetFlushes() {
        return budgetFlushes.sum();
    }

    /** Last-value cache hits (index 0) and misses (1) of every engine this process opened, closed ones included. */
    public long[] lastValueTotals() {
        long hits = closedLastValueHits.sum();
        long misses = closedLastValueMisses.sum();
        for (Entry e : entries.values()) {
            Chronix c = e.engine;
            if (c != null) {
                Chronix.CacheStats s = c.cacheStats();
                hits += s.lastValueHits();
                misses += s.lastValueMisses();
            }
        }
        return new long[] {hits, misses};
    }

    /** The longest write delay backpressure imposes now on any open engine (0 when none is behind on compaction). */
    public long backpressureDelayNanos() {
        long max = 0;
        for (Entry e : entries.values()) {
            Chronix c = e.engine;
            if (c != null) {
                max = Math.max(max, c.backpressureDelay().toNanos());
            }
        }
        return max;
    }

    /** Time writes spent delayed by backpressure, over every engine this process opened, closed ones included. */
    public long backpressureTotalNanos() {
        long n = closedBackpressureNanos.sum();
        for (Entry e : entries.values()) {
            Chronix c = e.engine;
            if (c != null) {
                n += c.backpressureTotalDelay().toNanos();
            }
        }
        return n;
    }

    /** The WAL counters of every engine this process opened, closed ones included. */
    public WalTotals.Snapshot walTotals() {
        WalTotals.Snapshot s = closedWalTotals.snapshot();
        for (Entry e : entries.values()) {
            Chronix c = e.engine;
            if (c != null) {
                s = s.plus(c.walMetrics());
            }
        }
        return s;
    }

    /** Cold-tier bytes of each open engine, by namespace id (for the per-namespace gauge). */
    public Map<Long, Long> coldBytesOfOpenEngines() {
        return perOpenEngine(Chronix::coldBytes);
    }

    private Map<Long, Long> perOpenEngine(java.util.function.ToLongFunction<Chronix> figure) {
        Map<Long, Long> out = new java.util.HashMap<>();
        for (Entry e : entries.values()) {
            Chronix c = e.engine;
            if (c != null) {
                out.put(e.id, figure.applyAsLong(c));
            }
        }
        return out;
    }

    /**
     * Per open engine, the zeros its WAL preallocated past its records ({@link
     * Chronix#walPreallocatedBytes()}): disk in its directory that stored bytes leave out. A closed
     * engine's WAL has none (close trims them).
     */
    public Map<Long, Long> walPreallocationOfOpenEngines() {
        return perOpenEngine(Chronix::walPreallocatedBytes);
    }

    /** The open engine of a namespace id, if any (for metrics and tests; take a lease to use it). */
    public List<Long> openNamespaceIds() {
        List<Long> ids = new ArrayList<>();
        for (Entry e : entries.values()) {
            if (e.engine != null) {
                ids.add(e.id);
            }
        }
        return ids;
    }

    // ----------------------------------------------------------------------------- shutdown

    /**
     * At shutdown, an engine whose memtables hold at least this much is flushed before it closes;
     * a smaller one closes as it is and its next open replays its WAL (a few milliseconds for a
     * few megabytes), so that stopping a node with thousands of quiet namespaces open costs their
     * closes, not thousands of flushes. docs/operations.md, "Stopping".
     */
    static final long SHUTDOWN_FLUSH_MIN_BYTES = 8L << 20;
    /** Flushes at shutdown start only within this long of its start; later engines close unflushed. */
    static final Duration SHUTDOWN_FLUSH_BUDGET = Duration.ofSeconds(5);
    /** Engines closed at once at shutdown: each close is mostly an fsync, so a few in flight. */
    static final int SHUTDOWN_THREADS = 8;

    private long shutdownFlushMinBytes = SHUTDOWN_FLUSH_MIN_BYTES;

    /** Tests: the memtable size from which shutdown flushes an engine. */
    void shutdownFlushMinBytes(long bytes) {
        this.shutdownFlushMinBytes = bytes;
    }

    /**
     * Closes every engine, {@link #SHUTDOWN_THREADS} at a time, the largest memtables first;
     * flushes those holding {@link #SHUTDOWN_FLUSH_MIN_BYTES} or more while within {@link
     * #SHUTDOWN_FLUSH_BUDGET} of the start. Nothing acknowledged depends on a flush: the WAL holds
     * it, and the next open replays it. Idempotent. Close the scheduler after this.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        sweep.cancel(false);
        recovery.cancel(false);
        budgetTask.cancel();
        long start = System.nanoTime();
        long flushUntil = start + SHUTDOWN_FLUSH_BUDGET.toNanos();
        List<Entry> open = new ArrayList<>();
        Map<Entry, Long> memtable = new java.util.HashMap<>();
        for (Entry e : entries.values()) {
            Chronix c = e.engine;
            if (c != null) {
                open.add(e);
                memtable.put(e, c.memtableBytes());
            }
        }
        open.sort((a, b) -> Long.compare(memtable.get(b), memtable.get(a)));
        AtomicInteger closedCount = new AtomicInteger();
        AtomicInteger flushed = new AtomicInteger();
        ThreadFactory threads = Thread.ofPlatform().name("chronix-engine-close-", 0).daemon().factory();
        try (ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(SHUTDOWN_THREADS, open.size())), threads)) {
            for (Entry e : open) {
                pool.execute(() -> {
                    synchronized (e) {
                        if (e.retired || e.engine == null) {
                            return;
                        }
                        boolean flush = e.engine.memtableBytes() >= shutdownFlushMinBytes && System.nanoTime() < flushUntil;
                        try {
                            retire(e, flush);
                            closedCount.incrementAndGet();
                            if (flush) {
                                flushed.incrementAndGet();
                            }
                        } catch (RuntimeException ex) {
                            // nothing acknowledged is lost: the WAL is the record; the next open replays it
                            log.warn("closing a namespace engine at shutdown failed [namespace={}]", e.id, ex);
                        }
                    }
                });
            }
        }
        log.info("engine registry closed [engines={}, flushed={}, took={} ms]", closedCount.get(), flushed.get(),
                (System.nanoTime() - start) / 1_000_000);
    }

    /**
     * Under the entry's lock: flush (if asked), close, and only then forget the entry — an acquire
     * meanwhile finds this entry, waits for its lock, sees it retired and opens a new engine once
     * the old one has released the directory's LOCK.
     */
    private void retire(Entry e, boolean flush) {
        assert Thread.holdsLock(e);
        Chronix c = e.engine;
        e.retired = true;
        e.engine = null;
        try {
            close(e, c, flush);
        } finally {
            entries.remove(e.id, e);
        }
    }

    private void close(Entry e, Chronix c, boolean flush) {
        if (c == null) {
            return;
        }
        if (c.syncFailure().isPresent()) {
            // never flush an engine whose fsync failed; cut its WAL and catalog back so the next open
            // (here or after a restart) replays only what was synced
            if (!c.prepareReopenAfterSyncFailure()) {
                log.error("closing a namespace engine whose fsync failed without cutting its WAL back to what was synced: the device "
                        + "still fails. Before the namespace is opened again, run chronix-tool wal verify on it [namespace={}]", e.id);
            }
        } else if (flush) {
            try {
                c.flush();
            } catch (RuntimeException ex) {
                // nothing lost: the WAL holds what the memtables did, replayed at the next open
                log.warn("flush before closing an engine failed; the next open replays its WAL [namespace={}]", e.id, ex);
            }
        }
        closedWalTotals.add(c.walMetrics());
        Chronix.CacheStats cs = c.cacheStats();
        closedLastValueHits.add(cs.lastValueHits());
        closedLastValueMisses.add(cs.lastValueMisses());
        closedBackpressureNanos.add(c.backpressureTotalDelay().toNanos());
        c.close();
    }

    private static final class Entry {
        final long id;
        volatile Chronix engine; // written under this; read without the lock by the views
        volatile Namespace namespace; // the record the engine was opened with
        int users;           // guarded by this
        long lastUsed;       // guarded by this
        boolean retired;     // guarded by this

        Entry(long id) {
            this.id = id;
        }

        /** Ends a maintenance hold: like {@link #release} but the engine's idle clock is not reset. */
        synchronized void releaseQuietly() {
            users--;
            assert users >= 0 : "lease released twice";
            if (users == 0) {
                notifyAll();
            }
        }

        synchronized void release(long now) {
            users--;
            assert users >= 0 : "lease released twice";
            lastUsed = now;
            if (users == 0) {
                notifyAll();
            }
        }
    }

    /** Sums of {@link WalMetrics} counters. */
    public static final class WalTotals {
        private final AtomicLong truncations = new AtomicLong();
        private final AtomicLong syncs = new AtomicLong();
        private final AtomicLong records = new AtomicLong();
        private final AtomicLong bytes = new AtomicLong();
        private final AtomicLong failedSyncs = new AtomicLong();

        void add(WalMetrics m) {
            truncations.addAndGet(m.truncations());
            syncs.addAndGet(m.syncs());
            records.addAndGet(m.records());
            bytes.addAndGet(m.bytes());
            failedSyncs.addAndGet(m.failedSyncs());
        }

        Snapshot snapshot() {
            return new Snapshot(truncations.get(), syncs.get(), records.get(), bytes.get(), failedSyncs.get());
        }

        /** @param truncations torn WAL tails cut off at recovery, summed over the process */
        public record Snapshot(long truncations, long syncs, long records, long bytes, long failedSyncs) {
            Snapshot plus(WalMetrics m) {
                return new Snapshot(truncations + m.truncations(), syncs + m.syncs(), records + m.records(),
                        bytes + m.bytes(), failedSyncs + m.failedSyncs());
            }
        }
    }

    /** For tests: how long the idle timeout is. */
    Duration idleTimeout() {
        return defaults.idleTimeout();
    }
}
