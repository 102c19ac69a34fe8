package io.chronix.bench.e2e;

import io.chronix.bench.cli.Options;
import io.chronix.bench.generator.CpuOnlyConfig;
import io.chronix.bench.generator.GenerateCommand;
import io.chronix.bench.load.LoadCommand;
import io.chronix.bench.load.LoadConfig;
import io.chronix.bench.load.LoadGenerator;
import io.chronix.bench.load.LoadReport;
import io.chronix.bench.query.ClientWarmUp;
import io.chronix.bench.query.QueryCommand;
import io.chronix.bench.query.QueryInstance;
import io.chronix.bench.query.QueryKind;
import io.chronix.bench.query.QueryPlanner;
import io.chronix.bench.query.QueryRunner;
import io.chronix.bench.query.QueryStats;
import io.chronix.bench.query.ReferenceEvaluator;
import io.chronix.bench.query.ResultTable;

import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code bench e2e}: the whole comparison in one command. Generates the data set once, computes the
 * reference answers once, then for each target in turn: start it on a fresh directory, load the file,
 * wait until every row is visible, measure bytes on disk per field value, run the query set (every
 * answer checked), stop it. No target is asked to flush: the queries follow the load as a user's
 * would. Prints one table with each target's figures and the ratio of each
 * to the first target's.
 *
 * <pre>
 * --targets a,b,c       chronix, questdb, influxdb (default: all three, in that order)
 * --work DIR            working directory (default: a new temporary one; removed unless --keep-data)
 * --jar FILE            Chronix service jar (default api/target/chronix.jar)   --chronix-port N (18080)
 * --chronix-fsync P     the service's default fsync policy (PER_BATCH, PERIODIC, …; default: the service's own)
 * --chronix-jvm "ARGS"  options for the service's JVM, split at spaces (e.g. a -XX:StartFlightRecording=…);
 *                       they come after the heap options, so they win (-XX:-AlwaysPreTouch -Xms8m: a growing heap)
 * --heap SIZE           the heap of both JVM targets (default 4g), each started as its vendor deploys it:
 *                       Chronix fixed and pre-touched (-Xms = -Xmx, -XX:+AlwaysPreTouch; docs/operations.md),
 *                       QuestDB -Xmx with -XX:+AlwaysPreTouch (its own service unit)
 * --questdb-jar FILE    (default bench/target/peers/questdb.jar)  --questdb-port N (19000)  --questdb-fsync
 * --influxd PATH        (default influxd)  --influxdb-port N (18086)
 * --hosts/--duration/--start/--interval/--seed/--floats           the data set (default 100 hosts, 1d)
 * --batch N  --connections N  --gzip                               load options
 * --queries a,b  --instances N  --warmup N  --runs K  --query-seed S   query options
 * --warmup-time D       end a kind's warm-up after D even if fewer than --warmup queries ran (default: no
 *                       limit), so a large --warmup for steady-state figures stays short on slow kinds
 * --client-warmup N     before the first target's queries, N requests of the plan's shapes to a local
 *                       server compile this runner's own HTTP client (default 5000; 0: none), so the
 *                       target timed first does not pay for a colder client than the others
 * --settle D            wait this long after the load before the queries, every target alike (default 0s):
 *                       TSBS loads and queries in separate runs, so a server's work left from the load
 *                       (compilation, compaction, applying its WAL) is done before its queries
 * --load-only           load, check the row count and measure bytes; no reference answers, no queries
 * --keep-going          report a target that fails and go on with the next
 * --interleave          load every target first (each left running), then send each query to every target in
 *                       turn (QueryRunner#interleave): on a shared machine whose speed drifts, the targets'
 *                       medians cover the same moments instead of one stretch each
 * </pre>
 */
public final class EndToEndCommand {
    private EndToEndCommand() {
    }

    /** One target's outcome; {@code error} set when it did not finish. */
    record Outcome(String target, String durability, LoadReport load, long serverCpuNanos, String loadAverage, long bytes,
                   long bytesAtRest, List<QueryStats> queries, String error) {
    }

    public static void run(Options o) throws Exception {
        CpuOnlyConfig data = GenerateCommand.config(o);
        List<String> targetNames = o.list("targets", List.of("chronix", "questdb", "influxdb"));
        boolean keepData = o.flag("keep-data");
        Path work = o.has("work") ? Path.of(o.required("work")) : Files.createTempDirectory("chronix-e2e-");
        Files.createDirectories(work);
        Duration queryTimeout = o.duration("timeout", Duration.ofMinutes(2));
        Duration settle = o.duration("settle", Duration.ZERO);
        Path chronixJar = Path.of(o.string("jar", "api/target/chronix.jar"));
        int chronixPort = o.integer("chronix-port", 18080);
        Path questDbJar = Path.of(o.string("questdb-jar", "bench/target/peers/questdb.jar"));
        int questDbPort = o.integer("questdb-port", 19000);
        boolean questDbFsync = o.flag("questdb-fsync");
        String influxd = o.string("influxd", "influxd");
        int influxPort = o.integer("influxdb-port", 18086);
        int batch = o.integer("batch", LoadConfig.DEFAULT_BATCH_LINES);
        int connections = o.integer("connections", 2);
        boolean gzip = o.flag("gzip");
        List<QueryKind> kinds = QueryCommand.kinds(o);
        int instances = o.integer("instances", 3);
        int warmup = o.integer("warmup", 1);
        Duration warmupTime = o.duration("warmup-time", null);
        int clientWarmUp = o.integer("client-warmup", ClientWarmUp.DEFAULT_REQUESTS);
        int runs = o.integer("runs", 5);
        long querySeed = o.longValue("query-seed", 7);
        boolean keepGoing = o.flag("keep-going");
        boolean loadOnly = o.flag("load-only");
        boolean interleave = o.flag("interleave");
        String chronixFsync = o.has("chronix-fsync") ? o.required("chronix-fsync") : null;
        String heap = o.string("heap", "4g");
        List<String> chronixJvm = new ArrayList<>(ChronixTarget.heapOptions(heap));
        if (o.has("chronix-jvm")) {
            chronixJvm.addAll(List.of(o.required("chronix-jvm").strip().split("\\s+")));
        }
        o.rejectUnknown();

        PrintStream log = System.err;
        Path file = work.resolve("cpu-only.lp");
        long t0 = System.nanoTime();
        try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
            GenerateCommand.write(data, out);
        }
        log.printf("generated %,d rows (%d hosts, %s) into %s in %.1f s%n", data.rows(), data.hosts(), data.duration(),
                file, (System.nanoTime() - t0) / 1e9);
        List<QueryInstance> plan = loadOnly ? List.of() : new QueryPlanner(data, querySeed).plan(kinds, instances);
        Map<QueryInstance, ResultTable> reference = loadOnly ? Map.of() : ReferenceEvaluator.evaluate(data, plan);

        // one pass over the file without a target: warms the page cache and the batcher's JIT, so the
        // first target is not loaded by a colder client than the others
        try (InputStream in = LoadCommand.open(file)) {
            io.chronix.bench.load.LineBatcher dry = new io.chronix.bench.load.LineBatcher(in, batch);
            while (dry.next() != null) {
                // discard
            }
        }

        List<Outcome> outcomes = new ArrayList<>();
        List<Loaded> loaded = new ArrayList<>(); // --interleave: loaded targets, queried together below
        for (String name : targetNames) {
            Path dir = work.resolve(name);
            Target target = switch (name) {
                case "chronix" -> new ChronixTarget(chronixJar, dir.resolve("data"), chronixPort, queryTimeout, chronixJvm,
                        chronixFsync, List.of());
                case "questdb" -> new QuestDbTarget(questDbJar, dir, questDbPort, questDbFsync, heap, queryTimeout);
                case "influxdb" -> new InfluxDbTarget(influxd, dir, influxPort, data.startNanos(), queryTimeout);
                default -> throw new IllegalArgumentException("unknown target '" + name + "' (chronix, questdb, influxdb)");
            };
            log.println("== " + name + " (" + target.durability() + ")");
            boolean open = false;
            try {
                Loaded l = load(name, target, data, file, batch, connections, gzip, log);
                if (!loadOnly && settle.isPositive() && !interleave) {
                    Thread.sleep(settle);
                }
                if (interleave && !loadOnly) {
                    loaded.add(l);
                    open = true;
                    continue;
                }
                List<QueryStats> stats = loadOnly ? List.of() : runner(target, warmup, runs, keepGoing, clientWarmUp, warmupTime)
                        .run(plan, reference);
                if (!loadOnly) {
                    QueryRunner.print(name, stats, log);
                }
                outcomes.add(l.stop(stats));
            } catch (Exception e) {
                if (!keepGoing) {
                    throw new IllegalStateException(name + ": " + e.getMessage(), e);
                }
                log.println(name + " FAILED: " + e.getMessage());
                outcomes.add(new Outcome(name, target.durability(), null, -1, "", 0, 0, List.of(), e.getMessage()));
            } finally {
                if (!open) {
                    target.close();
                }
            }
        }
        if (!loaded.isEmpty()) {
            try {
                if (settle.isPositive()) {
                    Thread.sleep(settle);
                }
                List<QueryRunner> runners = new ArrayList<>();
                for (Loaded l : loaded) {
                    runners.add(runner(l.target(), warmup, runs, keepGoing, clientWarmUp, warmupTime));
                }
                List<List<QueryStats>> stats = QueryRunner.interleave(runners, plan, reference);
                for (int t = 0; t < loaded.size(); t++) {
                    QueryRunner.print(loaded.get(t).name(), stats.get(t), log);
                    outcomes.add(loaded.get(t).stop(stats.get(t)));
                }
            } finally {
                for (Loaded l : loaded) {
                    l.target().close();
                }
            }
        }
        print(data, loadOnly ? List.of() : kinds, outcomes, System.out);
        if (!keepData) {
            deleteTree(work);
        }
        if (outcomes.stream().anyMatch(x -> x.error() != null || x.queries().stream().anyMatch(QueryStats::failed))) {
            throw new IllegalStateException("some targets or queries failed (see above)");
        }
    }

    /** A target loaded and measured, still running. */
    private record Loaded(String name, Target target, LoadReport load, long serverCpu, String loadAverage, long bytes) {
        /** Stops the target (it closes its files: preallocated tails are cut, caches written out) and measures it at rest. */
        Outcome stop(List<QueryStats> stats) throws Exception {
            target.close();
            return new Outcome(name, target.durability(), load, serverCpu, loadAverage, bytes, target.bytesOnDisk(), stats, null);
        }
    }

    private static Loaded load(String name, Target target, CpuOnlyConfig data, Path file, int batch, int connections,
                               boolean gzip, PrintStream log) throws Exception {
        target.start();
        // after the start: the write URL and headers carry what the start set up (Chronix's token)
        LoadConfig lc = new LoadConfig(target.writeUrl(), target.writeHeaders(), batch, connections, gzip, Duration.ofMinutes(5));
        LoadReport load;
        String loadBefore = loadAverage();
        long cpu0 = target.cpuNanos();
        Map<String, Long> threads0 = target.threadCpuNanos();
        try (InputStream in = LoadCommand.open(file)) {
            load = new LoadGenerator(lc).run(in);
        }
        long cpu1 = target.cpuNanos();
        Map<String, Long> threads1 = target.threadCpuNanos();
        long serverCpu = cpu0 < 0 || cpu1 < 0 ? -1 : cpu1 - cpu0;
        String loadAvg = loadBefore + " → " + loadAverage();
        log.println(load.summary());
        log.printf(Locale.ROOT, "server cpu %.2f s over the load%s; load average %s%n", serverCpu / 1e9,
                byThread(threads0, threads1), loadAvg);
        target.awaitRows(data.rows());
        return new Loaded(name, target, load, serverCpu, loadAvg, target.bytesOnDisk());
    }

    private static QueryRunner runner(Target target, int warmup, int runs, boolean keepGoing, int clientWarmUp,
                                      Duration warmupTime) {
        return new QueryRunner(target.dialect(), warmup, runs, keepGoing, target::cpuNanos).serverThreads(target::threadCpuNanos)
                .clientWarmUp(clientWarmUp).warmupTime(warmupTime);
    }

    /** ", of which jit 1.23 s, gc 0.45 s, other 4.56 s" over a window; empty if unknown at either end. */
    static String byThread(Map<String, Long> before, Map<String, Long> after) {
        if (before.isEmpty() || after.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder(", of which");
        String sep = " ";
        for (Map.Entry<String, Long> e : after.entrySet()) {
            long d = e.getValue() - before.getOrDefault(e.getKey(), 0L);
            sb.append(String.format(Locale.ROOT, "%s%s %.2f s", sep, e.getKey(), d / 1e9));
            sep = ", ";
        }
        return sb.toString();
    }

    static void print(CpuOnlyConfig data, List<QueryKind> kinds, List<Outcome> outcomes, PrintStream out) {
        out.printf(Locale.ROOT, "%nend-to-end: %d hosts, %s, %,d rows, %,d values, %s fields, seed %d%n",
                data.hosts(), data.duration(), data.rows(), data.values(), data.integerFields() ? "integer" : "float",
                data.seed());
        Outcome base = outcomes.stream().filter(x -> x.error() == null).findFirst().orElse(null);
        for (Outcome x : outcomes) {
            out.printf(Locale.ROOT, "  %-9s durability: %s; load average during the load %s%s%n", x.target(), x.durability(),
                    x.loadAverage(), x.error() == null ? "" : "  FAILED: " + x.error());
        }
        out.printf(Locale.ROOT, "%-24s", "figure");
        for (Outcome x : outcomes) {
            out.printf(Locale.ROOT, " %14s", x.target());
        }
        if (base != null) {
            out.printf(Locale.ROOT, "   (ratios to %s)", base.target());
        }
        out.println();
        row(out, "load rows/s", outcomes, base, x -> x.load().rowsPerSecond(), "%,.0f");
        row(out, "load values/s", outcomes, base, x -> x.load().valuesPerSecond(), "%,.0f");
        row(out, "load MB/s", outcomes, base, x -> x.load().megabytesPerSecond(), "%.1f");
        row(out, "write p50 ms", outcomes, base, x -> x.load().p50Nanos() / 1e6, "%.2f");
        row(out, "write p99 ms", outcomes, base, x -> x.load().p99Nanos() / 1e6, "%.2f");
        row(out, "client cpu s", outcomes, base, x -> x.load().clientCpuNanos() / 1e9, "%.2f");
        row(out, "server cpu s", outcomes, base, x -> x.serverCpuNanos() < 0 ? Double.NaN : x.serverCpuNanos() / 1e9, "%.2f");
        row(out, "bytes/value, running", outcomes, base, x -> (double) x.bytes() / data.values(), "%.3f");
        row(out, "bytes/value, stopped", outcomes, base, x -> (double) x.bytesAtRest() / data.values(), "%.3f");
        for (QueryKind k : kinds) {
            row(out, k.label() + " ms", outcomes, base, x -> {
                QueryStats s = x.queries().stream().filter(q -> q.kind() == k).findFirst().orElse(null);
                return s == null || s.failed() ? Double.NaN : s.median() / 1e6;
            }, "%.2f");
        }
        for (QueryKind k : kinds) {
            row(out, k.label() + " cpu ms", outcomes, base, x -> {
                QueryStats s = x.queries().stream().filter(q -> q.kind() == k).findFirst().orElse(null);
                return s == null || s.failed() || s.serverCpuPerRun() < 0 ? Double.NaN : s.serverCpuPerRun() / 1e6;
            }, "%.2f");
        }
        for (QueryKind k : kinds) {
            row(out, k.label() + " jit ms", outcomes, base, x -> {
                QueryStats s = x.queries().stream().filter(q -> q.kind() == k).findFirst().orElse(null);
                return s == null || s.failed() || s.serverJitPerRun() < 0 ? Double.NaN : s.serverJitPerRun() / 1e6;
            }, "%.2f");
        }
        out.println("(query figures: median of the timed runs, then the server's CPU per timed run, all its threads, then"
                + " the part of it its JIT compiler threads took; every answer checked against the generator's reference)");
    }

    private interface Figure {
        double of(Outcome x);
    }

    private static void row(PrintStream out, String label, List<Outcome> outcomes, Outcome base, Figure figure, String format) {
        out.printf(Locale.ROOT, "%-24s", label);
        double b = base == null ? Double.NaN : figure.of(base);
        StringBuilder ratios = new StringBuilder();
        for (Outcome x : outcomes) {
            if (x.error() != null) {
                out.printf(Locale.ROOT, " %14s", "-");
                continue;
            }
            double v = figure.of(x);
            out.printf(Locale.ROOT, " %14s", Double.isNaN(v) ? "failed" : String.format(Locale.ROOT, format, v));
            if (x != base && !Double.isNaN(v) && !Double.isNaN(b) && b != 0) {
                ratios.append(String.format(Locale.ROOT, "  %s %.2fx", x.target(), v / b));
            }
        }
        out.println(ratios.length() == 0 ? "" : "  " + ratios.toString().strip());
    }

    /** The 1-, 5- and 15-minute load averages, as {@code /proc/loadavg} has them ("?" where there is none). */
    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).strip().split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (java.io.IOException | RuntimeException e) {
            return "?";
        }
    }

    private static void deleteTree(Path root) throws java.io.IOException {
        try (var paths = Files.walk(root)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
