package io.chronix.api.query;

import io.chronix.api.config.DataDirectory;
import io.chronix.api.engine.EngineProperties;
import io.chronix.engine.Chronix;
import io.chronix.engine.EngineConfig;
import io.chronix.engine.cache.BlockCache;
import io.chronix.engine.maintenance.MaintenanceScheduler;
import io.chronix.engine.model.PointBatch;
import io.chronix.engine.segment.SegmentWriterConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntFunction;

/**
 * Runs the query path before the service takes its first request, so that the first tenant
 * queries after a start or a restart are not the ones the JIT compiles it on. On a fresh JVM the
 * first few hundred queries cost several times what they cost later, most of it the compiler
 * threads competing with the queries for the cores (the decoders, the Arrow hand-over, DuckDB's
 * Java side and the result writers are all compiled on first use).
 *
 * <p>What it runs: a private engine in {@code <data>/warm-up} (never registered, so no tenant and
 * no namespace can reach it; removed before and after) holding a few hours of synthetic points of
 * one measurement, most of them flushed to segments and the newest in the memtable, then up to
 * {@code chronix.query.warm-up-queries} queries of the shapes dashboards send (bucketed aggregates
 * of one or a few series, aggregates grouped by bucket and tag, threshold filters, the newest row
 * per series, the top buckets, counts, and plain DuckDB joins and windows) through {@link
 * QueryService#execute}, every other one a one-series aggregate, one in four texts repeated from
 * a pool of {@value #POOL} per shape (a kept analysis, as a client repeating a query gets) and the
 * rest new (analysed: the analysis runs once per new text, and HotSpot compiles a method with C2
 * only after some thousands of calls, so new texts must be most of the warm-up's for it to get
 * there), answers written as JSON, CSV and
 * Arrow to streams of three classes and kept nowhere; a quarter of the hosts' timestamps are whole
 * seconds, the others carry milliseconds, microseconds or nanoseconds. The engine has a small block
 * cache of its own and is closed and opened again a few times early on, so that the cold paths
 * (blocks not cached, segments not open, the memtable replayed from the WAL) are in the profile the
 * JIT compiles from, not only the warm ones. It stops early at
 * {@code chronix.query.warm-up-time}. Its queries are counted in the query metrics under namespace
 * {@code warm-up}. It runs in {@link #start}: before the web server starts,
 * so until it is done the port does not answer. A failure is logged and startup goes on: the
 * warm-up only ever saves time.
 */
@Component
class QueryWarmUp extends StartupWarmUp {

    private static final Logger log = LoggerFactory.getLogger(QueryWarmUp.class);
    static final String NAMESPACE_TAG = "warm-up";
    private static final String MEASUREMENT = "machine";
    private static final int HOSTS = 40;
    private static final String[] FIELDS = {"user", "system", "idle", "nice", "iowait", "irq", "softirq", "steal", "guest", "requests"};
    /** The first fields are integers, the rest floats. */
    private static final int INTEGER_GAUGES = 5;
    private static final Duration STEP = Duration.ofSeconds(10);
    /** The warm-up engine's block cache: a fraction of its blocks, so queries both hit and miss. */
    private static final long BLOCK_CACHE_BYTES = 1L << 20;
    /**
     * Rows per row group of the warm-up's segments. A shard here holds 14,400 rows, one row group at
     * the default 65,536, where a namespace's shards hold several: with that one, the row-group
     * loops of the scan planner never ran a second pass, and their compiled code was thrown away
     * (JFR: {@code unstable_if} in {@code rowRangesOfMatchingSeries}) at a real query's first
     * segment of several row groups. 4,096 gives four per shard, with series across their
     * boundaries, as a namespace's are.
     */
    static final int ROW_GROUP_ROWS = 4_096;
    /** The engine is closed and opened again before these queries (see {@link #run}). */
    private static final java.util.Set<Integer> REOPEN_BEFORE = java.util.Set.of(100, 400, 1000, 2000);
    private static final Duration SPAN = Duration.ofHours(4);
    /** Each warm-up query's timeout, in process and over HTTP. */
    static final Duration QUERY_TIMEOUT = Duration.ofSeconds(30);
    /** Texts of each shape that repeat (see {@link #run}). */
    private static final int POOL = 40;
    private static final DateTimeFormatter PLAIN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);

    private final QueryService queries;
    private final DataDirectory data;
    private final EngineProperties engine;
    private final MaintenanceScheduler scheduler;
    private final QueryProperties properties;

    QueryWarmUp(QueryService queries, DataDirectory data, EngineProperties engine, MaintenanceScheduler scheduler,
                QueryProperties properties) {
        super(PHASE);
        this.queries = queries;
        this.data = data;
        this.engine = engine;
        this.scheduler = scheduler;
        this.properties = properties;
    }

    /**
     * Just before the web server's start ({@code WebServerStartStopLifecycle}'s phase, {@code
     * Integer.MAX_VALUE - 2048}): after every singleton is initialised, the meter binders too. Run
     * earlier (as a {@code SmartInitializingSingleton}, first), its compiled code was thrown away
     * when Micrometer then added its Logback turbo filter: every method that had inlined a logging
     * check, the JSON writer among them, was recompiled by the first real queries.
     */
    static final int PHASE = Integer.MAX_VALUE - 2048 - 1;

    @Override
    void warmUp() {
        if (properties.warmUpQueries() == 0 || properties.warmUpTime().isZero()) {
            return;
        }
        long started = System.nanoTime();
        try {
            Report r = run(properties.warmUpQueries(), properties.warmUpTime());
            log.info("query path warmed up [queries={}, rows={}, ms={}]", r.queries(), Arrays.stream(r.rowsByShape()).sum(),
                    (System.nanoTime() - started) / 1_000_000);
        } catch (IOException | RuntimeException e) {
            log.warn("query warm-up failed; the first queries compile the query path instead", e);
        }
    }

    /** What a warm-up ran: queries, and the rows answered by each shape (in {@link #shapes} order). */
    record Report(int queries, long[] rowsByShape) {
    }

    /** Runs up to {@code max} queries in process, or until {@code budget} has passed. */
    Report run(int max, Duration budget) throws IOException {
        return run(max, budget, this::inProcess);
    }

    /**
     * Where the warm-up's queries go: {@link #inProcess} straight to {@link QueryService#execute},
     * or over the service's own HTTP port ({@link HttpWarmUp}).
     */
    @FunctionalInterface
    interface Route {
        /** Opens the way to {@code engine} for one warm-up; closing it closes the way. */
        Queries open(NamespaceTables.Handle engine) throws IOException;
    }

    /** One warm-up's way to its engine. */
    interface Queries extends AutoCloseable {
        /**
         * Runs query number {@code n} and answers in {@code format}; returns the rows answered (in
         * process) or 1 for an answer (over HTTP, where the rows are not counted).
         */
        long execute(int n, String sql, ResultFormat format) throws IOException;

        /**
         * The shape (an index into {@link #shapes}) of query number {@code n}: by default every
         * other query the one-series aggregate — the shape dashboards send most, and the cheapest,
         * so the per-query path reaches the invocation counts the JIT optimises at — and the others
         * in turn between.
         */
        default int shape(int n, int shapes) {
            return n % 2 == 1 ? 0 : (n / 2) % shapes;
        }

        @Override
        default void close() {
        }
    }

    private Queries inProcess(NamespaceTables.Handle engine) {
        // answers go to streams of three classes in turn: code compiled for one class would be
        // thrown away when the first real response stream, of another, arrives
        ByteArrayOutputStream kept = new ByteArrayOutputStream();
        List<OutputStream> sinks = List.of(OutputStream.nullOutputStream(), kept, new BufferedOutputStream(OutputStream.nullOutputStream()));
        return (n, sql, format) -> {
            OutputStream sink = sinks.get(n % sinks.size());
            kept.reset();
            return queries.execute(NAMESPACE_TAG, NAMESPACE_TAG, QUERY_TIMEOUT, () -> engine, sql, (q, result) -> {
                // the scan header is built once per HTTP query: these queries build it twice more, so
                // that with the HTTP warm-up's it is called often enough to be compiled by C2 before
                // tenants come (it was compiled in their first second otherwise, 0.4 s of C2)
                for (int i = 0; i < 2; i++) {
                    QueryController.scanHeader(q.scans());
                }
                return format.write(result, sink);
            });
        };
    }

    /** Runs up to {@code max} queries by {@code route}, or until {@code budget} has passed. */
    Report run(int max, Duration budget, Route route) throws IOException {
        Path dir = data.warmUp();
        DataDirectory.deleteTree(dir);
        long deadline = System.nanoTime() + budget.toNanos();
        // its own small block cache: its queries miss as well as hit (code compiled on hits alone
        // is thrown away at a real query's first miss), and the namespaces' shared cache gets none
        // of its blocks
        EngineConfig config = engine.engineConfig().withCsxSegments(SegmentWriterConfig.defaults().withRowGroupRows(ROW_GROUP_ROWS),
                BlockCache.create(BLOCK_CACHE_BYTES));
        Chronix[] current = {Chronix.open(dir, config, scheduler)};
        try {
            Chronix c = current[0];
            long end = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(1)).toEpochMilli() * 1_000_000L;
            long start = end - SPAN.toNanos();
            long memtableFrom = end - Duration.ofHours(1).toNanos();
            fill(c, start, memtableFrom);
            c.flush();
            fill(c, memtableFrom, end);
            NamespaceTables.Handle handle = new NamespaceTables.Handle() {
                @Override
                public Chronix engine() {
                    return current[0];
                }

                @Override
                public void close() {
                    // the warm-up holds its engine for the whole run
                }
            };
            SplittableRandom random = new SplittableRandom(start);
            List<IntFunction<String>> shapes = shapes(start, end, random);
            ResultFormat[] formats = ResultFormat.values();
            long[] rows = new long[shapes.size()];
            List<List<String>> pools = shapes.stream().map(f -> (List<String>) new ArrayList<String>()).toList();
            int n = 0;
            try (Queries way = route.open(handle)) {
                while (n < max && System.nanoTime() < deadline) {
                    if (REOPEN_BEFORE.contains(n)) {
                        // segments not open yet, series indexes not loaded, the memtable from the WAL:
                        // the first queries after a start or a flush take those paths, so these do too
                        current[0].close(); // closing twice is harmless: the finally below may, if this open fails
                        current[0] = Chronix.open(dir, config, scheduler);
                    }
                    int shape = way.shape(n, shapes.size());
                    // of each shape, one in four texts repeats (a client repeating a query: its analysis
                    // is kept), three in four are new (analysed): code compiled for only one of the two
                    // is thrown away at the first query of the other, and the analysis, run once per
                    // new text, needs most of the warm-up's queries to reach C2
                    List<String> pool = pools.get(shape);
                    String sql;
                    if (pool.size() == POOL && random.nextInt(4) == 0) {
                        sql = pool.get(random.nextInt(POOL));
                    } else {
                        sql = shapes.get(shape).apply(n);
                        if (pool.size() < POOL) {
                            pool.add(sql);
                        }
                    }
                    // JSON mostly, as clients mostly ask for it; every format now and then
                    ResultFormat format = n % 10 == 8 ? formats[(n / 10) % formats.length] : ResultFormat.JSON;
                    rows[shape] += way.execute(n, sql, format);
                    n++;
                }
            }
            return new Report(n, rows);
        } finally {
            current[0].close();
            DataDirectory.deleteTree(dir);
        }
    }

    /**
     * One point per host every {@link #STEP} in [from, to): five tags, then gauges as metrics are,
     * random walks of whole numbers (integer fields) and of two decimals (float fields), a few
     * absent now and then so NULLs are on the path too; one float of full precision and an integer
     * counter, so each of the segment encodings and both numeric kinds are on the path.
     */
    private static void fill(Chronix c, long from, long to) {
        SplittableRandom random = new SplittableRandom(from);
        double[][] level = new double[HOSTS][FIELDS.length];
        long[] counter = new long[HOSTS];
        PointBatch.Builder b = PointBatch.builder();
        int points = 0;
        for (long t = from; t < to; t += STEP.toNanos()) {
            for (int h = 0; h < HOSTS; h++) {
                b.beginPoint(MEASUREMENT, t + offset(h)).tag("host", "host_" + h).tag("rack", "rack_" + (h % 4))
                        .tag("region", "region_" + (h % 3)).tag("os", "os_" + (h % 2)).tag("service", "service_" + (h % 5));
                for (int f = 0; f < FIELDS.length - 2; f++) {
                    level[h][f] = Math.clamp(level[h][f] + random.nextDouble(-5, 5), 0, 100);
                    if (random.nextInt(50) == 0) {
                        continue;
                    }
                    if (f < INTEGER_GAUGES) {
                        b.integerField(FIELDS[f], Math.round(level[h][f]));
                    } else {
                        b.floatField(FIELDS[f], Math.round(level[h][f] * 100) / 100.0);
                    }
                }
                b.floatField(FIELDS[FIELDS.length - 2], random.nextDouble(0, 100));
                counter[h] += random.nextLong(0, 1_000);
                b.integerField(FIELDS[FIELDS.length - 1], counter[h]);
                b.endPoint();
                if (++points == 10_000) {
                    c.write(b.build());
                    b = PointBatch.builder();
                    points = 0;
                }
            }
        }
        if (points > 0) {
            c.write(b.build());
        }
    }

    /**
     * A host's points lie this far past the step: whole seconds, milliseconds, microseconds or
     * nanoseconds, so each form of timestamp is written in answers (a fraction never seen would
     * cost the answer writer's compiled code at the first real one).
     */
    private static long offset(int host) {
        return switch (host % 4) {
            case 0 -> 0;
            case 1 -> host * 1_000_000L;
            case 2 -> host * 1_000L;
            default -> host;
        };
    }

    /** The query shapes, each a function of the query's number; hosts and windows drawn at random. */
    private static List<IntFunction<String>> shapes(long start, long end, SplittableRandom random) {
        return List.of(
                n -> "SELECT time_bucket(INTERVAL '60 seconds', time) AS t, max(" + field(random) + ") AS m FROM " + MEASUREMENT
                        + " WHERE host IN (" + hosts(random, 1) + ") AND " + window(random, start, end, Duration.ofHours(1))
                        + " GROUP BY 1 ORDER BY 1",
                n -> "SELECT date_bin(INTERVAL '1 minute', time) AS t, " + aggregates("max", random, 5) + " FROM " + MEASUREMENT
                        + " WHERE host IN (" + hosts(random, 8) + ") AND " + window(random, start, end, Duration.ofHours(2))
                        + " GROUP BY 1 ORDER BY 1",
                n -> "SELECT time_bucket(INTERVAL '3600 seconds', time) AS t, host, " + aggregates("avg", random, 3) + " FROM " + MEASUREMENT
                        + " WHERE " + window(random, start, end, Duration.ofHours(3)) + " GROUP BY 1, 2 ORDER BY 1, 2",
                n -> "SELECT * FROM " + MEASUREMENT + " WHERE " + field(random) + " > 97.5 AND "
                        + window(random, start, end, Duration.ofHours(1))
                        + (n % 2 == 0 ? "" : " AND host IN (" + hosts(random, 1) + ")"),
                n -> "SELECT DISTINCT ON (host) * FROM " + MEASUREMENT + " ORDER BY host, time DESC",
                n -> "SELECT time_bucket(INTERVAL '60 seconds', time) AS t, max(" + field(random) + ") AS m FROM " + MEASUREMENT
                        + " WHERE time < TIMESTAMP '" + timestamp(start + random.nextLong(end - start)) + "' GROUP BY 1 ORDER BY 1 DESC LIMIT 5",
                n -> "SELECT count(*) AS n FROM " + MEASUREMENT,
                n -> "SELECT rack, count(" + field(random) + ") AS n, max(requests) AS r FROM " + MEASUREMENT + " WHERE "
                        + window(random, start, end, Duration.ofMinutes(30)) + " GROUP BY rack ORDER BY rack",
                n -> "WITH a AS (SELECT host, max(time) AS t FROM " + MEASUREMENT + " WHERE host IN (" + hosts(random, 4) + ") GROUP BY host) "
                        + "SELECT a.host, m." + field(random) + " FROM a JOIN " + MEASUREMENT + " m ON m.host = a.host AND m.time = a.t ORDER BY 1",
                n -> "SELECT host, time, " + field(random) + ", row_number() OVER (PARTITION BY host ORDER BY time DESC) AS r FROM " + MEASUREMENT
                        + " WHERE host IN (" + hosts(random, 2) + ") AND " + window(random, start, end, Duration.ofMinutes(10))
                        + " QUALIFY r <= 3 ORDER BY host, time");
    }

    private static String field(SplittableRandom random) {
        return FIELDS[random.nextInt(FIELDS.length - 1)];
    }

    private static String aggregates(String function, SplittableRandom random, int count) {
        StringBuilder sb = new StringBuilder();
        int first = random.nextInt(FIELDS.length - count);
        for (int i = 0; i < count; i++) {
            sb.append(i == 0 ? "" : ", ").append(function).append('(').append(FIELDS[first + i]).append(") AS ")
                    .append(function).append('_').append(FIELDS[first + i]);
        }
        return sb.toString();
    }

    /**
     * {@code count} distinct hosts drawn at random, as dashboards pick them: neighbours in the host
     * numbering lie next to each other in a segment, so their rows would be one stretch of a row
     * group, and the planner's code for several stretches would first run at a real query.
     */
    private static String hosts(SplittableRandom random, int count) {
        StringBuilder sb = new StringBuilder();
        random.ints(0, HOSTS).distinct().limit(count)
                .forEach(h -> sb.append(sb.isEmpty() ? "'" : ", '").append("host_").append(h).append('\''));
        return sb.toString();
    }

    private static String window(SplittableRandom random, long start, long end, Duration length) {
        long from = start + random.nextLong(Math.max(1, end - start - length.toNanos()));
        from -= Math.floorMod(from, 1_000_000_000L);
        return "time >= TIMESTAMP '" + timestamp(from) + "' AND time < TIMESTAMP '" + timestamp(from + length.toNanos()) + "'";
    }

    private static String timestamp(long nanos) {
        return PLAIN.format(Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L)));
    }
}
