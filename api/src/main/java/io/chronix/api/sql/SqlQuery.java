package io.chronix.api.sql;

import io.chronix.engine.read.BatchSink;
import io.chronix.engine.read.ScanOutput;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.read.ScanResult;
import io.chronix.engine.read.ScanStatistics;
import io.chronix.engine.read.StreamedScan;
import io.chronix.engine.schema.Column;
import io.chronix.engine.schema.MeasurementSchema;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.duckdb.DuckDBConnection;
import org.duckdb.DuckDBResultSet;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One tenant statement, from text to an Arrow result: parse it in DuckDB
 * ({@code json_serialize_sql}), find what it reads ({@link StatementAnalysis}), hand DuckDB each
 * measurement reference as a stream of the engine's scan, run it, and return DuckDB's result as an
 * {@link ArrowReader}. Every statement takes this one path.
 *
 * <p>Streams: each reference is a {@link ScanStream} exported through the Arrow C Data Interface
 * and registered on this query's own connection; DuckDB pulls its batches as it executes, so the
 * query holds the batches in flight, never a whole table, and big sorts, joins and windows are
 * DuckDB's (its {@code memory_limit}). A registered stream can be scanned once, so a measurement
 * named more than once gets a stream per reference: each reference is renamed in the statement's
 * text to a stream of its own ({@code "__chronix_scan_k" AS cpu}, an alias of its own kept). A
 * measurement whose references cannot all be renamed (a CTE of the same name), or a statement
 * DuckDB makes rescan a stream (a CTE it inlines twice), is run with that measurement — or, on a
 * rescan, every one — copied into a temporary table of the connection through a stream first.
 *
 * <p>Owns its connection, its streams and their scans; {@link #close()} releases all of them
 * whatever happened before (answered, failed, cancelled, abandoned mid-answer). Not thread-safe,
 * except {@link #cancel()}, which interrupts the running statement and stops its scans from any
 * thread.
 */
public final class SqlQuery implements AutoCloseable {

    /** The namespace as the query sees it. */
    public interface Tables {
        Set<String> measurements();

        /** Parse trees are remembered per scope ({@link SqlSandbox#serialize(int, String)}); one per namespace. */
        default int parseScope() {
            return 0;
        }

        Optional<MeasurementSchema> schema(String measurement);

        ScanResult scan(ScanRequest request, BufferAllocator allocator);

        /**
         * Each matching series' newest row within the request's range, for a statement that keeps
         * nothing else ({@link ScanPlan#newestOnly()}); a scan of everything answers the same, slower.
         */
        default ScanResult scanNewest(ScanRequest request, BufferAllocator allocator) {
            return scan(request, allocator);
        }

        /**
         * The rows {@link #scan} answers, handed to {@code sink} as they are read instead of kept
         * (the engine's streamed scan); by default {@link #scan} and then each batch in turn.
         */
        default StreamedScan scanInto(ScanRequest request, BufferAllocator allocator, BatchSink sink) {
            try (ScanResult r = scan(request, allocator)) {
                return ScanOutput.streaming(sink).feed(r);
            }
        }
    }

    /**
     * What one measurement's scans read, summed over its references' streams; complete for the
     * streams DuckDB read to their end.
     *
     * @param rows       rows the scans handed DuckDB
     * @param statistics what they read of the measurement's segments, row groups and rows, against what they hold
     */
    public record TableScan(String measurement, ScanPlan plan, int references, long rows, int batches, long bytes,
            ScanStatistics statistics) {
    }

    private static final Pattern ERROR_TYPE = Pattern.compile("^(?:[\\w.]+Exception: )?([A-Z][A-Za-z ]*? Error): ", Pattern.DOTALL);
    private static final Pattern LINE = Pattern.compile("\\n\\s*LINE (\\d+): (.*)\\n(\\s*)\\^");
    private static final int RESULT_BATCH_ROWS = 65_536;
    private static final String STREAM_PREFIX = "__chronix_scan_";

    /** Who computed the answer: DuckDB, for every statement. */
    public enum AnsweredBy {
        DUCKDB;

        /** As the {@code X-Chronix-Answered-By} header shows it. */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }
    }

    private final String sql;
    /** What DuckDB runs instead of {@link #sql} when it compares {@code time} with zoned values; null otherwise. */
    private ZonedTimes.Rewrite zoned;
    private final SqlSandbox sandbox;
    private final Tables tables;
    private final BufferAllocator allocator;
    /**
     * The C structs and names the Arrow C Data Interface exports to DuckDB (a few hundred bytes a
     * stream and batch), beside the query's allocator rather than under its bound: the scans may
     * fill that bound before DuckDB asks for a stream's schema, and an export that fails inside
     * DuckDB's registration is reported as a text error and leaves what DuckDB took unreleased.
     */
    private final BufferAllocator exports;
    private final StatementAnalysis.Result analysis;
    /** Opened when DuckDB runs the statement (the scans' first rows pick the instance); null until then. */
    private DuckDBConnection connection;
    /** Every stream started, by measurement, in order; closed with the query. */
    private final Map<String, List<ScanStream>> streams = new java.util.LinkedHashMap<>();
    /** The same streams, for {@link #cancel()} from another thread. */
    private final List<ScanStream> everyStream = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final List<ArrowArrayStream> exported = new ArrayList<>();
    private volatile Statement running;
    private volatile boolean cancelled;
    private ResultSet resultSet;
    private ArrowReader reader;

    private SqlQuery(String sql, SqlSandbox sandbox, Tables tables, BufferAllocator allocator, StatementAnalysis.Result analysis) {
        this.sql = sql;
        this.sandbox = sandbox;
        this.tables = tables;
        this.allocator = allocator;
        BufferAllocator parent = allocator.getParentAllocator();
        this.exports = (parent != null ? parent : allocator).newChildAllocator("query-exports", 0, Long.MAX_VALUE);
        this.analysis = analysis;
    }

    /**
     * Parses and analyses; nothing is scanned yet ({@link #execute()} starts the scans as DuckDB
     * runs the statement).
     *
     * @param allocator where scans and results live; bound it to bound the query's Arrow memory in flight
     * @throws SqlErrorException for a statement DuckDB or the analysis refuses
     */
    public static SqlQuery prepare(SqlSandbox sandbox, Tables tables, String sql, BufferAllocator allocator) {
        LiteralCasts casts = new LiteralCasts(sandbox);
        try {
            int scope = tables.parseScope();
            Set<String> measurements = Set.copyOf(tables.measurements());
            StatementAnalysis.Result analysis = sandbox.analyses.analyse(scope, sql, measurements, tables::schema, casts,
                    (schemas, literals) -> StatementAnalysis.analyse(sql, sandbox.statementTree(scope, sql), measurements, schemas, literals));
            SqlQuery q = new SqlQuery(sql, sandbox, tables, allocator, analysis);
            if (analysis.zonedTime()) {
                q.zoned = ZonedTimes.rewrite(sql, StatementAnalysis.read(sandbox.serialize(scope, sql)), casts);
            }
            return q;
        } catch (SQLException e) {
            throw sqlError(sql, e);
        } finally {
            casts.close();
        }
    }

    /** Who answered. */
    public AnsweredBy answeredBy() {
        return AnsweredBy.DUCKDB;
    }

    /**
     * What the scans read, per measurement, in the order of the analysis: a stream DuckDB has not
     * read to its end counts the rows it handed over so far and no statistics.
     */
    public List<TableScan> scans() {
        List<TableScan> out = new ArrayList<>();
        for (Map.Entry<String, ScanPlan> e : analysis.plans().entrySet()) {
            long rows = 0;
            int batches = 0;
            long bytes = 0;
            ScanStatistics statistics = ScanStatistics.NONE;
            for (ScanStream s : streams.getOrDefault(e.getKey(), List.of())) {
                StreamedScan t = s.summary();
                rows += t.rows();
                batches += t.batches();
                bytes += t.bytes();
                if (statistics == ScanStatistics.NONE) {
                    statistics = t.statistics(); // every reference reads the same plan: one scan's statistics describe it
                }
            }
            out.add(new TableScan(e.getKey(), e.getValue(), analysis.references().getOrDefault(e.getKey(), 1), rows, batches, bytes,
                    statistics));
        }
        return out;
    }

    /**
     * Starts the scans, registers them and runs the statement.
     *
     * @return DuckDB's result, batch by batch; valid until {@link #close()}
     * @throws SqlErrorException for binder, conversion and execution errors
     * @throws QueryCancelledException if {@link #cancel()} interrupted it
     * @throws org.apache.arrow.memory.OutOfMemoryException if a scan's batches in flight outgrew the allocator's bound
     */
    public ArrowReader execute() {
        try {
            return run(false);
        } catch (SQLException e) {
            rethrowScanFailure(e);
            String m = String.valueOf(e.getMessage());
            if (m.contains("released") || m.contains("already been consumed") || m.contains("scanned once")) {
                try {
                    resetRegistrations();
                    return run(true);
                } catch (SQLException again) {
                    rethrowScanFailure(again);
                    throw executionError(again);
                }
            }
            throw executionError(e);
        }
    }

    /** A cancel, or the failure of a scan that DuckDB reported as its own error, as what it is. */
    private void rethrowScanFailure(SQLException e) {
        if (cancelled) {
            throw new QueryCancelledException();
        }
        for (ScanStream s : everyStream) {
            if (s.failure() instanceof RuntimeException r) {
                r.addSuppressed(e);
                throw r;
            }
            if (s.failure() instanceof Error err) {
                throw err;
            }
        }
    }

    private ArrowReader run(boolean materialiseAll) throws SQLException {
        // which measurements get a stream per reference, renamed in the text, and which a temporary table
        Map<String, List<StatementAnalysis.Site>> sites = new HashMap<>();
        for (StatementAnalysis.Site site : analysis.sites()) {
            sites.computeIfAbsent(site.measurement(), k -> new ArrayList<>()).add(site);
        }
        List<Registration> registrations = new ArrayList<>();
        List<Rename> renames = new ArrayList<>();
        int k = 0;
        for (Map.Entry<String, ScanPlan> e : analysis.plans().entrySet()) {
            String m = e.getKey();
            int references = analysis.references().getOrDefault(m, 1);
            List<StatementAnalysis.Site> of = sites.getOrDefault(m, List.of());
            List<Rename> renamed = materialiseAll || references <= 1 ? null : renames(m, of, k);
            if (renamed != null) {
                for (Rename r : renamed) {
                    registrations.add(new Registration(m, e.getValue(), r.stream(), false));
                }
                renames.addAll(renamed);
                k += renamed.size();
            } else {
                boolean materialise = materialiseAll || references > 1;
                registrations.add(new Registration(m, e.getValue(), materialise ? STREAM_PREFIX + (k++) : m, materialise));
            }
        }
        List<ScanStream> started = new ArrayList<>();
        for (Registration r : registrations) {
            ScanStream s = open(r.measurement(), r.plan());
            streams.computeIfAbsent(r.measurement(), x -> new ArrayList<>()).add(s);
            everyStream.add(s);
            started.add(s);
            if (cancelled) {
                s.cancel();
            }
        }
        if (connection == null) {
            // the instance is chosen by what DuckDB will read: a small input runs serially (SqlSandbox)
            connection = sandbox.connect(inputRows(started));
        }
        for (int i = 0; i < registrations.size(); i++) {
            Registration r = registrations.get(i);
            ArrowArrayStream stream = ArrowArrayStream.allocateNew(exports);
            exported.add(stream);
            Data.exportArrayStream(exports, started.get(i), stream);
            try {
                connection.registerArrowStream(r.name(), stream);
            } catch (RuntimeException e) {
                throw registrationFailure(e);
            }
            if (r.materialise()) {
                try (Statement s = connection.createStatement()) {
                    s.execute("CREATE OR REPLACE TEMP TABLE " + quoted(r.measurement()) + " AS FROM " + quoted(r.name()));
                    s.execute("DROP VIEW IF EXISTS " + quoted(r.name()));
                }
            }
        }
        if (cancelled) {
            throw new QueryCancelledException();
        }
        Statement s = connection.createStatement();
        running = s;
        if (cancelled) {
            s.cancel();
        }
        resultSet = s.executeQuery(executed(renames));
        reader = (ArrowReader) ((DuckDBResultSet) resultSet).arrowExportStream(allocator, RESULT_BATCH_ROWS);
        return reader;
    }

    /**
     * What a registration's failure was. DuckDB's driver reports a failure of the stream's export
     * (its schema is exported on this thread, while the scans may already hold the query's memory)
     * as a {@code RuntimeException} around an {@code SQLException} whose text is all that is left
     * of the cause: an Arrow allocation over the query's bound is that bound, as anywhere else.
     */
    private RuntimeException registrationFailure(RuntimeException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof org.apache.arrow.memory.OutOfMemoryException oom) {
                return oom;
            }
            if (t instanceof SQLException sql && String.valueOf(sql.getMessage()).contains(
                    org.apache.arrow.memory.OutOfMemoryException.class.getName())) {
                org.apache.arrow.memory.OutOfMemoryException oom = new org.apache.arrow.memory.OutOfMemoryException(sql.getMessage());
                oom.addSuppressed(e);
                return oom;
            }
        }
        return e;
    }

    /** A stream to register: under {@code name}, or copied into a temporary table named after the measurement. */
    private record Registration(String measurement, ScanPlan plan, String name, boolean materialise) {
    }

    /** The reference at {@code position}, {@code length} characters, read from stream {@code stream}. */
    private record Rename(int position, int length, String stream, boolean aliased) {
    }

    /**
     * A stream name per reference of {@code measurement}, numbered from {@code first}, or null if
     * some reference has no place in the text that names the measurement (then it is materialised).
     */
    private List<Rename> renames(String measurement, List<StatementAnalysis.Site> sites, int first) {
        if (sites.size() != analysis.references().getOrDefault(measurement, 1)) {
            return null;
        }
        List<Rename> out = new ArrayList<>();
        for (StatementAnalysis.Site site : sites) {
            int length = nameLength(sql, site.position(), measurement);
            if (length < 0) {
                return null;
            }
            out.add(new Rename(site.position(), length, STREAM_PREFIX + (first + out.size()), site.aliased()));
        }
        return out;
    }

    /**
     * The length of the identifier at {@code at} if it names {@code measurement} (as DuckDB
     * resolves names: case-insensitively, quoted or not); -1 otherwise.
     */
    static int nameLength(String sql, int at, String measurement) {
        if (at < 0 || at >= sql.length()) {
            return -1;
        }
        int end;
        String name;
        if (sql.charAt(at) == '"') {
            StringBuilder b = new StringBuilder();
            int i = at + 1;
            while (true) {
                if (i >= sql.length()) {
                    return -1;
                }
                char c = sql.charAt(i);
                if (c == '"') {
                    if (i + 1 < sql.length() && sql.charAt(i + 1) == '"') {
                        b.append('"');
                        i += 2;
                        continue;
                    }
                    break;
                }
                b.append(c);
                i++;
            }
            end = i + 1;
            name = b.toString();
        } else {
            int i = at;
            while (i < sql.length() && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_' || sql.charAt(i) == '$')) {
                i++;
            }
            end = i;
            name = sql.substring(at, end);
        }
        boolean names = name.equals(measurement) || name.equalsIgnoreCase(measurement);
        return names ? end - at : -1;
    }

    /**
     * The text DuckDB runs: the statement with its zoned time comparisons cast ({@link ZonedTimes})
     * and each renamed reference reading its own stream. Both edit the statement as written, at
     * positions of its parse tree; the renames move past the casts inserted before them.
     */
    private String executed(List<Rename> renames) {
        if (zoned == null) {
            return renamed(sql, renames);
        }
        List<Rename> moved = new ArrayList<>();
        for (Rename r : renames) {
            moved.add(new Rename(zoned.rewritten(r.position()), r.length(), r.stream(), r.aliased()));
        }
        return renamed(zoned.sql(), moved);
    }

    /** The statement with each renamed reference reading its own stream, under the name it had. */
    private String renamed(String text, List<Rename> renames) {
        if (renames.isEmpty()) {
            return text;
        }
        List<Rename> sorted = new ArrayList<>(renames);
        sorted.sort((a, b) -> Integer.compare(b.position(), a.position()));
        StringBuilder b = new StringBuilder(text);
        for (Rename r : sorted) {
            String written = text.substring(r.position(), r.position() + r.length());
            b.replace(r.position(), r.position() + r.length(), quoted(r.stream()) + (r.aliased() ? "" : " AS " + written));
        }
        return b.toString();
    }

    /** Starts a stream of {@code plan}'s scan. */
    private ScanStream open(String measurement, ScanPlan plan) {
        ScanRequest request = plan.toRequest();
        Function<BatchSink, StreamedScan> scan = plan.newestOnly()
                ? sink -> {
                    try (ScanResult r = tables.scanNewest(request, allocator)) {
                        return ScanOutput.streaming(sink).feed(r);
                    }
                }
                : sink -> tables.scanInto(request, allocator, sink);
        return new ScanStream(allocator, scanSchema(measurement, request), scan);
    }

    /** The columns a scan of {@code request} answers, as the engine orders them: {@code time} alone for a measurement not yet written. */
    private Schema scanSchema(String measurement, ScanRequest request) {
        Optional<MeasurementSchema> schema = tables.schema(measurement);
        return schema.isPresent() ? MeasurementSchema.toArrow(schema.get().columnsFor(request.columns()))
                : MeasurementSchema.toArrow(List.of(Column.time()));
    }

    /**
     * The rows the streams hand DuckDB if every one of them ended within {@link
     * SqlSandbox#SERIAL_MAX_ROWS} together, else more than that: waits only while a stream is
     * short of its hand-off's capacity.
     */
    private long inputRows(List<ScanStream> started) {
        long rows = 0;
        try {
            for (ScanStream s : started) {
                long r = s.rowsIfAtMost(SqlSandbox.SERIAL_MAX_ROWS - rows);
                if (r == Long.MAX_VALUE) {
                    return Long.MAX_VALUE;
                }
                rows += r;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cancel();
            throw new QueryCancelledException();
        }
        return rows;
    }

    private void resetRegistrations() {
        try (Statement s = connection.createStatement()) {
            for (String m : streams.keySet()) {
                s.execute("DROP VIEW IF EXISTS " + quoted(m));
                s.execute("DROP TABLE IF EXISTS temp." + quoted(m));
            }
            for (int i = 0; i < exported.size(); i++) {
                s.execute("DROP VIEW IF EXISTS " + quoted(STREAM_PREFIX + i));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot reset the query's tables: " + e.getMessage(), e);
        }
    }

    /** Interrupts the statement if it runs, stops its scans, or makes it fail at once when it starts. */
    public void cancel() {
        cancelled = true;
        Statement s = running;
        if (s != null) {
            try {
                s.cancel();
            } catch (SQLException | RuntimeException ignored) {
                // already finished or closing
            }
        }
        for (ScanStream stream : everyStream) {
            stream.cancel();
        }
    }

    public boolean cancelled() {
        return cancelled;
    }

    /**
     * Releases everything, in an order that leaves nothing behind: DuckDB's answer, the statement
     * and the connection (DuckDB then releases the streams it took), the streams it never took
     * (their release callbacks run here), and each scan — stopped, its producer awaited, its
     * queued batches freed.
     */
    @Override
    public void close() {
        try {
            if (reader != null) {
                reader.close();
            }
        } catch (Exception ignored) {
            // the result's memory is released with the allocator's children below
        }
        try {
            if (resultSet != null) {
                resultSet.close();
            }
            Statement s = running;
            if (s != null) {
                s.close();
            }
        } catch (SQLException ignored) {
            // closing the connection below releases it
        }
        try {
            if (connection != null) {
                connection.close();
            }
        } catch (SQLException ignored) {
            // an in-memory connection has nothing to flush
        }
        for (ArrowArrayStream s : exported) {
            s.release(); // a stream DuckDB never took still holds its reader; one it took is released already
            s.close();
        }
        for (ScanStream s : everyStream) {
            try {
                s.close();
            } catch (java.io.IOException | RuntimeException ignored) {
                // closeReadSource neither throws nor fails; the root's close cannot fail
            }
        }
        exports.close();
    }

    static String quoted(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    /**
     * Time literals as epoch nanoseconds the way DuckDB casts them: the plain shape in Java, anything
     * else by DuckDB's own cast on a connection opened on first need (most statements need none).
     */
    private static final class LiteralCasts implements StatementAnalysis.TimestampLiterals, ZonedTimes.Probe, AutoCloseable {
        private final SqlSandbox sandbox;
        private DuckDBConnection connection;

        LiteralCasts(SqlSandbox sandbox) {
            this.sandbox = sandbox;
        }

        @Override
        public OptionalLong epochNanos(String text, String type) {
            String cast = switch (type) {
                case "TIMESTAMP", "DATETIME" -> "TIMESTAMP";
                case "TIMESTAMP_NS", "VARCHAR" -> "TIMESTAMP_NS";
                case "TIMESTAMPTZ" -> "TIMESTAMPTZ";
                default -> null;
            };
            if (cast == null) {
                return OptionalLong.empty();
            }
            OptionalLong plain = PlainTimestamps.epochNanos(text, cast);
            if (plain.isPresent()) {
                return plain; // the usual literal: no round trip
            }
            if (type.equals("VARCHAR")) {
                // as the statement DuckDB runs compares it: through its zone, if that reads another instant (ZonedTimes)
                OptionalLong[] readings = readings(text);
                return readings[1].isPresent() ? readings[1] : readings[0];
            }
            return cast(text, cast);
        }

        /** {@code text} cast to {@code type}, as epoch nanoseconds; empty if DuckDB cannot. */
        private OptionalLong cast(String text, String type) {
            return nanos("SELECT epoch_ns(CAST(CAST(?::VARCHAR AS " + type + ") AS TIMESTAMP_NS))", text);
        }

        /** {@code text} through {@code TIMESTAMP_NS}, and through {@code TIMESTAMPTZ_NS} where that reads another instant. */
        private OptionalLong[] readings(String text) {
            OptionalLong plain = cast(text, "TIMESTAMP_NS");
            OptionalLong zoned = cast(text, "TIMESTAMPTZ_NS");
            return new OptionalLong[]{plain, zoned.isPresent() && !zoned.equals(plain) ? zoned : OptionalLong.empty()};
        }

        @Override
        public boolean zonedString(String text) {
            return PlainTimestamps.epochNanos(text, "TIMESTAMP_NS").isEmpty() && readings(text)[1].isPresent();
        }

        @Override
        public Optional<String> typeOf(String expression) {
            try (PreparedStatement ps = connection().prepareStatement("SELECT (" + expression + "\n)")) {
                return Optional.ofNullable(ps.getMetaData().getColumnTypeName(1));
            } catch (SQLException | RuntimeException e) {
                return Optional.empty(); // does not bind alone: left as it is
            }
        }

        private DuckDBConnection connection() throws SQLException {
            if (connection == null) {
                connection = sandbox.connect(0);
            }
            return connection;
        }

        private OptionalLong nanos(String query, String text) {
            try (PreparedStatement ps = connection().prepareStatement(query)) {
                ps.setString(1, text);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        long v = rs.getLong(1);
                        return rs.wasNull() ? OptionalLong.empty() : OptionalLong.of(v);
                    }
                    return OptionalLong.empty();
                }
            } catch (SQLException e) {
                return OptionalLong.empty(); // not a timestamp DuckDB can read: no pruning; the statement reports it
            }
        }

        @Override
        public void close() {
            if (connection != null) {
                try {
                    connection.close();
                } catch (SQLException ignored) {
                    // an in-memory connection has nothing to flush
                }
            }
        }
    }

    /** {@link #sqlError} of the statement DuckDB ran, its position in the tenant's statement. */
    private SqlErrorException executionError(SQLException e) {
        if (zoned == null) {
            return sqlError(sql, e);
        }
        SqlErrorException x = sqlError(zoned.sql(), e);
        return new SqlErrorException(x.errorType(), x.getMessage(), zoned.original(x.position()));
    }

    /** DuckDB's message without its rendering of the line, and the position its caret points at. */
    static SqlErrorException sqlError(String sql, SQLException e) {
        String message = String.valueOf(e.getMessage());
        String type = "SQL Error";
        Matcher t = ERROR_TYPE.matcher(message);
        if (t.find()) {
            type = t.group(1);
            message = message.substring(t.end());
        }
        int position = -1;
        Matcher l = LINE.matcher(message);
        if (l.find()) {
            position = caretPosition(sql, Integer.parseInt(l.group(1)), l.group(2), l.group(3).length() - ("LINE " + l.group(1) + ": ").length());
            message = message.substring(0, l.start());
        }
        return new SqlErrorException(type, message.strip(), position);
    }

    /**
     * DuckDB renders {@code LINE n: <context>} with a caret under the error; the context may be cut
     * and marked with {@code ...}. Finds the context in line {@code n} of the statement.
     */
    static int caretPosition(String sql, int lineNumber, String context, int caretColumn) {
        String[] lines = sql.split("\n", -1);
        if (lineNumber < 1 || lineNumber > lines.length || caretColumn < 0) {
            return -1;
        }
        int lineStart = 0;
        for (int i = 0; i < lineNumber - 1; i++) {
            lineStart += lines[i].length() + 1;
        }
        String line = lines[lineNumber - 1];
        int lead = 0;
        String ctx = context;
        if (ctx.startsWith("...")) {
            ctx = ctx.substring(3);
            lead = 3;
        }
        if (ctx.endsWith("...")) {
            ctx = ctx.substring(0, ctx.length() - 3);
        }
        int at = line.indexOf(ctx);
        if (at < 0 || caretColumn < lead) {
            return -1;
        }
        int pos = lineStart + at + (caretColumn - lead);
        return pos <= sql.length() ? pos : -1;
    }
}
