package io.chronix.api.sql;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import org.duckdb.DuckDBConnection;
import tools.jackson.databind.JsonNode;

import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;

/**
 * The shared, locked-down DuckDB instance that runs tenant SQL: in memory, no database file, and
 * one fresh connection ({@link #connect()}, a {@code duplicate()} costing microseconds) per query,
 * so the temporary views a query registers are visible to that query only.
 *
 * <p>Locked before any tenant statement runs: external access off (no file, glob, http, ATTACH of
 * files, COPY, EXPORT), extension install/load and autoloading off, persistent secrets off, no
 * spill directory ({@code temp_directory} empty: DuckDB would otherwise spill to {@code ./.tmp}),
 * no secret directory ({@code secret_directory} empty: its default names the service user's home),
 * and then {@code lock_configuration}, after which no {@code SET}/{@code RESET} succeeds. No
 * {@code allowed_directories} is ever given: it grants writing as well as reading. The settings
 * themselves, and every other function that reads the instance rather than rows, are out of a
 * tenant statement's reach: the analysis refuses them by name ({@link TenantFunctions}).
 *
 * <p>Before locking, the instance defines {@code time_bucket} and {@code date_bin} as macros in
 * {@code main} that shadow DuckDB's own: DuckDB's built-in rounds nanoseconds to microseconds
 * first (a point at {@code 00:00:59.9999996} would land in the next minute). Ours are exact at
 * the nanosecond in two ways: flooring the instant to the microsecond and calling DuckDB's own
 * {@code time_bucket}, exact wherever every bucket boundary is a whole microsecond (the
 * two-argument forms, whose origins are, and calendar widths); or integer arithmetic on
 * {@code epoch_ns} for a fixed width. The first binds faster, the second runs faster per row, so
 * the serial instance (small inputs) uses the first for two arguments and the parallel one (large
 * inputs) the second ({@link #MACROS_FEW_ROWS}, {@link #MACROS_MANY_ROWS}); a fixed width with an
 * origin given (which may carry nanoseconds) always takes the second. Origins: {@code time_bucket}
 * as DuckDB (2000-01-03 for fixed widths, 2000-01-01 for calendar ones), {@code date_bin} the Unix
 * epoch unless given.
 *
 * <p>{@link #serialize} parses tenant statements ({@code json_serialize_sql}) on a few pooled
 * connections of the same instance, each with that statement prepared once; they register nothing,
 * so sharing them between queries shares no table.
 *
 * <p>Two instances when {@code threads > 1}, locked alike: the parallel one, and a serial one
 * ({@code threads = 1}) for statements whose scans hand DuckDB at most {@link #SERIAL_MAX_ROWS}
 * rows ({@link #connect(long)}). A DuckDB worker thread that pulls a batch from a registered Arrow
 * stream calls into the JVM, and Arrow's C Data bridge attaches that thread to the JVM and
 * detaches it again on every call — a Java thread created and torn down per batch and per
 * released array, a few hundred µs each, more than a small query's whole work. With one
 * thread DuckDB runs every task on the calling (Java) thread, so nothing attaches. Parallelism pays
 * only when there is enough input to split. Each instance has the full {@code memory_limit}.
 */
public final class SqlSandbox implements AutoCloseable {

    /** Fixed-width bucketing at the nanosecond; {@code o} is the origin in epoch nanoseconds. */
    private static final String BIN_NS = "make_timestamp_ns(epoch_ns(t) - ((((epoch_ns(t) - (o)) % (epoch_us(w) * 1000)) + (epoch_us(w) * 1000)) % (epoch_us(w) * 1000)))";
    /** The timestamp floored to the microsecond, as a microsecond TIMESTAMP. */
    private static final String FLOOR_US = "make_timestamp((epoch_ns(%1$s) - (((epoch_ns(%1$s) %% 1000) + 1000) %% 1000)) // 1000)";
    /**
     * Widths DuckDB's own function takes: calendar ones, and those that are no width at all (zero
     * or negative), so that every instance refuses them with DuckDB's own error instead of
     * computing a bucket from them.
     */
    private static final String CALENDAR = "((datepart('year', w) * 12 + datepart('month', w)) <> 0 OR epoch_us(w) <= 0)";

    /** {@code time_bucket}'s origin for fixed widths, 2000-01-03, in epoch nanoseconds (DuckDB's). */
    static final long TIME_BUCKET_ORIGIN = 946_857_600_000_000_000L;
    private static final String TIME_BUCKET_ORIGIN_NS = Long.toString(TIME_BUCKET_ORIGIN);

    /**
     * The three-argument forms, the same on both instances: a calendar width goes to DuckDB's own
     * function (every boundary is a whole microsecond), a fixed width with its origin (which may
     * carry nanoseconds) is computed on {@code epoch_ns}.
     */
    private static final String WITH_ORIGIN = " (w, t, origin) AS CASE WHEN " + CALENDAR
            + " THEN CAST(system.main.time_bucket(w, " + FLOOR_US.formatted("t") + ", " + FLOOR_US.formatted("origin") + ") AS TIMESTAMP_NS)"
            + " ELSE " + BIN_NS.replace("(o)", "epoch_ns(origin)") + " END";

    /**
     * The macros of the serial instance (small inputs). Two arguments: the origin is a whole
     * microsecond, so every bucket boundary is one too and DuckDB's own {@code time_bucket} of the
     * instant floored to the microsecond is exact, calendar widths or not. It binds in less time
     * than the {@code CASE} of {@link #MACROS_MANY_ROWS}, which is what a small query pays for.
     */
    static final List<String> MACROS_FEW_ROWS = List.of(
            "CREATE MACRO time_bucket(w, t) AS CAST(system.main.time_bucket(w, " + FLOOR_US.formatted("t") + ") AS TIMESTAMP_NS),"
                    + WITH_ORIGIN,
            "CREATE MACRO date_bin(w, t) AS CAST(system.main.time_bucket(w, " + FLOOR_US.formatted("t") + ", TIMESTAMP '1970-01-01') AS TIMESTAMP_NS),"
                    + WITH_ORIGIN);

    /**
     * The macros of the parallel instance (large inputs). Two arguments with a fixed width (the
     * optimiser folds the constant {@code CASE} to one branch): integer arithmetic on {@code epoch_ns},
     * about 2.3 times cheaper per row than flooring to the microsecond and calling DuckDB's
     * {@code time_bucket} (1.73 M rows bucketed by the hour: 29.7 against 69.3 ms on one thread,
     * {@code BucketMacroCpuTime}), which here costs more than the {@code CASE}'s extra binding
     * (≈ 0.5 ms). Calendar widths as on the serial instance.
     */
    static final List<String> MACROS_MANY_ROWS = List.of(
            "CREATE MACRO time_bucket(w, t) AS CASE WHEN " + CALENDAR
                    + " THEN CAST(system.main.time_bucket(w, " + FLOOR_US.formatted("t") + ") AS TIMESTAMP_NS)"
                    + " ELSE " + BIN_NS.replace("(o)", TIME_BUCKET_ORIGIN_NS) + " END,"
                    + WITH_ORIGIN,
            "CREATE MACRO date_bin(w, t) AS CASE WHEN " + CALENDAR
                    + " THEN CAST(system.main.time_bucket(w, " + FLOOR_US.formatted("t") + ", TIMESTAMP '1970-01-01') AS TIMESTAMP_NS)"
                    + " ELSE " + BIN_NS.replace("(o)", "0") + " END,"
                    + WITH_ORIGIN);

    /**
     * Inputs up to this many rows run on the serial instance: below about two of the engine's
     * 65,536-row batches DuckDB has little to split, and the measured cost of the thread hand-off
     * exceeded the gain up to 432,000 rows on two cores (docs/benchmarks.md as of commit 5e95285, "Fixed per-query costs").
     */
    public static final long SERIAL_MAX_ROWS = 131_072;

    private final DuckDBConnection root;
    /** {@code threads = 1}; the same connection as {@link #root} when the limit is one thread. */
    private final DuckDBConnection serial;
    private final Limits limits;
    /** Idle parsers: a connection each, with {@code json_serialize_sql} prepared once (it reads no table). */
    private final java.util.concurrent.ConcurrentLinkedQueue<Parser> parsers = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final java.util.concurrent.atomic.AtomicInteger idleParsers = new java.util.concurrent.atomic.AtomicInteger();
    private static final int MAX_IDLE_PARSERS = 8;
    /** Bytes of statement text and parse tree kept by {@link #serialize(int, String)}. */
    static final long PARSE_CACHE_BYTES = 16L << 20;
    /** Longer parse trees are not kept: one would crowd out hundreds of ordinary statements. */
    private static final int MAX_CACHED_TREE_CHARS = 256 << 10;

    /** A statement's text in the scope it was asked in. */
    private record ParseKey(int scope, String sql) {
    }

    /**
     * Maintenance (draining the read and write buffers, evicting) runs on the calling thread, as
     * the engine's caches do: with Caffeine's default executor, the common pool, a query that put
     * a new text here or in {@link AnalysisCache} woke a pool thread to drain the buffer — one
     * thread wake-up and hand-off per query (strace of a one-series query loop: a futex wake of a
     * common-pool worker per request), taking a core from the query on a two-core machine. The
     * drain is a few hundred nanoseconds of work, bounded per call.
     */
    private final Cache<ParseKey, String> parsed = Caffeine.newBuilder().maximumWeight(PARSE_CACHE_BYTES)
            .weigher((ParseKey k, String tree) -> 64 + 2 * (k.sql().length() + tree.length())).executor(Runnable::run)
            .recordStats().build();
    /**
     * Templates' trees as read ({@link ParseTemplate.Tree}), per scope and template text, for
     * {@link #statementTree}, each weighed at sixteen times its text: a read tree's objects and
     * maps take about that much more memory than the JSON they were read from.
     */
    private final Cache<ParseKey, ParseTemplate.Tree> templateTrees = Caffeine.newBuilder().maximumWeight(PARSE_CACHE_BYTES)
            .weigher((ParseKey k, ParseTemplate.Tree t) -> 64 + 2 * k.sql().length() + 16 * t.chars()).executor(Runnable::run)
            .build();
    private volatile boolean closed;
    /** Statements {@link #serialize(int, String)} or {@link #statementTree} answered from a template's tree. */
    private final java.util.concurrent.atomic.LongAdder templated = new java.util.concurrent.atomic.LongAdder();
    /** Analyses of the statements parsed here, per scope and text ({@link SqlQuery#prepare}). */
    final AnalysisCache analyses = new AnalysisCache();

    private record Parser(DuckDBConnection connection, PreparedStatement statement) {
        void close() {
            try {
                statement.close();
                connection.close();
            } catch (SQLException ignored) {
                // an in-memory connection holds nothing to flush
            }
        }
    }

    /**
     * @param threads          DuckDB worker threads, shared by all queries of the instance
     * @param memoryLimitBytes DuckDB's own memory limit (hash tables, sorts); Arrow memory fed in
     *                         is not counted there — callers bound scans themselves
     */
    public record Limits(int threads, long memoryLimitBytes) {
        public Limits {
            if (threads < 1) {
                throw new IllegalArgumentException("threads must be at least 1 [threads=" + threads + "]");
            }
            if (memoryLimitBytes < (16L << 20)) {
                throw new IllegalArgumentException("memory limit below 16 MiB [bytes=" + memoryLimitBytes + "]");
            }
        }
    }

    private SqlSandbox(DuckDBConnection root, DuckDBConnection serial, Limits limits) {
        this.root = root;
        this.serial = serial;
        this.limits = limits;
    }

    /** Starts the instance(s) (≈ 20 ms, a few MB and a thread per {@code threads} each) and locks them. */
    public static SqlSandbox open(Limits limits) {
        if (limits.threads() == 1) {
            DuckDBConnection only = instance(1, limits.memoryLimitBytes(), MACROS_FEW_ROWS);
            return new SqlSandbox(only, only, limits);
        }
        DuckDBConnection parallel = instance(limits.threads(), limits.memoryLimitBytes(), MACROS_MANY_ROWS);
        try {
            return new SqlSandbox(parallel, instance(1, limits.memoryLimitBytes(), MACROS_FEW_ROWS), limits);
        } catch (RuntimeException e) {
            try {
                parallel.close();
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** One in-memory instance with the macros defined, then locked down. */
    private static DuckDBConnection instance(int threads, long memoryLimitBytes, List<String> macros) {
        try {
            Properties p = new Properties();
            p.setProperty("duckdb.read_only", "false");
            DuckDBConnection c = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:", p);
            io.chronix.archive.parquet.DuckDbLibrary.unlinkLoadedCopy(); // a killed service must not leave it in /tmp
            try (Statement s = c.createStatement()) {
                for (String m : macros) {
                    s.execute(m);
                }
                s.execute("SET threads = " + threads);
                s.execute("SET memory_limit = '" + memoryLimitBytes + "B'");
                s.execute("SET temp_directory = ''");
                s.execute("SET allow_persistent_secrets = false");
                // its default is under the service user's home; no secret is ever stored, so no directory is needed
                s.execute("SET secret_directory = ''");
                s.execute("SET autoinstall_known_extensions = false");
                s.execute("SET autoload_known_extensions = false");
                s.execute("SET allow_community_extensions = false");
                s.execute("SET enable_external_access = false");
                s.execute("SET lock_configuration = true");
            } catch (SQLException | RuntimeException e) {
                c.close();
                throw e;
            }
            return c;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot start the SQL engine: " + e.getMessage(), e);
        }
    }

    public Limits limits() {
        return limits;
    }

    /**
     * A new connection for one query on one thread; the caller closes it.
     *
     * @param inputRows the rows the query's scans hand DuckDB: up to {@link #SERIAL_MAX_ROWS} the
     *                  serial instance, else the parallel one
     */
    public DuckDBConnection connect(long inputRows) throws SQLException {
        return inputRows <= SERIAL_MAX_ROWS ? serial.duplicate() : root.duplicate();
    }

    /**
     * DuckDB's parse tree of {@code sql} as JSON ({@code json_serialize_sql}), from a pooled
     * connection whose statement is prepared once: a query's analysis then costs one execution,
     * not a prepare and an execution. Thread-safe.
     */
    public String serialize(String sql) throws SQLException {
        return serialize(0, sql);
    }

    /**
     * {@link #serialize(String)}, remembering the answer for the same text asked again in the same
     * {@code scope} (a dashboard's refresh, a benchmark's repeated query): the tree is a function of
     * the text alone, so a kept one is exactly what DuckDB would answer. A statement that differs
     * from one parsed before only in its plain string literals (a later time range, another host)
     * is answered from their shared template's tree ({@link ParseTemplate}). The scope (a
     * namespace's) keeps one tenant from learning, by timing, which statements another has run.
     */
    public String serialize(int scope, String sql) throws SQLException {
        // the same statement with other string literals (a later time range, another host) was
        // probably parsed already: its template's tree, with this statement's literals put back,
        // is this statement's tree (ParseTemplate)
        ParseTemplate template = ParseTemplate.of(sql);
        String filled = template == null ? null : filled(template, templateParse(scope, template));
        return filled != null ? filled : parsedKeeping(scope, sql);
    }

    /**
     * {@link #serialize(int, String)}'s tree, read. A statement with a template takes its
     * template's tree, read once and kept, with its own literals bound in
     * ({@link ParseTemplate#bind}): reading DuckDB's answer for each new statement was half of a
     * one-series statement's analysis. Thread-safe; the tree must not be modified.
     */
    public StatementAnalysis.StatementTree statementTree(int scope, String sql) throws SQLException {
        ParseTemplate template = ParseTemplate.of(sql);
        if (template != null) {
            ParseKey key = new ParseKey(scope, template.text());
            ParseTemplate.Tree tree = templateTrees.getIfPresent(key);
            String serialized = null;
            if (tree == null) {
                serialized = templateParse(scope, template);
                if (serialized != null && serialized.length() <= MAX_CACHED_TREE_CHARS) {
                    tree = template.tree(serialized);
                    templateTrees.put(key, tree);
                }
            }
            JsonNode bound = tree == null ? null : template.bind(tree);
            if (bound != null) {
                templated.increment();
                return new StatementAnalysis.StatementTree(bound, template::moved);
            }
            // a tree too long to keep read, or one bind cannot use: the template's text, filled, as
            // serialize answers, rather than DuckDB parsing the statement as well
            String filled = filled(template, tree != null ? templateParse(scope, template) : serialized);
            if (filled != null) {
                return StatementAnalysis.StatementTree.of(filled);
            }
        }
        return StatementAnalysis.StatementTree.of(parsedKeeping(scope, sql));
    }

    /**
     * DuckDB's tree of the template's text (kept like any other), or null if DuckDB refused it: a
     * refused template proves nothing, so the statement is then parsed as it is, for its own error.
     */
    private String templateParse(int scope, ParseTemplate template) {
        try {
            return parsedKeeping(scope, template.text());
        } catch (SQLException e) {
            return null;
        }
    }

    /** The statement's tree as text from its template's ({@link ParseTemplate#fill}), counted; null if it cannot be. */
    private String filled(ParseTemplate template, String templateTree) {
        String filled = templateTree == null ? null : template.fill(templateTree);
        if (filled != null) {
            templated.increment();
        }
        return filled;
    }

    /** DuckDB's tree of {@code text}, kept for the same text asked again in {@code scope}. */
    private String parsedKeeping(int scope, String text) throws SQLException {
        ParseKey key = new ParseKey(scope, text);
        String kept = parsed.getIfPresent(key);
        if (kept != null) {
            return kept;
        }
        String tree = parse(text);
        if (tree.length() <= MAX_CACHED_TREE_CHARS) {
            parsed.put(key, tree);
        }
        return tree;
    }

    /** Statements {@link #serialize(int, String)} answered from a template's tree ({@link ParseTemplate}). */
    public long templatedParses() {
        return templated.sum();
    }

    /** Statement analyses answered from one kept for the same text in the same scope ({@link AnalysisCache}). */
    public long reusedAnalyses() {
        return analyses.reused();
    }

    /** Hits and misses of {@link #serialize(int, String)}'s cache. */
    public CacheStats parseCacheStats() {
        return parsed.stats();
    }

    private String parse(String sql) throws SQLException {
        Parser p = parsers.poll();
        if (p != null) {
            idleParsers.decrementAndGet();
        } else {
            DuckDBConnection c = serial.duplicate(); // a parse runs on the calling thread either way
            try {
                p = new Parser(c, c.prepareStatement("SELECT json_serialize_sql(?::VARCHAR)"));
            } catch (SQLException | RuntimeException e) {
                c.close();
                throw e;
            }
        }
        boolean ok = false;
        try {
            p.statement().setString(1, sql);
            String json;
            try (ResultSet rs = p.statement().executeQuery()) {
                rs.next();
                json = rs.getString(1);
            }
            ok = true;
            return json;
        } finally {
            if (ok && !closed && idleParsers.incrementAndGet() <= MAX_IDLE_PARSERS) {
                parsers.offer(p);
                if (closed) {
                    drainParsers(); // close() ran meanwhile
                }
            } else {
                if (ok && !closed) {
                    idleParsers.decrementAndGet();
                }
                p.close();
            }
        }
    }

    private void drainParsers() {
        for (Parser p; (p = parsers.poll()) != null; ) {
            p.close();
        }
    }

    @Override
    public void close() {
        closed = true;
        drainParsers();
        try {
            root.close();
            if (serial != root) {
                serial.close();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("closing the SQL engine failed: " + e.getMessage(), e);
        }
    }
}
