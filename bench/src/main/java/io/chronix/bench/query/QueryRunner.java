package io.chronix.bench.query;

import io.chronix.bench.peer.ThreadCpu;
import io.chronix.bench.query.dialect.QueryDialect;
import io.chronix.bench.query.dialect.QueryFailedException;

import java.io.IOException;
import java.io.PrintStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Runs each query kind {@code warmup} times untimed and {@code runs} times timed against one target,
 * cycling through the kind's drawn instances, one query at a time (TSBS's single-worker latency
 * figure). Every answer, warm-up included, is checked against the reference; parsing and checking
 * happen outside the timed span, which covers sending the request and reading the whole answer.
 * Where the target's process is known, its CPU time over each kind's timed runs is reported too:
 * per query, it is what the server spent, whatever the client and the machine's other load did to
 * the wall-clock figure.
 */
public final class QueryRunner {
    private final QueryDialect dialect;
    private final int warmup;
    private final int runs;
    private final boolean keepGoing;
    private final LongSupplier serverCpuNanos;
    private int clientWarmUp;
    private Supplier<Map<String, Long>> serverThreads = Map::of;
    private java.time.Duration warmupTime;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    /**
     * @param keepGoing after a failed query, go on with the next kind (the report marks the failure);
     *                  otherwise the first failure ends the run
     */
    public QueryRunner(QueryDialect dialect, int warmup, int runs, boolean keepGoing) {
        this(dialect, warmup, runs, keepGoing, () -> -1);
    }

    /**
     * @param serverCpuNanos the target process's CPU time so far, or -1 when unknown (then no CPU
     *                       figure is reported)
     */
    public QueryRunner(QueryDialect dialect, int warmup, int runs, boolean keepGoing, LongSupplier serverCpuNanos) {
        if (runs < 1) {
            throw new IllegalArgumentException("runs must be at least 1 [runs=" + runs + "]");
        }
        this.dialect = dialect;
        this.warmup = warmup;
        this.runs = runs;
        this.keepGoing = keepGoing;
        this.serverCpuNanos = serverCpuNanos;
    }

    /**
     * Before the first timed target of this process, send {@code requests} requests of the plan's
     * shapes to a local server ({@link ClientWarmUp}); 0 leaves the client cold.
     */
    public QueryRunner clientWarmUp(int requests) {
        if (requests < 0) {
            throw new IllegalArgumentException("client warm-up must not be negative [requests=" + requests + "]");
        }
        this.clientWarmUp = requests;
        return this;
    }

    /**
     * Ends each kind's warm-up after {@code time} even if fewer than {@code warmup} queries ran, so
     * that a large {@code warmup} (a steady-state figure for the fast kinds) does not run for long
     * on the slow ones; {@code null}: no limit.
     */
    public QueryRunner warmupTime(java.time.Duration time) {
        if (time != null && time.isNegative()) {
            throw new IllegalArgumentException("warm-up time must not be negative [time=" + time + "]");
        }
        this.warmupTime = time;
        return this;
    }

    /**
     * The target process's CPU by kind of thread ({@link ThreadCpu}), read at
     * the first and the last timed run of each kind, so the report shows how much of the server's
     * CPU per query its JIT compilers took; empty where it is not known.
     */
    public QueryRunner serverThreads(Supplier<Map<String, Long>> threads) {
        this.serverThreads = threads;
        return this;
    }

    public List<QueryStats> run(List<QueryInstance> instances, Map<QueryInstance, ResultTable> reference)
            throws InterruptedException {
        warmUpClient(instances);
        List<QueryStats> out = new ArrayList<>();
        for (Map.Entry<QueryKind, List<QueryInstance>> e : byKind(instances).entrySet()) {
            KindRun run = new KindRun(e.getKey(), e.getValue(), reference);
            for (int i = 0; run.step(i); i++) {
                // next query
            }
            out.add(run.finish());
        }
        return out;
    }

    /**
     * The same plan on several targets at once, paired: each kind's {@code i}-th query goes to every
     * target before the {@code (i+1)}-th goes to any, the first of them taking turns. On a shared
     * machine whose speed drifts over seconds, every target's median then covers the same moments,
     * where running the targets one after the other gives each its own stretch of the drift.
     *
     * @return each runner's figures, in the order of {@code runners}
     */
    public static List<List<QueryStats>> interleave(List<QueryRunner> runners, List<QueryInstance> instances,
                                                    Map<QueryInstance, ResultTable> reference) throws InterruptedException {
        for (QueryRunner r : runners) {
            r.warmUpClient(instances);
        }
        List<List<QueryStats>> out = new ArrayList<>();
        for (int t = 0; t < runners.size(); t++) {
            out.add(new ArrayList<>());
        }
        for (Map.Entry<QueryKind, List<QueryInstance>> e : byKind(instances).entrySet()) {
            List<QueryRunner.KindRun> runs = new ArrayList<>();
            for (QueryRunner r : runners) {
                runs.add(r.new KindRun(e.getKey(), e.getValue(), reference));
            }
            boolean[] done = new boolean[runs.size()];
            int live = runs.size();
            for (int i = 0; live > 0; i++) {
                for (int k = 0; k < runs.size(); k++) {
                    int t = (i + k) % runs.size();
                    if (!done[t] && !runs.get(t).step(i)) {
                        done[t] = true;
                        live--;
                    }
                }
            }
            for (int t = 0; t < runs.size(); t++) {
                out.get(t).add(runs.get(t).finish());
            }
        }
        return out;
    }

    private void warmUpClient(List<QueryInstance> instances) throws InterruptedException {
        try {
            long took = ClientWarmUp.run(client, () -> instances.stream().map(q -> dialect.request(dialect.render(q))).toList(),
                    clientWarmUp);
            if (took > 0) {
                System.err.printf(Locale.ROOT, "client warmed up: %,d requests to a local server in %.1f s%n", clientWarmUp,
                        took / 1e9);
            }
        } catch (IOException e) {
            throw new QueryFailedException("client warm-up failed: " + e.getMessage());
        }
    }

    private static Map<QueryKind, List<QueryInstance>> byKind(List<QueryInstance> instances) {
        Map<QueryKind, List<QueryInstance>> byKind = new LinkedHashMap<>();
        for (QueryInstance q : instances) {
            byKind.computeIfAbsent(q.kind(), k -> new ArrayList<>()).add(q);
        }
        return byKind;
    }

    /** One kind's warm-up and timed runs against this runner's target, one query per {@link #step}. */
    private final class KindRun {
        private final QueryKind kind;
        private final List<QueryInstance> instances;
        private final Map<QueryInstance, ResultTable> reference;
        private final long[] samples = new long[runs];
        private final long warmupEnds;
        private int warmup = QueryRunner.this.warmup;
        private int rows;
        private long cpuTimed;
        private boolean cpuKnown = true;
        private Map<String, Long> threadsBefore = Map.of();
        private String error;

        KindRun(QueryKind kind, List<QueryInstance> instances, Map<QueryInstance, ResultTable> reference) {
            this.kind = kind;
            this.instances = instances;
            this.reference = reference;
            this.warmupEnds = warmupTime == null ? Long.MAX_VALUE : System.nanoTime() + warmupTime.toNanos();
        }

        /**
         * Runs query {@code i} (0-based over warm-up and timed runs); false, running nothing, once
         * the kind is over (all its runs done, or one failed).
         */
        boolean step(int i) {
            if (error != null) {
                return false;
            }
            if (i < warmup && System.nanoTime() >= warmupEnds) {
                warmup = i; // the warm-up's time is up: the timed runs start with this query
            }
            if (i == warmup) {
                threadsBefore = serverThreads.get();
            }
            if (i >= warmup + runs) {
                return false;
            }
            QueryInstance q = instances.get(i % instances.size());
            String text = dialect.render(q);
            HttpRequest request = dialect.request(text);
            try {
                long c0 = i >= warmup ? serverCpuNanos.getAsLong() : -1;
                long t0 = System.nanoTime();
                HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
                long elapsed = System.nanoTime() - t0;
                if (i >= warmup) {
                    long c1 = serverCpuNanos.getAsLong();
                    if (c0 < 0 || c1 < 0) {
                        cpuKnown = false;
                    } else {
                        cpuTimed += c1 - c0;
                    }
                }
                if (response.statusCode() / 100 != 2) {
                    throw new QueryFailedException(dialect.name() + " answered " + response.statusCode() + ": "
                            + abbreviate(response.body()));
                }
                ResultTable answer = dialect.parse(response.body());
                AnswerChecker.check(dialect.name() + " " + q.describe(), reference.get(q), answer,
                        dialect.ordersRows(kind));
                rows = answer.size();
                if (i >= warmup) {
                    samples[i - warmup] = elapsed;
                }
                return true;
            } catch (IOException | RuntimeException ex) {
                String why = ex.getMessage() + " [query=" + text + "]";
                if (!keepGoing) {
                    throw new QueryFailedException(kind.label() + " failed: " + why);
                }
                error = why;
                return false;
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new QueryFailedException(kind.label() + " interrupted [query=" + text + "]");
            }
        }

        QueryStats finish() {
            if (error != null) {
                return new QueryStats(kind, new long[0], 0, error);
            }
            return new QueryStats(kind, samples, rows, null, cpuKnown ? cpuTimed : -1, jitBetween(threadsBefore, serverThreads.get()));
        }
    }

    /** JIT CPU nanoseconds between two readings, or -1 if either is unknown. */
    static long jitBetween(Map<String, Long> before, Map<String, Long> after) {
        Long b = before.get(ThreadCpu.JIT);
        Long a = after.get(ThreadCpu.JIT);
        return a == null || b == null ? -1 : a - b;
    }

    private static String millis(long nanos) {
        return nanos < 0 ? "-" : String.format(Locale.ROOT, "%.2f", nanos / 1e6);
    }

    private static String abbreviate(String s) {
        return s.length() <= 500 ? s : s.substring(0, 500) + "...";
    }

    /**
     * One line per query: median, p90, min, max in milliseconds, rows, the server's CPU per query and
     * the part of it its JIT compilers took; failures with their reason.
     */
    public static void print(String target, List<QueryStats> stats, PrintStream out) {
        out.printf(Locale.ROOT, "%-24s %10s %10s %10s %10s %8s %12s %8s  (%s, ms)%n", "query", "median", "p90", "min", "max",
                "rows", "server cpu/q", "jit/q", target);
        for (QueryStats s : stats) {
            if (s.failed()) {
                out.printf(Locale.ROOT, "%-24s FAILED: %s%n", s.kind().label(), s.error());
            } else {
                out.printf(Locale.ROOT, "%-24s %10.2f %10.2f %10.2f %10.2f %8d %12s %8s%n", s.kind().label(),
                        s.median() / 1e6, s.p90() / 1e6, s.min() / 1e6, s.max() / 1e6, s.rows(),
                        millis(s.serverCpuPerRun()), millis(s.serverJitPerRun()));
            }
        }
    }
}
