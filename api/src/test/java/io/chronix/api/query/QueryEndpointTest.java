package io.chronix.api.query;

import io.chronix.api.security.TenantAccess;
import io.chronix.engine.Chronix;
import io.chronix.engine.model.PointBatch;
import io.chronix.tenancy.TenancyDirectory;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.security.core.Authentication;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.chronix.api.query.QueryWebFixture.T0;
import static io.chronix.api.query.QueryWebFixture.TENANT;
import static io.chronix.api.query.QueryWebFixture.ns;
import static io.chronix.api.query.QueryWebFixture.quotas;
import static io.chronix.api.query.QueryWebFixture.tenant;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.when;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The query endpoints in a web slice over real engines and the real locked-down DuckDB: answer
 * shapes and formats, NULLs, errors with positions, containment, limits, pruning diagnostics.
 */
@WebMvcTest(QueryController.class)
@AutoConfigureMockMvc(addFilters = false)
@Import({TenantAccess.class, QueryService.class, QueryConfiguration.class, QueryWebFixture.class})
class QueryEndpointTest {

    static final long S = 1_000_000_000L;
    static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired MockMvc mvc;
    @Autowired io.micrometer.core.instrument.MeterRegistry meters;
    @Autowired QueryWebFixture.Engines engines;
    @Autowired BufferAllocator queryAllocator;
    @Autowired io.chronix.api.sql.SqlSandbox sandbox;
    @MockitoBean TenancyDirectory directory;

    Authentication reader = tenant("read:metrics");

    @BeforeEach
    void namespaces() {
        when(directory.namespace(TENANT, "metrics")).thenReturn(Optional.of(ns(1, "metrics")));
        when(directory.namespace(TENANT, "other")).thenReturn(Optional.of(ns(2, "other")));
        when(directory.namespace(TENANT, "empty")).thenReturn(Optional.of(ns(3, "empty")));
        when(directory.quotas(eq(TENANT))).thenReturn(quotas(Duration.ofSeconds(30), 8));
        Chronix m = engines.engine(1);
        if (m.measurements().isEmpty()) {
            m.write(PointBatch.builder()
                    .beginPoint("cpu", T0).tag("host", "a").floatField("usage", 1.5).integerField("n", 3).endPoint()
                    .beginPoint("cpu", T0 + 1).tag("host", "a").floatField("usage", 2.5).stringField("note", "x,\"y\"").endPoint()
                    .beginPoint("cpu", T0 + 3600 * S).tag("host", "b").tag("rack", "r1").integerField("n", 0).endPoint()
                    .build());
            m.flush();
            m.write(PointBatch.builder()
                    .beginPoint("cpu", T0 + 7200 * S + 999_999_999).tag("host", "a").floatField("usage", 9.0).endPoint()
                    .build());
            engines.engine(2).write(PointBatch.builder().beginPoint("secret", T0).tag("k", "v").floatField("x", 42).endPoint().build());
        }
    }

    @AfterEach
    void noArrowMemoryLeft() {
        assertThat(queryAllocator.getAllocatedMemory()).as("Arrow memory held after the request").isZero();
    }

    ResultActions query(String sql, String accept) throws Exception {
        return mvc.perform(post("/api/v1/namespaces/metrics/query").principal(reader)
                .contentType(MediaType.APPLICATION_JSON).accept(accept)
                .content(JSON.writeValueAsString(Map.of("sql", sql))));
    }

    JsonNode json(String sql) throws Exception {
        return JSON.readTree(query(sql, "application/json").andExpect(status().isOk()).andReturn().getResponse().getContentAsString());
    }

    @Test
    void jsonAnswerHasColumnsWithTypesAndNanosecondTimestamps() throws Exception {
        JsonNode r = json("SELECT * FROM cpu ORDER BY time");
        assertThat(r.get("columns").toString()).isEqualTo("[{\"name\":\"time\",\"type\":\"TIMESTAMP\"},{\"name\":\"host\",\"type\":\"VARCHAR\"},"
                + "{\"name\":\"rack\",\"type\":\"VARCHAR\"},{\"name\":\"n\",\"type\":\"BIGINT\"},{\"name\":\"note\",\"type\":\"VARCHAR\"},"
                + "{\"name\":\"usage\",\"type\":\"DOUBLE\"}]");
        assertThat(r.get("rows").toString()).isEqualTo("[[\"2026-01-01T00:00:00Z\",\"a\",null,3,null,1.5],"
                + "[\"2026-01-01T00:00:00.000000001Z\",\"a\",null,null,\"x,\\\"y\\\"\",2.5],"
                + "[\"2026-01-01T01:00:00Z\",\"b\",\"r1\",0,null,null],"
                + "[\"2026-01-01T02:00:00.999999999Z\",\"a\",null,null,null,9.0]]");
    }

    @Test
    void getTakesTheStatementAsAParameter() throws Exception {
        mvc.perform(get("/api/v1/namespaces/metrics/query").param("sql", "SELECT count(*) AS n FROM cpu").principal(reader))
                .andExpect(status().isOk()).andExpect(jsonPath("$.rows[0][0]").value(4));
    }

    @Test
    void nullSemantics() throws Exception {
        JsonNode r = json("SELECT count(*), count(usage), avg(usage), count(n), sum(n), count(*) FILTER (WHERE usage IS NULL),"
                + " count(*) FILTER (WHERE n = 0), count(*) FILTER (WHERE rack IS NULL) FROM cpu");
        assertThat(r.get("rows").toString()).isEqualTo("[[4,3,4.333333333333333,2,3,1,1,3]]");
    }

    @Test
    void csvAnswerQuotesAndLeavesNullEmpty() throws Exception {
        String body = query("SELECT time, host, rack, note FROM cpu ORDER BY time LIMIT 2", "text/csv")
                .andExpect(status().isOk()).andExpect(header().string("Content-Type", "text/csv;charset=UTF-8"))
                .andReturn().getResponse().getContentAsString();
        assertThat(body).isEqualTo("time,host,rack,note\r\n2026-01-01T00:00:00Z,a,,\r\n2026-01-01T00:00:00.000000001Z,a,,\"x,\"\"y\"\"\"\r\n");
    }

    @Test
    void arrowAnswerDecodesToTheSameValues() throws Exception {
        byte[] body = query("SELECT time, host, usage FROM cpu ORDER BY time", "application/vnd.apache.arrow.stream")
                .andExpect(status().isOk()).andReturn().getResponse().getContentAsByteArray();
        assertThat(arrowRows(body, "Timestamp(NANOSECOND, null)")).containsExactly("2026-01-01T00:00|a|1.5", "2026-01-01T00:00:00.000000001|a|2.5",
                "2026-01-01T01:00|b|null", "2026-01-01T02:00:00.999999999|a|9.0");
    }

    /** Types without a fast path in the JSON writer: nested ones as their text, bytes as base64, times of day as DuckDB prints them. */
    @Test
    void nestedBinaryAndTimeOfDayColumnsAnswerInJsonAndCsv() throws Exception {
        String sql = "SELECT [1, 2] AS l, {'x': 1} AS s, MAP {'k': 1} AS m, 'abc'::BLOB AS b, TIME '01:02:00' AS t,"
                + " TIME '01:02:03.5' AS t2, CAST(NULL AS INTEGER[]) AS nl";
        JsonNode r = json(sql);
        assertThat(r.get("columns").toString()).contains("{\"name\":\"b\",\"type\":\"BLOB\"}", "{\"name\":\"t\",\"type\":\"TIME\"}");
        JsonNode row = r.get("rows").get(0);
        assertThat(row.get(0).asString()).isEqualTo("[1,2]");
        assertThat(row.get(1).asString()).isEqualTo("{\"x\":1}");
        assertThat(row.get(2).asString()).contains("k");
        assertThat(row.get(3).asString()).isEqualTo("YWJj");
        assertThat(row.get(4).asString()).isEqualTo("01:02:00");
        assertThat(row.get(5).asString()).isEqualTo("01:02:03.5");
        assertThat(row.get(6).isNull()).isTrue();
        String csv = query(sql, "text/csv").andExpect(status().isOk()).andReturn().getResponse().getContentAsString();
        assertThat(csv).startsWith("l,s,m,b,t,t2,nl\r\n\"[1,2]\",").endsWith(",YWJj,01:02:00,01:02:03.5,\r\n");
    }

    /** DuckDB hands an ENUM over as an Arrow dictionary: every format must print the values, not their indices. */
    @Test
    void enumColumnsPrintTheirValuesInEveryFormat() throws Exception {
        String sql = "SELECT CAST(host AS ENUM('a', 'b')) AS e, n FROM cpu ORDER BY time";
        JsonNode r = json(sql);
        assertThat(r.get("columns").toString()).isEqualTo("[{\"name\":\"e\",\"type\":\"VARCHAR\"},{\"name\":\"n\",\"type\":\"BIGINT\"}]");
        assertThat(r.get("rows").toString()).isEqualTo("[[\"a\",3],[\"a\",null],[\"b\",0],[\"a\",null]]");
        String csv = query(sql, "text/csv").andExpect(status().isOk()).andReturn().getResponse().getContentAsString();
        assertThat(csv).isEqualTo("e,n\r\na,3\r\na,\r\nb,0\r\na,\r\n");
        byte[] body = query(sql, "application/vnd.apache.arrow.stream").andExpect(status().isOk()).andReturn().getResponse()
                .getContentAsByteArray();
        assertThat(arrowRows(body, "Utf8")).containsExactly("a|3", "a|null", "b|0", "a|null");
    }

    /** An Arrow IPC answer's rows, cells joined by {@code |}; its first column must have {@code firstType}. */
    private static List<String> arrowRows(byte[] body, String firstType) throws java.io.IOException {
        List<String> rows = new ArrayList<>();
        try (BufferAllocator a = new RootAllocator(); ArrowStreamReader r = new ArrowStreamReader(new ByteArrayInputStream(body), a)) {
            while (r.loadNextBatch()) {
                VectorSchemaRoot root = r.getVectorSchemaRoot();
                assertThat(root.getSchema().getFields().getFirst().getType().toString()).isEqualTo(firstType);
                for (int i = 0; i < root.getRowCount(); i++) {
                    List<String> cells = new ArrayList<>();
                    for (int c = 0; c < root.getFieldVectors().size(); c++) {
                        cells.add(String.valueOf(root.getVector(c).getObject(i)));
                    }
                    rows.add(String.join("|", cells));
                }
            }
        }
        return rows;
    }

    @Test
    void syntaxErrorIs400WithMessageAndPosition() throws Exception {
        query("SELECT * FROM cpu WHERE", "application/json").andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errorId").value("sql-error"))
                .andExpect(jsonPath("$.errorType").value("Parser Error"))
                .andExpect(jsonPath("$.detail").value("syntax error at or near \"WHERE\""))
                .andExpect(jsonPath("$.position").value(18));
        query("SELECT usage_nope FROM cpu", "application/json").andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errorType").value("Binder Error"))
                .andExpect(jsonPath("$.position").value(7));
    }

    @Test
    void unknownMeasurementIs400NamingIt() throws Exception {
        query("SELECT * FROM cpu JOIN disk USING (host)", "application/json").andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail").value("unknown measurement 'disk'"))
                .andExpect(jsonPath("$.position").value(23));
    }

    @Test
    void anEmptyNamespaceAnswersAnEmptyResult() throws Exception {
        mvc.perform(post("/api/v1/namespaces/empty/query").principal(tenant("read:*")).contentType(MediaType.APPLICATION_JSON)
                        .content("{\"sql\": \"SELECT 1 AS one WHERE false\"}"))
                .andExpect(status().isOk()).andExpect(jsonPath("$.rows.length()").value(0))
                .andExpect(jsonPath("$.columns[0].name").value("one"));
    }

    @Test
    void escapesAreRefused() throws Exception {
        for (String sql : List.of(
                "SELECT * FROM read_csv('/etc/passwd')",
                "SELECT * FROM read_text('/etc/passwd')",
                "SELECT * FROM glob('/etc/*')",
                "SELECT * FROM 'https://example.com/x.csv'",
                "COPY (SELECT * FROM cpu) TO '/tmp/chronix-escape.csv'",
                "INSTALL httpfs",
                "LOAD httpfs",
                "ATTACH '/tmp/chronix-escape.db' AS x",
                "SET enable_external_access = true",
                "RESET lock_configuration",
                "CREATE TABLE main.planted AS SELECT 1",
                "SELECT * FROM secret",
                "SELECT * FROM memory.main.cpu",
                "SELECT * FROM duckdb_settings() WHERE false UNION ALL SELECT * FROM secret",
                "SELECT * FROM query_table('secret')",
                "PRAGMA version",
                "SELECT 1; SELECT 2")) {
            int status = query(sql, "application/json").andReturn().getResponse().getStatus();
            assertThat(status).as(sql).isEqualTo(400);
        }
        assertThat(java.nio.file.Files.exists(java.nio.file.Path.of("/tmp/chronix-escape.csv"))).isFalse();
        assertThat(java.nio.file.Files.exists(java.nio.file.Path.of("/tmp/chronix-escape.db"))).isFalse();
        // the catalog is out of a tenant's reach, so look at it from the service's side
        for (long input : new long[]{0, Long.MAX_VALUE}) {
            try (var c = sandbox.connect(input); var s = c.createStatement(); var r = s.executeQuery("SELECT count(*) FROM duckdb_tables()")) {
                r.next();
                assertThat(r.getLong(1)).as("tables planted [input=%d]", input).isZero();
            }
        }
    }

    @Test
    void aFunctionThatReadsTheServersSettingsIsAProblemNamingIt() throws Exception {
        query("SELECT name, value FROM duckdb_settings() WHERE name LIKE '%directory%'", "application/json")
                .andExpect(status().isBadRequest())
                .andExpect(header().string("Content-Type", org.hamcrest.Matchers.startsWith("application/problem+json")))
                .andExpect(jsonPath("$.errorId").value("sql-error"))
                .andExpect(jsonPath("$.errorType").value("Permission Error"))
                .andExpect(jsonPath("$.position").value(24))
                .andExpect(jsonPath("$.detail").value(org.hamcrest.Matchers.startsWith("table function 'duckdb_settings' is not available")));
        query("SELECT current_setting('temp_directory')", "application/json")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errorId").value("sql-error"))
                .andExpect(jsonPath("$.position").value(7))
                .andExpect(jsonPath("$.detail").value(org.hamcrest.Matchers.startsWith("function 'current_setting' is not available")));
        mvc.perform(get("/api/v1/namespaces/metrics/query").principal(reader).param("sql", "SELECT * FROM duckdb_extensions()"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail").value(org.hamcrest.Matchers.containsString("'duckdb_extensions'")))
                .andExpect(jsonPath("$.detail").value(org.hamcrest.Matchers.not(org.hamcrest.Matchers.containsString(System.getProperty("user.home")))));
    }

    @Test
    void anotherNamespacesMeasurementIsUnknown() throws Exception {
        query("SELECT * FROM secret", "application/json").andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail").value("unknown measurement 'secret'"));
    }

    @Test
    void queryTimeoutCancelsTheStatement() throws Exception {
        when(directory.quotas(eq(TENANT))).thenReturn(quotas(Duration.ofMillis(200), 8));
        query("SELECT count(*) FROM range(100000000000) a, range(10) b WHERE a.range * b.range = -1", "application/json")
                .andExpect(status().isRequestTimeout())
                .andExpect(jsonPath("$.errorId").value("query-timeout"))
                .andExpect(jsonPath("$.limit").value("queryTimeout"))
                .andExpect(jsonPath("$.value").value("PT0.2S"));
    }

    @Test
    void overMaxConcurrentQueriesIs429WithRetryAfter() throws Exception {
        when(directory.quotas(eq(TENANT))).thenReturn(quotas(Duration.ofSeconds(30), 0));
        query("SELECT 1", "application/json").andExpect(status().isTooManyRequests())
                .andExpect(header().string("Retry-After", "1"))
                .andExpect(jsonPath("$.errorId").value("too-many-queries"))
                .andExpect(jsonPath("$.limit").value("maxConcurrentQueries"));
    }

    /**
     * Per namespace: queries by outcome (a latency timer), rows and bytes scanned,
     * timeouts and rejections.
     */
    @Test
    void queriesAreCountedPerNamespaceByOutcome() throws Exception {
        java.util.function.Function<String, Double> requests = outcome -> {
            var t = meters.find("chronix.query.requests").tags("namespace", "1", "outcome", outcome).timer();
            return t == null ? 0.0 : t.count();
        };
        java.util.function.Function<String, Double> counter = name -> {
            var c = meters.find(name).tags("namespace", "1").counter();
            return c == null ? 0.0 : c.count();
        };
        double ok = requests.apply("ok");
        double invalid = requests.apply("invalid");
        double timeout = requests.apply("timeout");
        double rows = counter.apply("chronix.query.rows.scanned");
        double bytes = counter.apply("chronix.query.bytes.scanned");
        double timeouts = counter.apply("chronix.query.timeouts");
        double rejections = counter.apply("chronix.query.rejections");

        long scanned = Long.parseLong(query("SELECT * FROM cpu", "application/json").andExpect(status().isOk()).andReturn()
                .getResponse().getHeader(QueryController.SCAN_ROWS_HEADER));
        query("SELEC 1", "application/json").andExpect(status().isBadRequest());
        when(directory.quotas(eq(TENANT))).thenReturn(quotas(Duration.ofMillis(200), 8));
        query("SELECT count(*) FROM range(100000000000) a, range(10) b WHERE a.range * b.range = -1", "application/json")
                .andExpect(status().isRequestTimeout());
        when(directory.quotas(eq(TENANT))).thenReturn(quotas(Duration.ofSeconds(30), 0));
        query("SELECT 1", "application/json").andExpect(status().isTooManyRequests());

        assertThat(requests.apply("ok")).isEqualTo(ok + 1);
        assertThat(requests.apply("invalid")).isEqualTo(invalid + 1);
        assertThat(requests.apply("timeout")).isEqualTo(timeout + 1);
        assertThat(scanned).isPositive();
        assertThat(counter.apply("chronix.query.rows.scanned")).isEqualTo(rows + scanned);
        assertThat(counter.apply("chronix.query.bytes.scanned")).isGreaterThan(bytes);
        assertThat(counter.apply("chronix.query.timeouts")).isEqualTo(timeouts + 1);
        assertThat(counter.apply("chronix.query.rejections")).isEqualTo(rejections + 1);
        assertThat(meters.find("chronix.query.requests").tags("namespace", "1", "outcome", "ok").timer()
                .totalTime(java.util.concurrent.TimeUnit.NANOSECONDS)).as("latency recorded").isPositive();
    }

    @Test
    void pruningIsVisibleInTheScanHeader() throws Exception {
        String h = query("SELECT avg(usage) FROM cpu WHERE host = 'a' AND time >= TIMESTAMP '2026-01-01 00:00:00' AND time < TIMESTAMP '2026-01-01 01:00:00'",
                "application/json").andExpect(status().isOk()).andReturn().getResponse().getHeader(QueryController.SCAN_HEADER);
        assertThat(h).startsWith("cpu;rows=2;").contains(";from=2026-01-01T00:00:00Z;", ";to=2026-01-01T00:59:59.999999999Z;",
                ";tags=1;", ";columns=3;");
        // one segment of cpu's (other tests may flush more), its one row group, host a's two rows
        // of those cpu's segments hold (the memtable's point lies outside the hour)
        var cpu = engines.engine(1).segments().stream().filter(e -> e.measurement().equals("cpu")).toList();
        assertThat(h).endsWith(";segments=1/" + cpu.size() + ";rowGroups=1/1;rowsRead=2/"
                + cpu.stream().mapToLong(io.chronix.engine.catalog.SegmentEntry::rowCount).sum());
    }

    /**
     * A day of ten hosts, a point every ten seconds, in hourly shards: a one-host, one-hour query
     * reads one segment of the 24 and 360 of the 86,400 rows, and the pruning ratio metric records
     * the share it left. The pushed range is the statement's to the nanosecond, so the hour's open
     * end does not reach into the next shard.
     */
    @Test
    void aOneHostOneHourQueryReadsOneShardOfTheDay() throws Exception {
        when(directory.namespace(TENANT, "wide")).thenReturn(Optional.of(ns(4, "wide")));
        Chronix wide = engines.engine(4);
        if (wide.measurements().isEmpty()) {
            for (int hour = 0; hour < 24; hour++) {
                PointBatch.Builder b = PointBatch.builder();
                for (int s = 0; s < 3600; s += 10) {
                    for (int h = 0; h < 10; h++) {
                        b.beginPoint("cpu", T0 + (hour * 3600L + s) * S).tag("host", "host_" + h).floatField("usage", s).endPoint();
                    }
                }
                wide.write(b.build());
            }
            wide.flush();
        }
        var ratio = (java.util.function.Supplier<io.micrometer.core.instrument.DistributionSummary>)
                () -> meters.find("chronix.query.pruning.ratio").tags("namespace", "4").summary();
        long before = ratio.get() == null ? 0 : ratio.get().count();
        double read = meters.find("chronix.query.rows.read").tags("namespace", "4").counter() == null ? 0
                : meters.find("chronix.query.rows.read").tags("namespace", "4").counter().count();
        var response = mvc.perform(post("/api/v1/namespaces/wide/query").principal(tenant("read:wide"))
                        .contentType(MediaType.APPLICATION_JSON).accept("application/json")
                        .content(JSON.writeValueAsString(Map.of("sql", "SELECT max(usage) FROM cpu WHERE host = 'host_3'"
                                + " AND time >= TIMESTAMP '2026-01-01 05:00:00' AND time < TIMESTAMP '2026-01-01 06:00:00'"))))
                .andExpect(status().isOk()).andExpect(jsonPath("$.rows[0][0]").value(3590.0)).andReturn().getResponse();
        assertThat(wide.segmentCount()).isEqualTo(24);
        assertThat(response.getHeader(QueryController.SCAN_HEADER)).startsWith("cpu;rows=360;")
                .endsWith(";segments=1/24;rowGroups=1/1;rowsRead=360/86400");
        assertThat(ratio.get().count()).isEqualTo(before + 1);
        assertThat(ratio.get().max()).isGreaterThanOrEqualTo(1 - 360 / 86400.0);
        assertThat(meters.find("chronix.query.rows.read").tags("namespace", "4").counter().count()).isEqualTo(read + 360);
    }


    @Test
    void aBucketedAggregateAnswersAlikeInEverySpellingAndFormat() throws Exception {
        String sql = "SELECT time_bucket(INTERVAL '1 hour', time) AS time, host, max(usage) AS max_usage, avg(n) AS mean_n, count(*) AS n"
                + " FROM cpu WHERE time >= TIMESTAMP '2026-01-01 00:00:00' AND time < TIMESTAMP '2026-01-02 00:00:00' GROUP BY 1, 2 ORDER BY 1, 2";
        var engine = query(sql, "application/json").andExpect(status().isOk())
                .andExpect(header().string(QueryController.ANSWERED_BY_HEADER, "duckdb")).andReturn().getResponse();
        var duckDb = query(sql.replace(" ORDER BY", " HAVING true ORDER BY"), "application/json").andExpect(status().isOk())
                .andExpect(header().string(QueryController.ANSWERED_BY_HEADER, "duckdb")).andReturn().getResponse();
        assertThat(engine.getContentAsString()).isEqualTo(duckDb.getContentAsString());
        JsonNode r = JSON.readTree(engine.getContentAsString());
        assertThat(r.get("columns").toString()).isEqualTo("[{\"name\":\"time\",\"type\":\"TIMESTAMP\"},{\"name\":\"host\",\"type\":\"VARCHAR\"},"
                + "{\"name\":\"max_usage\",\"type\":\"DOUBLE\"},{\"name\":\"mean_n\",\"type\":\"DOUBLE\"},{\"name\":\"n\",\"type\":\"BIGINT\"}]");
        assertThat(r.get("rows").toString()).isEqualTo("[[\"2026-01-01T00:00:00Z\",\"a\",2.5,3.0,2],"
                + "[\"2026-01-01T01:00:00Z\",\"b\",null,0.0,1],[\"2026-01-01T02:00:00Z\",\"a\",9.0,null,1]]");
        for (String format : List.of("text/csv", "application/vnd.apache.arrow.stream")) {
            byte[] a = query(sql, format).andExpect(status().isOk()).andReturn().getResponse().getContentAsByteArray();
            byte[] b = query(sql.replace(" ORDER BY", " HAVING true ORDER BY"), format).andExpect(status().isOk()).andReturn().getResponse().getContentAsByteArray();
            if (format.equals("text/csv")) {
                assertThat(new String(a, java.nio.charset.StandardCharsets.UTF_8)).isEqualTo(new String(b, java.nio.charset.StandardCharsets.UTF_8));
            } else {
                assertThat(arrowRows(a, "Timestamp(NANOSECOND, null)")).isEqualTo(arrowRows(b, "Timestamp(NANOSECOND, null)")).hasSize(3);
            }
        }
        // without group keys: one row, even over no rows
        query("SELECT count(*) AS c, max(usage) AS m FROM cpu WHERE time < TIMESTAMP '2000-01-01 00:00:00'", "application/json")
                .andExpect(status().isOk()).andExpect(header().string(QueryController.ANSWERED_BY_HEADER, "duckdb"))
                .andExpect(jsonPath("$.rows[0][0]").value(0)).andExpect(jsonPath("$.rows[0][1]").isEmpty());
    }

    @Test
    void theNewestRowPerTagAnswersAlikeWithAndWithoutItsNewestRowPlan() throws Exception {
        String sql = "SELECT DISTINCT ON (host) * FROM cpu ORDER BY host, time DESC";
        String engine = query(sql, "application/json").andExpect(status().isOk())
                .andExpect(header().string(QueryController.ANSWERED_BY_HEADER, "duckdb")).andReturn().getResponse().getContentAsString();
        String duckDb = query(sql.replace(" ORDER BY", " WHERE true ORDER BY"), "application/json").andExpect(status().isOk())
                .andExpect(header().string(QueryController.ANSWERED_BY_HEADER, "duckdb")).andReturn().getResponse().getContentAsString();
        assertThat(engine).isEqualTo(duckDb);
        assertThat(JSON.readTree(engine).get("rows").toString()).isEqualTo("[[\"2026-01-01T02:00:00.999999999Z\",\"a\",null,null,null,9.0],"
                + "[\"2026-01-01T01:00:00Z\",\"b\",\"r1\",0,null,null]]");
    }

    @Test
    void aPlainFilterAnswersAlikeInEverySpellingAndFormat() throws Exception {
        String sql = "SELECT * FROM cpu WHERE usage > 2 AND time >= TIMESTAMP '2026-01-01 00:00:00'";
        String engine = query(sql, "application/json").andExpect(status().isOk())
                .andExpect(header().string(QueryController.ANSWERED_BY_HEADER, "duckdb")).andReturn().getResponse().getContentAsString();
        String duckDb = query(sql + " AND true", "application/json").andExpect(status().isOk())
                .andExpect(header().string(QueryController.ANSWERED_BY_HEADER, "duckdb")).andReturn().getResponse().getContentAsString();
        JsonNode e = JSON.readTree(engine);
        JsonNode d = JSON.readTree(duckDb);
        assertThat(e.get("columns")).isEqualTo(d.get("columns"));
        // no ORDER BY: the same rows, in whichever order
        assertThat(rowTexts(e)).containsExactlyInAnyOrderElementsOf(rowTexts(d)).hasSize(2);
        for (String format : List.of("text/csv", "application/vnd.apache.arrow.stream")) {
            byte[] a = query(sql, format).andExpect(status().isOk()).andReturn().getResponse().getContentAsByteArray();
            byte[] b = query(sql + " AND true", format).andExpect(status().isOk()).andReturn().getResponse().getContentAsByteArray();
            if (format.equals("text/csv")) {
                assertThat(new String(a, java.nio.charset.StandardCharsets.UTF_8).lines().toList())
                        .containsExactlyInAnyOrderElementsOf(new String(b, java.nio.charset.StandardCharsets.UTF_8).lines().toList());
            } else {
                assertThat(arrowRows(a, "Timestamp(NANOSECOND, null)"))
                        .containsExactlyInAnyOrderElementsOf(arrowRows(b, "Timestamp(NANOSECOND, null)")).hasSize(2);
            }
        }
        // nothing passes: the columns, no row
        query("SELECT time, usage FROM cpu WHERE usage > 1e9", "application/json").andExpect(status().isOk())
                .andExpect(header().string(QueryController.ANSWERED_BY_HEADER, "duckdb"))
                .andExpect(jsonPath("$.columns[1].name").value("usage")).andExpect(jsonPath("$.rows").isEmpty());
    }

    private static List<String> rowTexts(JsonNode answer) {
        List<String> rows = new java.util.ArrayList<>();
        answer.get("rows").forEach(r -> rows.add(r.toString()));
        return rows;
    }

    @Test
    void measurementsAndTheirColumns() throws Exception {
        mvc.perform(get("/api/v1/namespaces/metrics/measurements").principal(reader))
                .andExpect(status().isOk()).andExpect(jsonPath("$[0]").value("cpu"));
        mvc.perform(get("/api/v1/namespaces/metrics/measurements/cpu").principal(reader))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.name").value("cpu"))
                .andExpect(jsonPath("$.columns[0].name").value("time")).andExpect(jsonPath("$.columns[0].kind").value("time"))
                .andExpect(jsonPath("$.columns[0].type").value("TIMESTAMP"))
                .andExpect(jsonPath("$.columns[1].name").value("host")).andExpect(jsonPath("$.columns[1].kind").value("tag"))
                .andExpect(jsonPath("$.columns[2].name").value("rack"))
                .andExpect(jsonPath("$.columns[3].name").value("n")).andExpect(jsonPath("$.columns[3].kind").value("field"))
                .andExpect(jsonPath("$.columns[3].type").value("BIGINT"))
                .andExpect(jsonPath("$.columns[5].name").value("usage")).andExpect(jsonPath("$.columns[5].type").value("DOUBLE"));
        mvc.perform(get("/api/v1/namespaces/metrics/measurements/nope").principal(reader))
                .andExpect(status().isNotFound()).andExpect(jsonPath("$.errorId").value("measurement-not-found"));
    }

    @Test
    void lastPointOfEachMatchingSeries() throws Exception {
        mvc.perform(get("/api/v1/namespaces/metrics/last").param("measurement", "cpu").principal(reader))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.rows.length()").value(2))
                .andExpect(jsonPath("$.rows[0][0]").value("2026-01-01T02:00:00.999999999Z"))
                .andExpect(jsonPath("$.rows[0][1]").value("a"))
                .andExpect(jsonPath("$.rows[0][5]").value(9.0))
                .andExpect(jsonPath("$.rows[0][3]").isEmpty())
                .andExpect(jsonPath("$.rows[1][1]").value("b"));
        mvc.perform(get("/api/v1/namespaces/metrics/last").param("measurement", "cpu").param("tag.host", "b").principal(reader))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.rows.length()").value(1))
                .andExpect(jsonPath("$.rows[0][2]").value("r1"))
                .andExpect(jsonPath("$.rows[0][3]").value(0));
    }

    @Test
    void readScopeIsNeeded() throws Exception {
        mvc.perform(post("/api/v1/namespaces/metrics/query").principal(tenant("write:metrics")).contentType(MediaType.APPLICATION_JSON)
                .content("{\"sql\": \"SELECT 1\"}")).andExpect(status().isForbidden());
        mvc.perform(post("/api/v1/namespaces/nope/query").principal(reader).contentType(MediaType.APPLICATION_JSON)
                .content("{\"sql\": \"SELECT 1\"}")).andExpect(status().isNotFound());
    }
}
