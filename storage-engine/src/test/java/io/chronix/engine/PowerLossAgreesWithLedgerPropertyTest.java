package io.chronix.engine;

import io.chronix.engine.cache.BlockCache;
import io.chronix.engine.io.SimulatedFileIO;
import io.chronix.engine.io.SimulatedFileIO.PowerLoss;
import io.chronix.engine.model.PointBatch;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.tool.WalReplayCheck;
import io.chronix.engine.wal.FsyncPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Power losses at random moments of random concurrent workloads, in process, on the in-memory
 * {@link SimulatedFileIO}: after each, the namespace opens, its WAL holds every record after the
 * declarations it needs, and every series holds exactly what the acknowledgement ledger allows.
 *
 * <p>A cycle: open (recovering from the last loss) → check → two to four writer threads, each
 * writing batches to its own series (tag {@code w}) of measurements and fields that all writers
 * draw from shared pools and keep adding to — so new measurements and fields race — and now and
 * then deleting a time range of its own series; meanwhile a maintenance thread flushes and
 * compacts → at a random moment (after a random number of acknowledgements, then a random pause)
 * the power goes ({@link SimulatedFileIO#halt}): every change fails from then on → the threads stop,
 * the engine is dropped ({@link Chronix#crashForTest}) → the unsynced bytes are dropped, kept, torn
 * or garbled ({@link SimulatedFileIO#powerLoss}). Namespaces are replaced now and then, so first
 * writes on fresh engines recur.
 *
 * <p>The ledger: a writer's operations are ordered (its series are its own), so after a loss its
 * series must equal the result of every operation it saw acknowledged — or that plus the one it
 * had in flight, which may or may not have become durable, but whole or not at all. Anything else
 * is a lost acknowledged point, a resurrected deleted one, or a torn batch. Acknowledged means
 * durable under the policies used ({@code PER_BATCH}, {@code PER_WRITE}).
 *
 * <p>{@code -Dchronix.powerloss.cycles} (default 200; the {@code powerloss-soak} profile runs
 * 1,000); seeded, the seed is printed ({@code -Dchronix.test.seed=N} reruns its choices, though the
 * threads' interleaving is the scheduler's).
 */
class PowerLossAgreesWithLedgerPropertyTest {

    private static final long SHARD = Duration.ofSeconds(10).toNanos();
    private static final String[] TYPES = {"f", "i", "s", "b"};

    @TempDir
    Path tmp;
    final EngineFixture fx = new EngineFixture();

    @AfterEach
    void tearDown() {
        fx.close();
    }

    /** What the test counted; printed at the end, and its guards check the faults really fired. */
    private static final class Stats {
        long cycles;
        long namespaces;
        final AtomicLong acknowledgedWrites = new AtomicLong();
        final AtomicLong acknowledgedPoints = new AtomicLong();
        final AtomicLong acknowledgedDeletes = new AtomicLong();
        final AtomicLong flushes = new AtomicLong();
        final AtomicLong compactions = new AtomicLong();
        long inFlightKept;
        long inFlightDropped;
        long inFlightNoEffect;
        long valuesChecked;
        long lost;
        long resurrected;
        long tornTails;
        final long[] modes = new long[PowerLoss.values().length];
    }

    /** One namespace: its simulated disk, its directory (real, for the LOCK file) and what its writers were told. */
    private final class Namespace {
        final Path dir;
        final SimulatedFileIO io = new SimulatedFileIO();
        final FsyncPolicy policy;
        final long flushThreshold;
        final long walMaxFileSize;
        final int compactionTrigger;
        final CopyOnWriteArrayList<String> measurements = new CopyOnWriteArrayList<>();
        final CopyOnWriteArrayList<String> fields = new CopyOnWriteArrayList<>();
        final AtomicInteger names = new AtomicInteger();
        /** writer → series ("measurement|host=..|w=..") → time → field → rendered value; acknowledged operations only. */
        final Map<Integer, TreeMap<String, TreeMap<Long, TreeMap<String, String>>>> ledger = new TreeMap<>();
        /** writer → the operation it had in flight at the loss (null: none). */
        final Map<Integer, Op> inFlight = new TreeMap<>();

        Namespace(Random rnd) throws Exception {
            dir = Files.createTempDirectory(tmp, "ns");
            policy = rnd.nextInt(4) == 0 ? FsyncPolicy.PER_WRITE : FsyncPolicy.PER_BATCH;
            flushThreshold = 4096L << rnd.nextInt(5);
            walMaxFileSize = 2048L << rnd.nextInt(5);
            compactionTrigger = 2 + rnd.nextInt(3);
            measurements.add("m0");
            fields.add("f0f");
        }

        EngineConfig config() {
            // a new block cache per open, as a new process has: segment names repeat across a loss under the fixed clock
            return EngineFixture.config().withIo(io).withFsyncPolicy(policy).withShardDuration(Duration.ofNanos(SHARD))
                    .withOooToleranceShards(1000).withFlushThresholdBytes(flushThreshold).withWalMaxFileSize(walMaxFileSize)
                    .withCompactionTrigger(compactionTrigger).withMaintenanceInterval(Duration.ZERO)
                    .withBlockCache(BlockCache.create(4 << 20));
        }

        TreeMap<String, TreeMap<Long, TreeMap<String, String>>> ledger(int writer) {
            return ledger.computeIfAbsent(writer, k -> new TreeMap<>());
        }
    }

    /** A writer's operation: a batch of points, or a delete of a time range of its series in one measurement. */
    private sealed interface Op {
        void applyTo(TreeMap<String, TreeMap<Long, TreeMap<String, String>>> series);
    }

    private record Write(PointBatch batch, List<String> seriesKeys, List<Long> times, List<TreeMap<String, String>> values)
            implements Op {
        @Override
        public void applyTo(TreeMap<String, TreeMap<Long, TreeMap<String, String>>> series) {
            for (int p = 0; p < seriesKeys.size(); p++) {
                series.computeIfAbsent(seriesKeys.get(p), k -> new TreeMap<>()).computeIfAbsent(times.get(p), k -> new TreeMap<>())
                        .putAll(values.get(p));
            }
        }
    }

    private record Delete(String measurement, String writerTag, long from, long to) implements Op {
        @Override
        public void applyTo(TreeMap<String, TreeMap<Long, TreeMap<String, String>>> series) {
            for (var e : series.entrySet()) {
                if (e.getKey().startsWith(measurement + "|")) {
                    e.getValue().subMap(from, true, to, true).clear();
                }
            }
            series.values().removeIf(Map::isEmpty);
        }
    }

    @Test
    void everyAcknowledgedWriteAndDeleteSurvivesPowerLossesAtRandomMoments() throws Exception {
        int cycles = Integer.getInteger("chronix.powerloss.cycles", 200);
        String fixed = System.getProperty("chronix.test.seed");
        long seed = fixed != null ? Long.parseLong(fixed) : new Random().nextLong();
        System.out.println("PowerLossAgreesWithLedgerPropertyTest seed=" + seed + " cycles=" + cycles);
        Random rnd = new Random(seed);
        Stats stats = new Stats();
        long start = System.nanoTime();
        Namespace ns = null;
        for (int cycle = 0; cycle < cycles; cycle++) {
            if (ns == null || rnd.nextInt(8) == 0) {
                ns = new Namespace(rnd);
                stats.namespaces++;
            }
            try {
                runCycle(ns, rnd, stats);
            } catch (Throwable e) {
                throw new AssertionError("cycle " + cycle + " failed; rerun with -Dchronix.test.seed=" + seed, e);
            }
            stats.cycles++;
        }
        reopen(ns, stats).close();
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        System.out.printf("power loss: %d cycles over %d namespaces in %d ms; acknowledged: %d writes (%d points), %d deletes;"
                        + " in flight at the loss: %d kept whole, %d dropped whole, %d either; acknowledged values checked after the"
                        + " losses: %d, lost=%d resurrected=%d; torn WAL tails cut: %d;"
                        + " flushes %d, compactions %d; losses DROP/KEEP/TEAR/GARBLE %d/%d/%d/%d%n",
                stats.cycles, stats.namespaces, millis, stats.acknowledgedWrites.get(), stats.acknowledgedPoints.get(),
                stats.acknowledgedDeletes.get(), stats.inFlightKept, stats.inFlightDropped, stats.inFlightNoEffect,
                stats.valuesChecked, stats.lost, stats.resurrected, stats.tornTails, stats.flushes.get(), stats.compactions.get(),
                stats.modes[0], stats.modes[1], stats.modes[2], stats.modes[3]);
        assertThat(stats.acknowledgedPoints.get()).isPositive();
        if (cycles < 100) {
            return; // a short run (a rerun of one seed) may not meet every case below
        }
        // the test tested something: losses hit operations in flight, both ways, and maintenance ran
        assertThat(stats.inFlightKept).as("a loss kept an operation in flight").isPositive();
        assertThat(stats.inFlightDropped).as("a loss dropped an operation in flight").isPositive();
        assertThat(stats.acknowledgedDeletes.get()).isPositive();
        assertThat(stats.flushes.get()).isPositive();
        assertThat(stats.compactions.get()).isPositive();
    }

    /** Checks the log the last loss left, opens the namespace and checks its series against the ledger. */
    private Chronix reopen(Namespace ns, Stats stats) {
        // every record after the declarations it needs, and nothing replay refuses
        if (ns.io.exists(ns.dir.resolve(DataDirectory.WAL))) {
            WalReplayCheck.Result order = WalReplayCheck.check(ns.io, ns.dir.resolve(DataDirectory.WAL));
            assertThat(order.findings()).as("the WAL left by the loss").isEmpty();
        }
        Chronix c = fx.open(ns.dir, ns.config());
        stats.tornTails += c.walMetrics().truncations();
        check(c, ns, stats);
        return c;
    }

    private void runCycle(Namespace ns, Random rnd, Stats stats) throws Exception {
        Chronix c = reopen(ns, stats);
        // an fsync that takes a moment, as a device's does: writers then spend their time appended and
        // waiting for it, which is where a loss finds most operations in flight
        ns.io.syncHook(() -> LockSupport.parkNanos(50_000));

        int writers = 2 + rnd.nextInt(3);
        AtomicInteger acks = new AtomicInteger();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        AtomicInteger running = new AtomicInteger(writers + 1);
        List<Thread> threads = new ArrayList<>();
        int budget = 0;
        for (int w = 0; w < writers; w++) {
            int writer = w;
            int ops = 2 + rnd.nextInt(16);
            budget += ops;
            long writerSeed = rnd.nextLong();
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    write(c, ns, writer, ops, new Random(writerSeed), acks, stats, failures);
                } finally {
                    running.decrementAndGet();
                }
            }));
        }
        long maintenanceSeed = rnd.nextLong();
        threads.add(Thread.ofPlatform().start(() -> {
            try {
                maintain(c, ns, new Random(maintenanceSeed), stats, failures, running);
            } finally {
                running.decrementAndGet();
            }
        }));
        int haltAfter = rnd.nextInt(budget + 1);
        while (acks.get() < haltAfter && running.get() > 1) {
            LockSupport.parkNanos(20_000);
        }
        if (rnd.nextInt(4) > 0) {
            LockSupport.parkNanos(rnd.nextInt(1_000_000));
        }
        ns.io.halt();
        for (Thread t : threads) {
            t.join(60_000);
            assertThat(t.isAlive()).as("a thread still running a minute after the power went").isFalse();
        }
        assertThat(failures).as("failures before the power went").isEmpty();
        try {
            c.crashForTest();
        } catch (RuntimeException e) {
            // what the dead process would have failed to do
        }
        PowerLoss mode = PowerLoss.values()[rnd.nextInt(PowerLoss.values().length)];
        stats.modes[mode.ordinal()]++;
        ns.io.powerLoss(mode, rnd);
    }

    private void write(Chronix c, Namespace ns, int writer, int ops, Random rnd, AtomicInteger acks, Stats stats,
            ConcurrentLinkedQueue<Throwable> failures) {
        String writerTag = "w" + writer;
        for (int i = 0; i < ops && !ns.io.halted(); i++) {
            Op op = rnd.nextInt(10) == 0 ? randomDelete(ns, writerTag, rnd) : randomWrite(ns, writerTag, rnd);
            try {
                if (op instanceof Write w) {
                    c.write(w.batch());
                    stats.acknowledgedPoints.addAndGet(w.batch().size());
                    stats.acknowledgedWrites.incrementAndGet();
                } else {
                    Delete d = (Delete) op;
                    c.delete().measurement(d.measurement()).tag("w", d.writerTag()).range(d.from(), d.to()).execute();
                    stats.acknowledgedDeletes.incrementAndGet();
                }
            } catch (Throwable e) {
                if (ns.io.halted()) {
                    synchronized (ns) {
                        ns.inFlight.put(writer, op);
                    }
                } else {
                    failures.add(e);
                }
                return;
            }
            synchronized (ns) {
                op.applyTo(ns.ledger(writer));
            }
            acks.incrementAndGet();
        }
    }

    private Write randomWrite(Namespace ns, String writerTag, Random rnd) {
        PointBatch.Builder b = PointBatch.builder();
        List<String> keys = new ArrayList<>();
        List<Long> times = new ArrayList<>();
        List<TreeMap<String, String>> values = new ArrayList<>();
        int points = 1 + rnd.nextInt(6);
        for (int p = 0; p < points; p++) {
            String m = rnd.nextInt(40) == 0 ? newName(ns, ns.measurements, "m", "") : pick(ns.measurements, rnd);
            long ts = EngineFixture.T0 + rnd.nextInt(6) * (SHARD / 2) + rnd.nextInt(4); // few timestamps: overwrites
            b.beginPoint(m, ts);
            String host = rnd.nextInt(3) == 0 ? null : "h" + rnd.nextInt(3);
            if (host != null) {
                b.tag("host", host);
            }
            b.tag("w", writerTag);
            TreeMap<String, String> fields = new TreeMap<>();
            int n = 1 + rnd.nextInt(3);
            for (int f = 0; f < n; f++) {
                String name = rnd.nextInt(15) == 0 ? newName(ns, ns.fields, "f", TYPES[rnd.nextInt(TYPES.length)]) : pick(ns.fields, rnd);
                if (fields.containsKey(name)) {
                    continue;
                }
                fields.put(name, switch (name.charAt(name.length() - 1)) {
                    case 'f' -> {
                        double v = rnd.nextInt(1000) / 8.0;
                        b.floatField(name, v);
                        yield Double.toString(v);
                    }
                    case 'i' -> {
                        long v = rnd.nextInt(2000) - 1000;
                        b.integerField(name, v);
                        yield v + "i";
                    }
                    case 's' -> {
                        String v = "s" + rnd.nextInt(100);
                        b.stringField(name, v);
                        yield "\"" + v + "\"";
                    }
                    default -> {
                        boolean v = rnd.nextBoolean();
                        b.booleanField(name, v);
                        yield Boolean.toString(v);
                    }
                });
            }
            b.endPoint();
            keys.add(m + "|host=" + (host == null ? "<null>" : "\"" + host + "\"") + "|w=\"" + writerTag + "\"");
            times.add(ts);
            values.add(fields);
        }
        return new Write(b.build(), keys, times, values);
    }

    private Delete randomDelete(Namespace ns, String writerTag, Random rnd) {
        long from = EngineFixture.T0 + rnd.nextInt(6) * (SHARD / 2);
        return new Delete(pick(ns.measurements, rnd), writerTag, from, from + rnd.nextInt(3) * (SHARD / 2) + 3);
    }

    private static String pick(List<String> names, Random rnd) {
        return names.get(rnd.nextInt(names.size()));
    }

    /** A name no writer has used yet in this namespace: racing first writes of it are what the rule is about. */
    private static String newName(Namespace ns, List<String> pool, String prefix, String suffix) {
        String name = prefix + ns.names.incrementAndGet() + suffix;
        pool.add(name);
        return name;
    }

    private void maintain(Chronix c, Namespace ns, Random rnd, Stats stats, ConcurrentLinkedQueue<Throwable> failures,
            AtomicInteger running) {
        while (!ns.io.halted() && running.get() > 1) {
            try {
                switch (rnd.nextInt(4)) {
                    case 0 -> {
                        c.flush();
                        stats.flushes.incrementAndGet();
                    }
                    case 1 -> {
                        if (c.compact().groups() > 0) {
                            stats.compactions.incrementAndGet();
                        }
                    }
                    default -> LockSupport.parkNanos(rnd.nextInt(200_000));
                }
            } catch (Throwable e) {
                if (!ns.io.halted()) {
                    failures.add(e);
                }
                return;
            }
        }
    }

    /**
     * Each writer's series must be its acknowledged state, or that plus its operation in flight;
     * the ledger then takes what was found, for the next cycle.
     */
    private void check(Chronix c, Namespace ns, Stats stats) {
        Map<Integer, TreeMap<String, TreeMap<Long, TreeMap<String, String>>>> found = stored(c, ns);
        Set<Integer> writers = new HashSet<>(found.keySet());
        writers.addAll(ns.ledger.keySet());
        for (int w : writers) {
            TreeMap<String, TreeMap<Long, TreeMap<String, String>>> without = ns.ledger(w);
            Op op = ns.inFlight.remove(w);
            TreeMap<String, TreeMap<Long, TreeMap<String, String>>> with = deepCopy(without);
            if (op != null) {
                op.applyTo(with);
            }
            TreeMap<String, TreeMap<Long, TreeMap<String, String>>> actual = found.getOrDefault(w, new TreeMap<>());
            stats.valuesChecked += values(without);
            if (actual.equals(without) && actual.equals(with)) {
                stats.inFlightNoEffect += op == null ? 0 : 1; // e.g. a delete of nothing: kept or dropped, no telling
            } else if (actual.equals(without)) {
                stats.inFlightDropped++;
            } else if (actual.equals(with)) {
                stats.inFlightKept++;
                ns.ledger.put(w, with);
            } else {
                long lost = missing(without, actual, with);
                long resurrected = missing(actual, with, without);
                stats.lost += lost;
                stats.resurrected += resurrected;
                assertThat(actual).as("writer w%d's series (in flight: %s): %d acknowledged values lost, %d values not written or "
                        + "deleted; expected the acknowledged state or it with the operation in flight applied", w, op, lost,
                        resurrected).isEqualTo(op == null ? without : with);
            }
        }
    }

    private static long values(TreeMap<String, TreeMap<Long, TreeMap<String, String>>> series) {
        return series.values().stream().flatMap(rows -> rows.values().stream()).mapToLong(Map::size).sum();
    }

    /** Values of {@code expected} absent from {@code actual} and also from {@code alternative}. */
    private static long missing(TreeMap<String, TreeMap<Long, TreeMap<String, String>>> expected,
            TreeMap<String, TreeMap<Long, TreeMap<String, String>>> actual,
            TreeMap<String, TreeMap<Long, TreeMap<String, String>>> alternative) {
        long n = 0;
        for (var s : expected.entrySet()) {
            for (var t : s.getValue().entrySet()) {
                for (var f : t.getValue().entrySet()) {
                    if (!f.getValue().equals(value(actual, s.getKey(), t.getKey(), f.getKey()))
                            && !f.getValue().equals(value(alternative, s.getKey(), t.getKey(), f.getKey()))) {
                        n++;
                    }
                }
            }
        }
        return n;
    }

    private static String value(TreeMap<String, TreeMap<Long, TreeMap<String, String>>> m, String series, long t, String field) {
        var s = m.get(series);
        var row = s == null ? null : s.get(t);
        return row == null ? null : row.get(field);
    }

    private static TreeMap<String, TreeMap<Long, TreeMap<String, String>>> deepCopy(
            TreeMap<String, TreeMap<Long, TreeMap<String, String>>> m) {
        TreeMap<String, TreeMap<Long, TreeMap<String, String>>> copy = new TreeMap<>();
        m.forEach((s, rows) -> {
            TreeMap<Long, TreeMap<String, String>> r = new TreeMap<>();
            rows.forEach((t, fields) -> r.put(t, new TreeMap<>(fields)));
            copy.put(s, r);
        });
        return copy;
    }

    /** Every stored row, by writer (its tag {@code w}), series and time, with its non-null fields. */
    private Map<Integer, TreeMap<String, TreeMap<Long, TreeMap<String, String>>>> stored(Chronix c, Namespace ns) {
        Set<String> measurements = new java.util.TreeSet<>(c.measurements());
        measurements.addAll(ns.measurements);
        Map<Integer, TreeMap<String, TreeMap<Long, TreeMap<String, String>>>> out = new TreeMap<>();
        for (String m : measurements) {
            for (String row : fx.rows(c, ScanRequest.all(m))) {
                long time = 0;
                String host = "<null>";
                String w = null;
                TreeMap<String, String> fields = new TreeMap<>();
                for (String cell : row.split("\\|")) {
                    int eq = cell.indexOf('=');
                    String col = cell.substring(0, eq);
                    String v = cell.substring(eq + 1);
                    switch (col) {
                        case "time" -> time = Long.parseLong(v);
                        case "host" -> host = v;
                        case "w" -> w = v;
                        default -> {
                            if (!v.equals("<null>")) {
                                fields.put(col, v);
                            }
                        }
                    }
                }
                assertThat(w).as("row %s of %s has a writer", row, m).isNotNull().isNotEqualTo("<null>");
                int writer = Integer.parseInt(w.substring(2, w.length() - 1));
                String key = m + "|host=" + host + "|w=" + w;
                assertThat(out.computeIfAbsent(writer, k -> new TreeMap<>()).computeIfAbsent(key, k -> new TreeMap<>())
                        .put(time, fields)).as("one row per series and time").isNull();
            }
        }
        return out;
    }
}
