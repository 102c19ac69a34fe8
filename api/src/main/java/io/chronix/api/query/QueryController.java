package io.chronix.api.query;

import io.chronix.api.security.TenantAccess;
import io.chronix.api.security.TenantPrincipal;
import io.chronix.api.sql.ScanPlan;
import io.chronix.api.sql.SqlErrorException;
import io.chronix.api.sql.SqlQuery;
import io.chronix.engine.Chronix;
import io.chronix.engine.read.LastPoint;
import io.chronix.engine.read.SeriesLastPoint;
import io.chronix.engine.read.TagPredicate;
import io.chronix.engine.schema.Column;
import io.chronix.engine.schema.MeasurementSchema;
import io.chronix.tenancy.namespace.Namespace;
import io.chronix.tenancy.token.Scope;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.arrow.memory.BufferAllocator;
import org.springframework.http.HttpHeaders;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** The query surface of a namespace (scope {@code read}). Thin: the work is in {@link QueryService}. */
@RestController
@Tag(name = "Query", description = "SQL over a namespace's measurements (DuckDB's dialect), its measurements and their last values. Scope read:<ns> or read:*.")
class QueryController {

    static final String SCAN_HEADER = "X-Chronix-Scan";
    static final String SCAN_ROWS_HEADER = "X-Chronix-Scan-Rows";
    static final String ANSWERED_BY_HEADER = "X-Chronix-Answered-By";

    private final TenantAccess access;
    private final QueryService queries;
    private final BufferAllocator allocator;

    QueryController(TenantAccess access, QueryService queries, BufferAllocator queryAllocator) {
        this.access = access;
        this.queries = queries;
        this.allocator = queryAllocator;
    }

    /** @param sql one SQL query (SELECT, WITH …, FROM …) */
    record QueryRequest(@Schema(description = "One SQL query in DuckDB's dialect", example = "SELECT * FROM cpu LIMIT 10") String sql) {
    }

    @PostMapping(path = "/api/v1/namespaces/{ns}/query")
    @Operation(summary = "Run a SQL query", description = """
            Every measurement of the namespace is a table: `time` (TIMESTAMP_NS, UTC) first, then tags (VARCHAR) \
            by name, then fields in their types by name; absent tags and fields are NULL. `date_bin(INTERVAL, time[, origin])` \
            and `time_bucket(INTERVAL, time[, origin])` are exact at the nanosecond. The answer format follows `Accept`: \
            application/json (default) `{"columns": [{"name", "type"}], "rows": [[…]]}` with RFC 3339 UTC timestamps at full \
            precision and NULL as null; text/csv (header line, CRLF, NULL as an empty field); \
            application/vnd.apache.arrow.stream (Arrow IPC stream). In JSON and CSV a BLOB is base64, a TIME the time of day, \
            a LIST/STRUCT/MAP its JSON text; an ENUM holds its values (VARCHAR) in every format. \
            A time-bucket width of zero or less is refused. Results stream. Header X-Chronix-Scan says, per \
            measurement, what the engine scan read after pruning by time range, tags, numeric field ranges and columns, \
            and its segments, row groups and rows read against what the measurement holds, as far as DuckDB had read when \
            the answer began (scans stream into DuckDB as it executes); X-Chronix-Scan-Rows the total rows; \
            X-Chronix-Answered-By who computed the answer: `duckdb` for every statement. \
            400: SQL errors (message, errorType, position), unknown measurement; 408: over queryTimeout; 422: over a memory \
            limit (Arrow batches in flight over chronix.query.max-scan-bytes, or DuckDB's memory_limit); 429: over maxConcurrentQueries (Retry-After); 503 query-capacity: the service's query threads are \
            busy and its queue of waiting queries is full (Retry-After).""",
            security = @SecurityRequirement(name = "bearer"),
            responses = {
                    @ApiResponse(responseCode = "200", description = "The result", content = {
                            @Content(mediaType = "application/json"), @Content(mediaType = "text/csv"),
                            @Content(mediaType = "application/vnd.apache.arrow.stream")}),
                    @ApiResponse(responseCode = "400", description = "SQL error or unknown measurement", content = @Content(mediaType = "application/problem+json")),
                    @ApiResponse(responseCode = "408", description = "Over the tenant's queryTimeout", content = @Content(mediaType = "application/problem+json")),
                    @ApiResponse(responseCode = "429", description = "Over the tenant's maxConcurrentQueries", content = @Content(mediaType = "application/problem+json")),
                    @ApiResponse(responseCode = "503", description = "Every query thread busy and the queue of waiting queries full", content = @Content(mediaType = "application/problem+json"))})
    void post(@PathVariable String ns, @RequestBody QueryRequest body,
              @RequestHeader(value = HttpHeaders.ACCEPT, required = false) String accept,
              Authentication auth, HttpServletResponse response)
            throws IOException, org.springframework.web.HttpMediaTypeNotAcceptableException {
        query(ns, body == null ? null : body.sql(), accept, auth, response);
    }

    @GetMapping(path = "/api/v1/namespaces/{ns}/query")
    @Operation(summary = "Run a SQL query (GET)", description = "As POST, with the statement in the `sql` parameter.",
            security = @SecurityRequirement(name = "bearer"))
    void get(@PathVariable String ns, @Parameter(description = "One SQL query") @RequestParam(required = false) String sql,
             @RequestHeader(value = HttpHeaders.ACCEPT, required = false) String accept,
             Authentication auth, HttpServletResponse response)
            throws IOException, org.springframework.web.HttpMediaTypeNotAcceptableException {
        query(ns, sql, accept, auth, response);
    }

    private void query(String nsName, String sql, String accept, Authentication auth, HttpServletResponse response)
            throws IOException, org.springframework.web.HttpMediaTypeNotAcceptableException {
        Namespace ns = access.namespace(auth, nsName, Scope.Action.READ);
        TenantPrincipal tenant = access.tenant(auth);
        if (sql == null || sql.isBlank()) {
            throw new SqlErrorException("Statement Error", "sql is missing or empty", -1);
        }
        ResultFormat format = ResultFormat.negotiate(accept);
        if (format == null) {
            throw new org.springframework.web.HttpMediaTypeNotAcceptableException(
                    Arrays.stream(ResultFormat.values()).map(f -> f.mediaType).map(m -> (org.springframework.http.MediaType) m).toList());
        }
        queries.run(tenant.tenantId(), tenant.tenantName(), ns, sql, new QueryService.ResultSink() {
            @Override
            public long write(SqlQuery q, org.apache.arrow.vector.ipc.ArrowReader result) throws IOException {
                response.setStatus(200);
                response.setContentType(format.mediaType.toString());
                response.setHeader(SCAN_HEADER, scanHeader(q.scans()));
                response.setHeader(SCAN_ROWS_HEADER, Long.toString(q.scans().stream().mapToLong(SqlQuery.TableScan::rows).sum()));
                response.setHeader(ANSWERED_BY_HEADER, q.answeredBy().label());
                OutputStream out = response.getOutputStream();
                return format.write(result, out);
            }

            @Override
            public void answered() throws IOException {
                // the whole answer is out and good: end the response now, release the query after
                response.getOutputStream().close();
            }
        });
    }

    /**
     * {@code cpu;rows=360;batches=1;bytes=12345;from=2026-…Z;to=2026-…Z;tags=1;columns=3;…;segments=1/24;rowGroups=2/60;rowsRead=80/3456000, mem;…}:
     * per measurement what its one scan answered and which pruning it was given (time range, number of
     * tag predicates, projected columns; {@code all} for none), then what it read against what the
     * measurement holds ({@link io.chronix.engine.read.ScanStatistics}).
     */
    static String scanHeader(List<SqlQuery.TableScan> scans) {
        StringBuilder sb = new StringBuilder();
        for (SqlQuery.TableScan s : scans) {
            if (!sb.isEmpty()) {
                sb.append(", ");
            }
            ScanPlan p = s.plan();
            sb.append(java.net.URLEncoder.encode(s.measurement(), StandardCharsets.UTF_8))
                    .append(";rows=").append(s.rows()).append(";batches=").append(s.batches()).append(";bytes=").append(s.bytes())
                    .append(";from=").append(p.from() == Long.MIN_VALUE ? "min" : ResultFormat.instant(p.from(), org.apache.arrow.vector.types.TimeUnit.NANOSECOND))
                    .append(";to=").append(p.to() == Long.MAX_VALUE ? "max" : ResultFormat.instant(p.to(), org.apache.arrow.vector.types.TimeUnit.NANOSECOND))
                    .append(";tags=").append(p.tags().size())
                    .append(";fields=").append(p.fields().size())
                    .append(";columns=").append(p.columns().isEmpty() ? "all" : Integer.toString(p.columns().size()))
                    .append(";references=").append(s.references());
            var st = s.statistics();
            sb.append(";segments=").append(st.segmentsRead()).append('/').append(st.segments())
                    .append(";rowGroups=").append(st.rowGroupsRead()).append('/').append(st.rowGroups())
                    .append(";rowsRead=").append(st.rowsRead()).append('/').append(st.rows());
        }
        return sb.toString();
    }

    @GetMapping(path = "/api/v1/namespaces/{ns}/measurements", produces = "application/json")
    @Operation(summary = "The namespace's measurements", description = "Their names, sorted: `[\"cpu\", \"mem\"]`.",
            security = @SecurityRequirement(name = "bearer"))
    List<String> measurements(@PathVariable String ns, Authentication auth) {
        Namespace n = access.namespace(auth, ns, Scope.Action.READ);
        try (NamespaceTables.Handle h = queries.open(n)) {
            return h.engine().measurements();
        }
    }

    /** @param kind {@code time}, {@code tag} or {@code field}; type the SQL type */
    record ColumnDocument(String name, String kind, String type) {
    }

    record MeasurementDocument(String name, List<ColumnDocument> columns) {
    }

    @GetMapping(path = "/api/v1/namespaces/{ns}/measurements/{m}", produces = "application/json")
    @Operation(summary = "A measurement's columns", description = "Columns in canonical order (time, tags by name, fields by name) with kind (time/tag/field) and SQL type: "
            + "`{\"name\": \"cpu\", \"columns\": [{\"name\": \"time\", \"kind\": \"time\", \"type\": \"TIMESTAMP\"}, {\"name\": \"host\", \"kind\": \"tag\", \"type\": \"VARCHAR\"}, …]}`. 404 measurement-not-found.",
            security = @SecurityRequirement(name = "bearer"))
    MeasurementDocument measurement(@PathVariable String ns, @PathVariable String m, Authentication auth) {
        Namespace n = access.namespace(auth, ns, Scope.Action.READ);
        try (NamespaceTables.Handle h = queries.open(n)) {
            MeasurementSchema s = h.engine().schema(m).orElseThrow(() -> new QueryExceptions.MeasurementNotFound(m));
            List<ColumnDocument> cols = new ArrayList<>();
            for (Column c : s.columns()) {
                cols.add(new ColumnDocument(c.name(), c.kind().name().toLowerCase(java.util.Locale.ROOT),
                        ResultFormat.typeName(MeasurementSchema.arrowField(c).getType())));
            }
            return new MeasurementDocument(s.measurement(), cols);
        }
    }

    @GetMapping(path = "/api/v1/namespaces/{ns}/last", produces = "application/json")
    @Operation(summary = "Last point of each matching series", description = """
            From the engine's last-value cache. `measurement` is required; each `tag.<name>=<value>` keeps the series \
            whose tag has that value. Answer in the query shape, one row per series (ordered by tag values): `time` \
            (the series' newest timestamp), its tags, and every field — a field the series does not hold at that \
            timestamp is null (the newest point, not the newest value of each field). 404 measurement-not-found.""",
            security = @SecurityRequirement(name = "bearer"))
    void last(@PathVariable String ns, @RequestParam String measurement, @RequestParam Map<String, String> params,
              Authentication auth, HttpServletResponse response) throws IOException {
        Namespace n = access.namespace(auth, ns, Scope.Action.READ);
        try (NamespaceTables.Handle h = queries.open(n)) {
            Chronix engine = h.engine();
            MeasurementSchema s = engine.schema(measurement).orElseThrow(() -> new QueryExceptions.MeasurementNotFound(measurement));
            List<TagPredicate> filters = new ArrayList<>();
            for (Map.Entry<String, String> e : params.entrySet()) {
                if (e.getKey().startsWith("tag.")) {
                    String tag = e.getKey().substring(4);
                    if (s.column(tag).filter(c -> c.kind() == Column.Kind.TAG).isEmpty()) {
                        writeLast(response, s, List.of());
                        return;
                    }
                    filters.add(new TagPredicate.Eq(tag, e.getValue()));
                }
            }
            List<Object[]> rows = new ArrayList<>();
            for (SeriesLastPoint p : engine.lastValues(measurement, filters, allocator)) { // the last-value cache, series in tag order
                rows.add(row(s, p.tags(), p.point()));
            }
            writeLast(response, s, rows);
        }
    }

    private static Object[] row(MeasurementSchema s, Map<String, String> tags, LastPoint lp) {
        Object[] row = new Object[s.columns().size()];
        int i = 0;
        for (Column c : s.columns()) {
            row[i++] = switch (c.kind()) {
                case TIME -> Instant.ofEpochSecond(Math.floorDiv(lp.timestamp(), 1_000_000_000L), Math.floorMod(lp.timestamp(), 1_000_000_000L));
                case TAG -> tags.get(c.name());
                case FIELD -> c.type() == io.chronix.engine.model.FieldType.UNSIGNED && lp.fields().get(c.name()) instanceof Long u
                        ? new java.math.BigInteger(Long.toUnsignedString(u)) : lp.fields().get(c.name());
            };
        }
        return row;
    }

    private static void writeLast(HttpServletResponse response, MeasurementSchema s, List<Object[]> rows) throws IOException {
        StringWriter w = new StringWriter();
        w.write("{\"columns\":[");
        int i = 0;
        for (Column c : s.columns()) {
            if (i++ > 0) {
                w.write(',');
            }
            w.write("{\"name\":");
            ResultFormat.jsonString(w, c.name());
            w.write(",\"type\":");
            ResultFormat.jsonString(w, ResultFormat.typeName(MeasurementSchema.arrowField(c).getType()));
            w.write('}');
        }
        w.write("],\"rows\":[");
        for (int r = 0; r < rows.size(); r++) {
            w.write(r == 0 ? "[" : ",[");
            Object[] row = rows.get(r);
            for (int c = 0; c < row.length; c++) {
                if (c > 0) {
                    w.write(',');
                }
                Object v = row[c];
                switch (v) {
                    case null -> w.write("null");
                    case Double d -> w.write(Double.isFinite(d) ? d.toString() : "\"" + d + "\"");
                    case Number num -> w.write(num.toString());
                    case Boolean b -> w.write(b.toString());
                    default -> ResultFormat.jsonString(w, Objects.toString(v));
                }
            }
            w.write(']');
        }
        w.write("]}");
        response.setContentType("application/json");
        response.getOutputStream().write(w.toString().getBytes(StandardCharsets.UTF_8));
    }
}
