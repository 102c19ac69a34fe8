package io.chronix.api.sql;

import io.chronix.engine.read.BatchSink;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.read.RowCount;
import io.chronix.engine.read.ScanOutput;
import io.chronix.engine.read.ScanResult;
import io.chronix.engine.read.ScanStatistics;
import io.chronix.engine.read.StreamedScan;
import io.chronix.engine.schema.MeasurementSchema;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import io.chronix.engine.read.BatchListReader;
import org.duckdb.DuckDBConnection;
import org.duckdb.DuckDBResultSet;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One tenant statement, from text to an Arrow result: parse it in DuckDB
 * ({@code json_serialize_sql}), find what it reads ({@link StatementAnalysis}), scan exactly that
 * from the engine, hand the batches to DuckDB as Arrow streams registered on this query's own
 * connection, run it, and return DuckDB's result as an {@link ArrowReader}.
 *
 * <p>A measurement read once is registered under its own name as a stream (zero-copy). One read
 * more than once, or from a statement with CTEs (which DuckDB may inline and scan twice), is
 * materialised once as a temporary table of this connection — a registered stream can be scanned
 * only once. Should DuckDB still rescan a stream, the statement is run again with every
 * measurement materialised.
 *
 * <p>Owns its connection, its scans and the streams; {@link #close()} releases all of them. Not
 * thread-safe, except {@link #cancel()}, which interrupts the running statement from any thread.
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
         *
         * @param orderTags tags the statement orders by: a hint, rows in that order (ascending) may
         *                  be kept as they are rather than sorted and copied
         */
        default ScanResult scanNewest(ScanRequest request, List<String> orderTags, BufferAllocator allocator) {
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

        /** Threads a query may borrow for its scans and the engine's aggregation; null for none. */
        default io.chronix.engine.read.ScanHelpers helpers() {
            return null;
        }

        /** How many rows {@link #scan} would answer, and what counting read; a scan and a sum answers the same, slower. */
        default RowCount countRows(ScanRequest request, BufferAllocator allocator) {
            try (ScanResult r = scan(request, allocator)) {
                return new RowCount(r.rowCount(), r.statistics());
            }
        }
    }

    /**
     * What one measurement's scan read.
     *
     * @param rows       rows the scan answered
     * @param statistics what it read of the measurement's segments, row groups and rows, against what they hold
     */
    public record TableScan(String measurement, ScanPlan plan, int references, long rows, int batches, long bytes,
            ScanStatistics statistics) {
    }

    private static final Pattern ERROR_TYPE = Pattern.compile("^(?:[\\w.]+Exception: )?([A-Z][A-Za-z ]*? Error): ", Pattern.DOTALL);
    private static final Pattern LINE = Pattern.compile("\\n\\s*LINE (\\d+): (.*)\\n(\\s*)\\^");
    private static final int RESULT_BATCH_ROWS = 65_536;

    /** Who computed the answer: DuckDB, or the engine itself for the statements it answers exactly as DuckDB would. */
    public enum AnsweredBy {
        DUCKDB, ENGINE_COUNT, ENGINE_AGGREGATE, ENGINE_NEWEST, ENGINE_FILTER;

        /** As the {@code X-Chronix-Answered-By} header shows it. */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }
    }

    private final String sql;
    /** What DuckDB runs instead of {@link #sql} when it compares {@code time} with zoned values; null otherwise. */
    private ZonedTimes.Rewrite zoned;
    private final SqlSandbox sandbox;
    /** Opened when DuckDB runs the statement (the scans' size picks the instance); null until then. */
    private DuckDBConnection connection;
    private long inputRows;
    /** The statement's shape if the engine's aggregation may answer it; null otherwise. */
    private AggregateShape aggregate;
    /** Threads the engine's aggregation may borrow; null for none. */
    private io.chronix.engine.read.ScanHelpers helpers;
    /** The engine's answer found while choosing the window to scan ({@link #newestBucketsWindow}); null otherwise. */
    private ScanResult windowAnswer;
    /**
     * The measurement and plan {@link #execute} scans and aggregates batch by batch as the scan
     * reads them ({@link #aggregateWhileScanning}); null when {@link #prepare} scanned everything.
     */
    private Deferred deferred;
    /** The statement's shape if the engine answers it from each series' newest row; null otherwise. */
    private NewestShape newest;
    /** The statement's shape if the engine answers it by keeping rows of the scan; null otherwise. */
    private FilterShape filter;
    private AnsweredBy answeredBy = AnsweredBy.DUCKDB;
    private final BufferAllocator allocator;
    private final List<ScanResult> results = new ArrayList<>();
    private final List<ArrowArrayStream> streams = new ArrayList<>();
    private final List<TableScan> scans = new ArrayList<>();
    private final Map<String, ScanResult> byMeasurement = new java.util.LinkedHashMap<>();
    private final Map<String, Integer> references;
    private final boolean hasCtes;
    private volatile Statement running;
    private volatile boolean cancelled;
    private ResultSet resultSet;
    private ArrowReader reader;
    /** The answer of a bare count, computed by the engine; {@code null} for every other statement. */
    private ScanResult count;

    private SqlQuery(String sql, SqlSandbox sandbox, BufferAllocator allocator, Map<String, Integer> references, boolean hasCtes) {
        this.sql = sql;
        this.sandbox = sandbox;
        this.allocator = allocator;
        this.references = references;
        this.hasCtes = hasCtes;
    }

    /**
     * Parses, analyses and scans; the statement does not run yet. A statement the engine aggregates
     * is scanned by {@link #execute()} instead, which adds up each batch as the scan reads it.
     *
     * @param allocator where scans and results live; bound it to bound the query's Arrow memory
     * @throws SqlErrorException for a statement DuckDB or the analysis refuses
     */
    public static SqlQuery prepare(SqlSandbox sandbox, Tables tables, String sql, BufferAllocator allocator) {
        SqlQuery q = null;
        LiteralCasts casts = new LiteralCasts(sandbox);
        try {
            int scope = tables.parseScope();
            Set<String> measurements = Set.copyOf(tables.measurements());
            StatementAnalysis.Result analysis = sandbox.analyses.analyse(scope, sql, measurements, tables::schema, casts,
                    (schemas, literals) -> StatementAnalysis.analyse(sql, sandbox.statementTree(scope, sql), measurements, schemas, literals));
            q = new SqlQuery(sql, sandbox, allocator, analysis.references(), analysis.hasCtes());
            if (analysis.zonedTime()) {
                q.zoned = ZonedTimes.rewrite(sql, StatementAnalysis.read(sandbox.serialize(scope, sql)), casts);
            }
            if (analysis.countColumn() != null) {
                // SELECT count(*) FROM m [WHERE exact conjuncts]: the engine counts, DuckDB has nothing to do
                Map.Entry<String, ScanPlan> only = analysis.plans().entrySet().iterator().next();
                RowCount counted = tables.countRows(only.getValue().toRequest(), allocator);
                q.count = countAnswer(analysis.countColumn(), counted.rows(), allocator);
                q.results.add(q.count);
                q.scans.add(new TableScan(only.getKey(), only.getValue(), 1, counted.rows(), 0, 0, counted.statistics()));
                q.answeredBy = AnsweredBy.ENGINE_COUNT;
                return q;
            }
            q.aggregate = analysis.aggregate();
            q.newest = analysis.newest();
            q.filter = analysis.filter();
            q.helpers = tables.helpers();
            for (Map.Entry<String, ScanPlan> e : analysis.plans().entrySet()) {
                ScanPlan plan = e.getValue();
                ScanResult r;
                if (q.aggregate != null && q.aggregate.newestBucketsFirst().isEmpty() && analysis.plans().size() == 1) {
                    // read by execute(), each batch aggregated as it is read, under the query's timeout
                    q.deferred = new Deferred(tables, e.getKey(), plan);
                    continue;
                }
                if (q.aggregate != null && q.aggregate.newestBucketsFirst().isPresent()) {
                    Scanned window = q.newestBucketsWindow(tables, plan, q.aggregate);
                    plan = window.plan();
                    r = window.result();
                } else {
                    r = plan.newestOnly() ? tables.scanNewest(plan.toRequest(), orderTags(q.newest), allocator)
                            : tables.scan(plan.toRequest(), allocator);
                }
                q.addScan(e.getKey(), plan, r);
            }
            return q;
        } catch (SQLException e) {
            if (q != null) {
                q.close();
            }
            throw sqlError(sql, e);
        } catch (RuntimeException e) {
            if (q != null) {
                q.close();
            }
            throw e;
        } finally {
            casts.close();
        }
    }

    /**
     * The plan to scan for a statement whose answer is its newest buckets
     * ({@link AggregateShape#newestBucketsFirst}): a window of whole buckets back from the end of
     * the range, as many as the answer has rows, then four times as many, and so on, until the
     * engine's answer over the window has all its rows, or else the whole range. Each bucket
     * inside a window is whole, and every bucket before it sorts after the window's, so an answer
     * with all its rows is the answer over the whole range. TSBS's groupby-orderby-limit reads
     * five minutes instead of the day before its end. The answer found, if any, is kept in
     * {@link #windowAnswer}; if the engine cannot answer a window, DuckDB answers the statement
     * ({@link #aggregate} is cleared: the whole range would fail the same way).
     *
     * @return the plan kept and its scan, which the caller owns
     */
    private Scanned newestBucketsWindow(Tables tables, ScanPlan plan, AggregateShape shape) {
        AggregateShape.Bucket bucket = shape.newestBucketsFirst().orElseThrow();
        long rows = shape.limit() > Long.MAX_VALUE - shape.offset() ? Long.MAX_VALUE : shape.limit() + shape.offset();
        long last = EngineAggregation.bucketOf(shape.to(), bucket.width(), bucket.origin());
        for (long buckets = Math.max(rows, 1); ; buckets = buckets > Long.MAX_VALUE / 4 ? Long.MAX_VALUE : buckets * 4) {
            long back = buckets - 1 > Long.MAX_VALUE / bucket.width() ? Long.MAX_VALUE : (buckets - 1) * bucket.width();
            long start = last < Long.MIN_VALUE + back ? Long.MIN_VALUE : last - back; // back >= 0
            if (back == Long.MAX_VALUE || start <= shape.from() || start <= plan.from()) {
                return new Scanned(plan, tables.scan(plan.toRequest(), allocator)); // the whole range
            }
            ScanPlan window = plan.startingAt(start);
            ScanResult r = tables.scan(window.toRequest(), allocator);
            ScanResult answer;
            try {
                answer = EngineAggregation.answer(shape, r, allocator, () -> cancelled, helpers);
            } catch (RuntimeException e) {
                r.close();
                throw e;
            }
            if (answer != null && answer.rowCount() == shape.limit()) {
                windowAnswer = answer; // closed with the query
                return new Scanned(window, r);
            }
            r.close();
            if (answer == null) {
                aggregate = null;
                return new Scanned(plan, tables.scan(plan.toRequest(), allocator));
            }
            answer.close();
        }
    }

    /** A plan and what its scan read. */
    private record Scanned(ScanPlan plan, ScanResult result) {
    }

    /** A measurement's plan left for {@link #execute} to scan, and what scans it. */
    private record Deferred(Tables tables, String measurement, ScanPlan plan) {
    }

    /** Keeps a measurement's scan for DuckDB and the engine's answers, and counts what it read. */
    private void addScan(String measurement, ScanPlan plan, ScanResult r) {
        results.add(r);
        byMeasurement.put(measurement, r);
        long bytes = 0;
        for (VectorSchemaRoot b : r.batches()) {
            bytes += ScanResult.bufferBytes(b);
        }
        countScan(measurement, plan, r.rowCount(), r.batches().size(), bytes, r.statistics());
    }

    /** Counts what a measurement's scan read, for the diagnostics and DuckDB's choice of instance. */
    private void countScan(String measurement, ScanPlan plan, long rows, int batches, long bytes, ScanStatistics statistics) {
        inputRows += rows;
        scans.add(new TableScan(measurement, plan, references.getOrDefault(measurement, 1), rows, batches, bytes, statistics));
    }

    /**
     * The engine's aggregate over the deferred measurement, added up batch by batch while the
     * engine reads them: no batch outlives its part of the sum, so the query's Arrow memory does
     * not grow with the rows aggregated (a half-day aggregate over 400 hosts built 170 MB of
     * vectors first), and a cancel stops the scan between batches. Null when the answer is
     * DuckDB's (a sum beyond a {@code long}, too many groups): then the measurement is scanned
     * again, kept whole for DuckDB.
     */
    private ScanResult aggregateWhileScanning() {
        EngineAggregation.Accumulation accumulation = new EngineAggregation.Accumulation(aggregate, () -> cancelled);
        StreamedScan s = deferred.tables().scanInto(deferred.plan().toRequest(), allocator, accumulation);
        if (cancelled) {
            throw new QueryCancelledException();
        }
        ScanResult answer = s.complete() ? accumulation.finish(allocator) : null;
        if (answer == null) {
            addScan(deferred.measurement(), deferred.plan(), deferred.tables().scan(deferred.plan().toRequest(), allocator));
            return null;
        }
        countScan(deferred.measurement(), deferred.plan(), s.rows(), s.batches(), s.bytes(), s.statistics());
        return answer;
    }

    /** DuckDB's answer to a bare {@code count(*)}: one nullable {@code BIGINT} column, one row. */
    /**
     * The tags a lastpoint statement orders by, as far as the engine's order (ascending, NULLs
     * last) is the statement's; none for other statements.
     */
    private static List<String> orderTags(NewestShape newest) {
        List<String> tags = new ArrayList<>();
        for (NewestShape.Key k : newest == null ? List.<NewestShape.Key>of() : newest.keys()) {
            if (k.descending() || k.nullsFirst()) {
                break;
            }
            tags.add(k.column());
        }
        return tags;
    }

    private static ScanResult countAnswer(String column, long rows, BufferAllocator allocator) {
        Schema schema = new Schema(List.of(Field.nullable(column, new ArrowType.Int(64, true))));
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        try {
            BigIntVector v = (BigIntVector) root.getVector(0);
            v.allocateNew(1);
            v.set(0, rows);
            root.setRowCount(1);
            return new ScanResult(schema, List.of(root));
        } catch (RuntimeException e) {
            root.close();
            throw e;
        }
    }

    /** Whether the engine's row count answers the statement (a bare {@code count(*)}), so DuckDB runs nothing. */
    public boolean countedByEngine() {
        return count != null;
    }

    /** Who answered; final once {@link #execute()} returned. */
    public AnsweredBy answeredBy() {
        return answeredBy;
    }

    /**
     * What the scans read, per measurement, in the order they were scanned; complete once {@link
     * #execute()} returned (an aggregate the engine answers is scanned by it, batch by batch).
     */
    public List<TableScan> scans() {
        return List.copyOf(scans);
    }

    /**
     * Registers the scans and runs the statement.
     *
     * @return DuckDB's result, batch by batch; valid until {@link #close()}
     * @throws SqlErrorException for binder, conversion and execution errors
     * @throws QueryCancelledException if {@link #cancel()} interrupted it
     */
    public ArrowReader execute() {
        if (count != null) {
            if (cancelled) {
                throw new QueryCancelledException();
            }
            reader = new BatchListReader(allocator, count.schema(), count.batches());
            return reader;
        }
        ScanResult answer = null;
        if (windowAnswer != null) {
            answer = windowAnswer;
            answeredBy = AnsweredBy.ENGINE_AGGREGATE;
        } else if (aggregate != null) {
            answer = deferred != null ? aggregateWhileScanning()
                    : EngineAggregation.answer(aggregate, byMeasurement.get(aggregate.measurement()), allocator, () -> cancelled, helpers);
            answeredBy = answer != null ? AnsweredBy.ENGINE_AGGREGATE : AnsweredBy.DUCKDB;
        } else if (newest != null) {
            answer = EngineNewest.answer(newest, byMeasurement.get(newest.measurement()), allocator, () -> cancelled);
            answeredBy = answer != null ? AnsweredBy.ENGINE_NEWEST : AnsweredBy.DUCKDB;
        } else if (filter != null) {
            answer = EngineFilter.answer(filter, byMeasurement.get(filter.measurement()), allocator, () -> cancelled);
            answeredBy = answer != null ? AnsweredBy.ENGINE_FILTER : AnsweredBy.DUCKDB;
        }
        if (answer != null) {
            if (answer != windowAnswer) {
                results.add(answer);
            }
            reader = new BatchListReader(allocator, answer.schema(), answer.batches());
            return reader;
        }
        try {
            if (connection == null) {
                // the instance is chosen by what DuckDB will read: a small input runs serially (SqlSandbox)
                connection = sandbox.connect(inputRows);
            }
            return run(false);
        } catch (SQLException e) {
            if (cancelled) {
                throw new QueryCancelledException();
            }
            String m = String.valueOf(e.getMessage());
            if (m.contains("released") || m.contains("already been consumed") || m.contains("scanned once")) {
                try {
                    resetRegistrations();
                    return run(true);
                } catch (SQLException again) {
                    if (cancelled) {
                        throw new QueryCancelledException();
                    }
                    throw executionError(again);
                }
            }
            throw executionError(e);
        }
    }

    private ArrowReader run(boolean materialiseAll) throws SQLException {
        int i = 0;
        for (TableScan t : scans) {
            ScanResult r = byMeasurement.get(t.measurement());
            boolean materialise = materialiseAll || hasCtes || references.getOrDefault(t.measurement(), 1) > 1;
            String streamName = materialise ? "__chronix_scan_" + (i++) : t.measurement();
            ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator);
            streams.add(stream);
            Data.exportArrayStream(allocator, new BatchListReader(allocator, r.schema(), r.batches()), stream);
            connection.registerArrowStream(streamName, stream);
            if (materialise) {
                try (Statement s = connection.createStatement()) {
                    s.execute("CREATE OR REPLACE TEMP TABLE " + quoted(t.measurement()) + " AS FROM " + quoted(streamName));
                    s.execute("DROP VIEW IF EXISTS " + quoted(streamName));
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
        resultSet = s.executeQuery(zoned == null ? sql : zoned.sql());
        reader = (ArrowReader) ((DuckDBResultSet) resultSet).arrowExportStream(allocator, RESULT_BATCH_ROWS);
        return reader;
    }

    private void resetRegistrations() {
        try (Statement s = connection.createStatement()) {
            for (TableScan t : scans) {
                s.execute("DROP VIEW IF EXISTS " + quoted(t.measurement()));
                s.execute("DROP TABLE IF EXISTS temp." + quoted(t.measurement()));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot reset the query's tables: " + e.getMessage(), e);
        }
    }

    /** Interrupts the statement if it runs, or makes it fail at once when it starts. */
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
    }

    public boolean cancelled() {
        return cancelled;
    }

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
        for (ArrowArrayStream s : streams) {
            s.close();
        }
        for (ScanResult r : results) {
            r.close();
        }
        if (windowAnswer != null) {
            windowAnswer.close();
        }
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
