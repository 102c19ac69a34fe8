package io.chronix.api.write;

import io.chronix.api.engine.EngineRegistry;
import io.chronix.api.security.TestHttp;
import io.chronix.tenancy.TenancyDirectory;
import io.chronix.tenancy.namespace.Namespace;
import io.chronix.api.testing.ServiceTestProperties;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;

import static org.assertj.core.api.Assertions.assertThat;

/** The write endpoints in process against a real PostgreSQL: every status, both error shapes, gzip, quotas, metrics. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class WriteEndpointsTest {

    static final String OPERATOR = "operator-token-for-write-tests";
    static final AtomicInteger TENANTS = new AtomicInteger();

    @TempDir
    static Path data;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        ServiceTestProperties.register(registry, data, OPERATOR);
    }

    @Value("${local.server.port}")
    int port;

    @Autowired
    EngineRegistry engines;

    @Autowired
    TenancyDirectory directory;

    @Autowired
    UsageReporter usageReporter;

    private final HttpClient client = HttpClient.newHttpClient();

    /** A tenant with namespace "metrics", a write:metrics token and a read-only token. */
    record Tenant(UUID id, String name, String admin, String writer, String reader) {
    }

    private Tenant tenant(String quotasJson) {
        TestHttp http = new TestHttp(port);
        String name = "w" + TENANTS.incrementAndGet() + "-" + UUID.randomUUID().toString().substring(0, 6);
        JsonNode t = http.send("POST", "/api/v1/tenants", OPERATOR, "{\"name\":\"" + name + "\",\"adminEmail\":\"" + name
                + "@example.com\",\"adminPassword\":\"correct horse battery\"" + (quotasJson == null ? "" : ",\"quotas\":" + quotasJson) + "}").json();
        String admin = t.get("adminToken").asString();
        assertThat(http.send("POST", "/api/v1/namespaces", admin, "{\"name\":\"metrics\",\"retention\":\"P30D\"}").status()).isEqualTo(201);
        String writer = http.send("POST", "/api/v1/tokens", admin, "{\"description\":\"w\",\"scopes\":[\"write:metrics\"]}").json()
                .get("token").asString();
        String reader = http.send("POST", "/api/v1/tokens", admin, "{\"description\":\"r\",\"scopes\":[\"read:metrics\"]}").json()
                .get("token").asString();
        return new Tenant(UUID.fromString(t.get("id").asString()), name, admin, writer, reader);
    }

    private HttpResponse<String> post(String path, String authorization, byte[] body, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).header("Content-Type", "text/plain; charset=utf-8");
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> write(Tenant t, String query, String body) throws Exception {
        return post("/api/v1/namespaces/metrics/write" + query, "Bearer " + t.writer(), body.getBytes(StandardCharsets.UTF_8));
    }

    private static JsonNode json(HttpResponse<String> r) {
        return TestHttp.JSON.readTree(r.body());
    }

    private long points(Tenant t, String measurement) {
        Namespace ns = directory.namespace(t.id(), "metrics").orElseThrow();
        return engines.apply(ns, e -> {
            if (!e.measurements().contains(measurement)) {
                return 0L;
            }
            try (RootAllocator a = new RootAllocator(); var r = e.scan(new io.chronix.engine.read.ScanRequest(measurement, java.util.List.of(),
                    Long.MIN_VALUE, Long.MAX_VALUE, java.util.List.of()), a)) {
                long n = 0;
                for (var batch : r.batches()) {
                    n += batch.getRowCount();
                }
                return n;
            }
        });
    }

    static byte[] gzip(String s) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream g = new GZIPOutputStream(out)) {
            g.write(s.getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }

    @Test
    void validLinesAre204AndDurableAndReadable() throws Exception {
        Tenant t = tenant(null);
        long now = System.currentTimeMillis();
        HttpResponse<String> r = write(t, "?precision=ms", "cpu,host=a usage=1.5 " + now + "\ncpu,host=b usage=2 " + now + "\n");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(204);
        assertThat(points(t, "cpu")).isEqualTo(2);
    }

    @Test
    void aNamespaceOfFourPointsStoresKilobytesAndItsWalZerosDoNotCount() throws Exception {
        Tenant t = tenant(null);
        long now = System.currentTimeMillis();
        HttpResponse<String> r = write(t, "?precision=ms", "cpu,host=a v=1 " + now + "\ncpu,host=b v=2 " + now
                + "\nmem,host=a v=3 " + now + "\nmem,host=b v=4 " + now + "\n");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(204);
        Namespace ns = directory.namespace(t.id(), "metrics").orElseThrow();
        long zeros = engines.apply(ns, e -> e.walPreallocatedBytes());
        assertThat(zeros).as("the WAL preallocated a small extent, not 1 MiB").isPositive().isLessThanOrEqualTo(16 * 1024);

        usageReporter.report();
        JsonNode listed = new TestHttp(port).send("GET", "/api/v1/namespaces/metrics", t.admin(), null).json();
        long stored = listed.get("storedBytes").asLong();
        long onDisk = UsageReporter.directorySize(engines.apply(ns, e -> e.directory()));
        assertThat(stored).as("stored bytes: the files without the WAL's zeros").isPositive().isLessThan(64 * 1024)
                .isLessThanOrEqualTo(onDisk - zeros);
    }

    @Test
    void anInvalidLineRejectsTheWholeRequestUnlessAcceptPartial() throws Exception {
        Tenant t = tenant(null);
        String body = "cpu v=1 1000000000000000001\ncpu v= 1000000000000000002\ncpu v=3 1000000000000000003\nbad\n";
        HttpResponse<String> r = write(t, "", body);
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/problem+json");
        JsonNode j = json(r);
        assertThat(j.get("errorId").asString()).isEqualTo("invalid-line-protocol");
        assertThat(j.get("errors")).hasSize(2);
        assertThat(j.get("errors").get(0).get("line").asInt()).isEqualTo(2);
        assertThat(j.get("errors").get(0).get("column").asInt()).isEqualTo(7);
        assertThat(j.get("errors").get(0).get("message").asString()).contains("expected a field value");
        assertThat(j.get("written").asInt()).isZero();
        assertThat(points(t, "cpu")).as("nothing of an atomic request").isZero();

        HttpResponse<String> partial = write(t, "?accept_partial=true", body);
        assertThat(partial.statusCode()).isEqualTo(400);
        assertThat(json(partial).get("written").asInt()).isEqualTo(2);
        assertThat(json(partial).get("errors")).hasSize(2);
        assertThat(points(t, "cpu")).isEqualTo(2);
    }

    @Test
    void aLineOverALimitIsABadLineOnEveryWriteEndpointNamingTheLimit() throws Exception {
        Tenant t = tenant(null);
        StringBuilder fields = new StringBuilder();
        for (int f = 0; f < 100_000; f++) {
            fields.append(f == 0 ? "" : ",").append('f').append(f).append("=1");
        }
        String column = "cpu " + fields.substring(0, fields.indexOf(",f1000=") + 1);
        String body = "cpu v=1 1000000000000000001\ncpu " + fields + " 1000000000000000002\ncpu,host=" + "h".repeat(20_000)
                + " v=3 1000000000000000003\n";

        HttpResponse<String> r = write(t, "", body);
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/problem+json");
        JsonNode j = json(r);
        assertThat(j.get("errorId").asString()).isEqualTo("invalid-line-protocol");
        assertThat(j.get("errors")).hasSize(2);
        JsonNode fieldsError = j.get("errors").get(0);
        assertThat(fieldsError.get("line").asInt()).isEqualTo(2);
        assertThat(fieldsError.get("column").asInt()).isEqualTo(column.length() + 1);
        assertThat(fieldsError.get("limit").asString()).isEqualTo("maxFieldsPerLine");
        assertThat(fieldsError.get("value").asInt()).isEqualTo(1000);
        assertThat(fieldsError.get("message").asString()).contains("maxFieldsPerLine = 1000");
        JsonNode tagError = j.get("errors").get(1);
        assertThat(tagError.get("line").asInt()).isEqualTo(3);
        assertThat(tagError.get("column").asInt()).isEqualTo("cpu,host=".length() + 1);
        assertThat(tagError.get("limit").asString()).isEqualTo("maxTagValueBytes");
        assertThat(tagError.get("value").asInt()).isEqualTo(16384);
        assertThat(points(t, "cpu")).as("nothing of an atomic request").isZero();

        HttpResponse<String> v2 = post("/api/v2/write?bucket=metrics&org=x", "Token " + t.writer(), body.getBytes(StandardCharsets.UTF_8));
        assertThat(v2.statusCode()).isEqualTo(400);
        assertThat(json(v2).get("code").asString()).isEqualTo("invalid");
        assertThat(json(v2).get("line").asInt()).isEqualTo(2);
        assertThat(json(v2).get("message").asString()).contains("line 2, column " + (column.length() + 1))
                .contains("maxFieldsPerLine = 1000").contains("line 3").contains("maxTagValueBytes = 16384");
        assertThat(points(t, "cpu")).as("InfluxDB writes the valid lines").isEqualTo(1);

        HttpResponse<String> v1 = post("/write?db=metrics&p=" + t.writer(), null, body.getBytes(StandardCharsets.UTF_8));
        assertThat(v1.statusCode()).isEqualTo(400);
        assertThat(json(v1).get("error").asString()).contains("maxFieldsPerLine = 1000");
        assertThat(points(t, "cpu")).as("the same point again").isEqualTo(1);
    }

    @Test
    void gzipBodiesIncludingMultiMemberAndBadGzip() throws Exception {
        Tenant t = tenant(null);
        byte[] a = gzip("cpu,host=a v=1 1000000000000000000\n");
        byte[] b = gzip("cpu,host=b v=2 1000000000000000000\n");
        byte[] both = new byte[a.length + b.length];
        System.arraycopy(a, 0, both, 0, a.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        HttpResponse<String> r = post("/api/v1/namespaces/metrics/write", "Bearer " + t.writer(), both, "Content-Encoding", "gzip");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(204);
        assertThat(points(t, "cpu")).isEqualTo(2);
        HttpResponse<String> bad = post("/api/v1/namespaces/metrics/write", "Bearer " + t.writer(),
                "cpu v=1".getBytes(StandardCharsets.UTF_8), "Content-Encoding", "gzip");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(json(bad).get("errorId").asString()).isEqualTo("invalid-gzip");
    }

    @Test
    void bodiesOverMaxRequestBytesAre413OnTheWireAndDecompressed() throws Exception {
        Tenant t = tenant("{\"maxRequestBytes\": 1000}");
        String big = "cpu,host=a v=1 1000000000000000000\n".repeat(100);
        HttpResponse<String> wire = write(t, "", big);
        assertThat(wire.statusCode()).isEqualTo(413);
        JsonNode j = json(wire);
        assertThat(j.get("errorId").asString()).isEqualTo("quota-max-request-bytes");
        assertThat(j.get("tenant").asString()).isEqualTo(t.name());
        assertThat(j.get("limit").asString()).isEqualTo("maxRequestBytes");
        assertThat(j.get("value").asLong()).isEqualTo(1000);
        byte[] small = gzip(big);
        assertThat(small.length).isLessThan(1000);
        HttpResponse<String> inflated = post("/api/v1/namespaces/metrics/write", "Bearer " + t.writer(), small, "Content-Encoding", "gzip");
        assertThat(inflated.statusCode()).isEqualTo(413);
        assertThat(points(t, "cpu")).isZero();
    }

    @Test
    void overTheIngestRateIs429WithRetryAfterFromTheBucket() throws Exception {
        Tenant t = tenant("{\"maxIngestPointsPerSecond\": 1}");
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            body.append("cpu,host=a v=").append(i).append(' ').append(1_000_000_000_000_000_000L + i).append('\n');
        }
        assertThat(write(t, "", body.toString()).statusCode()).as("a full bucket lets one request through").isEqualTo(204);
        HttpResponse<String> r = write(t, "", body.toString());
        assertThat(r.statusCode()).isEqualTo(429);
        long retry = Long.parseLong(r.headers().firstValue("Retry-After").orElseThrow());
        assertThat(retry).as("the debt of 4 points at 1 point/s, plus the point needed").isBetween(4L, 6L);
        assertThat(json(r).get("errorId").asString()).isEqualTo("quota-max-ingest-rate");
        assertThat(json(r).get("limit").asString()).isEqualTo("maxIngestPointsPerSecond");
    }

    @Test
    void aWriteOverMaxSeriesIs422AndWritesNothing() throws Exception {
        Tenant t = tenant("{\"maxSeries\": 2}");
        assertThat(write(t, "", "cpu,host=a v=1 1000000000000000000\ncpu,host=b v=1 1000000000000000000").statusCode()).isEqualTo(204);
        assertThat(write(t, "", "cpu,host=a v=2 1000000000000000001").statusCode()).as("old series pass").isEqualTo(204);
        HttpResponse<String> r = write(t, "", "cpu,host=a v=3 1000000000000000002\ncpu,host=c v=1 1000000000000000002");
        assertThat(r.statusCode()).isEqualTo(422);
        JsonNode j = json(r);
        assertThat(j.get("errorId").asString()).isEqualTo("quota-max-series");
        assertThat(j.get("value").asLong()).isEqualTo(2);
        assertThat(j.get("current").asLong()).isEqualTo(2);
        assertThat(j.get("tenant").asString()).isEqualTo(t.name());
        assertThat(points(t, "cpu")).isEqualTo(3);
    }

    @Test
    void typeConflictsAndTimestampsOutsideTheWindowAre422WritingNothing() throws Exception {
        Tenant t = tenant(null);
        long now = System.currentTimeMillis() * 1_000_000L;
        assertThat(write(t, "", "cpu,host=a v=1 " + now).statusCode()).isEqualTo(204);
        HttpResponse<String> conflict = write(t, "", "cpu,host=a w=1 " + now + "\ncpu,host=a v=\"text\" " + now);
        assertThat(conflict.statusCode()).isEqualTo(422);
        JsonNode c = json(conflict);
        assertThat(c.get("errorId").asString()).isEqualTo("field-type-conflict");
        assertThat(c.get("measurement").asString()).isEqualTo("cpu");
        assertThat(c.get("field").asString()).isEqualTo("v");
        assertThat(c.get("storedType").asString()).isEqualTo("float");
        assertThat(c.get("offeredType").asString()).isEqualTo("string");
        long old = now - 10L * 3600 * 1_000_000_000L;
        HttpResponse<String> window = write(t, "", "cpu,host=a v=2 " + now + "\ncpu,host=a v=3 " + old);
        assertThat(window.statusCode()).isEqualTo(422);
        JsonNode w = json(window);
        assertThat(w.get("errorId").asString()).isEqualTo("outside-time-window");
        assertThat(w.get("line").asInt()).isEqualTo(2);
        assertThat(w.get("detail").asString()).contains("Line 2").contains("window");
        assertThat(w.has("acceptedFrom") && w.has("acceptedTo")).isTrue();
        assertThat(points(t, "cpu")).isEqualTo(1);
    }

    @Test
    void aNewEmptyNamespaceAcceptsHistorySpanningManyShardsInOneRequestWithoutTheFlag() throws Exception {
        Tenant t = tenant(null);
        long now = System.currentTimeMillis() * 1_000_000L;
        long hour = 3600L * 1_000_000_000L;
        StringBuilder body = new StringBuilder();
        for (int h = 12; h >= 0; h--) {
            body.append("cpu,host=a v=").append(h).append(' ').append(now - h * hour).append('\n');
        }
        assertThat(write(t, "", body.toString()).statusCode()).isEqualTo(204);
        assertThat(points(t, "cpu")).isEqualTo(13);
        // from here the window is anchored on the newest point the namespace holds
        HttpResponse<String> late = write(t, "", "cpu,host=b v=1 " + (now - 12 * hour));
        assertThat(late.statusCode()).isEqualTo(422);
        assertThat(json(late).get("errorId").asString()).isEqualTo("outside-time-window");
        assertThat(points(t, "cpu")).isEqualTo(13);
    }

    @Test
    void backfillAcceptsAnyTimestampInsideTheRetentionOnEveryWriteEndpoint() throws Exception {
        Tenant t = tenant(null); // retention P30D
        long now = System.currentTimeMillis() * 1_000_000L;
        long hour = 3600L * 1_000_000_000L;
        assertThat(write(t, "", "cpu,host=a v=1 " + now).statusCode()).isEqualTo(204);
        long old = now - 10 * hour;
        HttpResponse<String> refused = write(t, "", "cpu,host=a v=2 " + old);
        assertThat(refused.statusCode()).isEqualTo(422);
        assertThat(json(refused).get("detail").asString()).contains("backfill=true accepts");
        assertThat(json(refused).get("backfill").asBoolean()).isFalse();

        assertThat(write(t, "?backfill=true", "cpu,host=a v=2 " + old).statusCode()).isEqualTo(204);
        assertThat(post("/api/v2/write?bucket=metrics&backfill=true", "Token " + t.writer(),
                ("cpu,host=a v=3 " + (now - 20 * hour)).getBytes()).statusCode()).isEqualTo(204);
        assertThat(post("/write?db=metrics&backfill=true", "Token " + t.writer(),
                ("cpu,host=a v=4 " + (now - 24 * 20 * hour)).getBytes()).statusCode()).isEqualTo(204);
        assertThat(points(t, "cpu")).isEqualTo(4);

        // outside the retention: 422 naming the line and the window, nothing written
        long tooOld = now - 24 * 31 * hour;
        HttpResponse<String> outside = write(t, "?backfill=true", "cpu,host=a v=5 " + (now - hour) + "\ncpu,host=a v=6 " + tooOld);
        assertThat(outside.statusCode()).isEqualTo(422);
        JsonNode o = json(outside);
        assertThat(o.get("errorId").asString()).isEqualTo("outside-time-window");
        assertThat(o.get("line").asInt()).isEqualTo(2);
        assertThat(o.get("backfill").asBoolean()).isTrue();
        assertThat(o.get("detail").asString()).contains("Line 2").contains("retention window (backfill=true)")
                .doesNotContain("not supported");
        long from = o.get("acceptedFromNanos").asLong();
        assertThat(from).isBetween(now - 24 * 30 * hour - hour, now - 24 * 30 * hour + hour); // newest held minus P30D
        assertThat(o.get("acceptedToNanos").asLong()).isGreaterThan(now);
        assertThat(points(t, "cpu")).isEqualTo(4);
        HttpResponse<String> v1 = post("/write?db=metrics&backfill=true", "Token " + t.writer(), ("cpu,host=a v=6 " + tooOld).getBytes());
        assertThat(v1.statusCode()).isEqualTo(422);
        assertThat(json(v1).get("code").asString()).isEqualTo("unprocessable entity");
        HttpResponse<String> bad = post("/api/v2/write?bucket=metrics&backfill=yes", "Token " + t.writer(), "cpu v=1".getBytes());
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(json(bad).get("message").asString()).contains("backfill");
        assertThat(write(t, "?backfill=maybe", "cpu v=1").statusCode()).isEqualTo(400);
    }

    @Test
    void unknownNamespaceIs404AndWrongScopeIs403AndNoTokenIs401() throws Exception {
        Tenant t = tenant(null);
        assertThat(post("/api/v1/namespaces/nope/write", "Bearer " + t.writer(), "cpu v=1".getBytes()).statusCode()).isEqualTo(404);
        assertThat(post("/api/v1/namespaces/metrics/write", "Bearer " + t.reader(), "cpu v=1".getBytes()).statusCode()).isEqualTo(403);
        assertThat(post("/api/v1/namespaces/metrics/write", null, "cpu v=1".getBytes()).statusCode()).isEqualTo(401);
        assertThat(write(t, "?precision=h", "cpu v=1").statusCode()).isEqualTo(400);
    }

    @Test
    void influxCompatibleEndpointsWriteValidLinesAndAnswerInInfluxShape() throws Exception {
        Tenant t = tenant(null);
        HttpResponse<String> v2 = post("/api/v2/write?bucket=metrics&org=x&precision=s", "Token " + t.writer(),
                "cpu,host=a v=1 1700000000\ncpu,host=a v= 1700000001\n".getBytes());
        assertThat(v2.statusCode()).isEqualTo(400);
        JsonNode j = json(v2);
        assertThat(j.get("code").asString()).isEqualTo("invalid");
        assertThat(j.get("line").asInt()).isEqualTo(2);
        assertThat(j.get("message").asString()).contains("line 2");
        assertThat(points(t, "cpu")).as("InfluxDB writes the valid lines").isEqualTo(1);
        assertThat(post("/api/v2/write?bucket=nope", "Token " + t.writer(), "cpu v=1".getBytes()).statusCode()).isEqualTo(404);
        assertThat(json(post("/api/v2/write?bucket=nope", "Token " + t.writer(), "cpu v=1".getBytes())).get("code").asString())
                .isEqualTo("not found");

        assertThat(post("/write?db=metrics&precision=s&p=" + t.writer(), null, "mem v=1 1700000000".getBytes(),
                "Content-Type", "application/x-www-form-urlencoded").statusCode()).as("p= and a form content type").isEqualTo(204);
        String basic = "Basic " + Base64.getEncoder().encodeToString(("any:" + t.writer()).getBytes(StandardCharsets.UTF_8));
        assertThat(post("/write?db=metrics&precision=n", basic, "mem v=2 1700000000000000001".getBytes()).statusCode()).isEqualTo(204);
        assertThat(points(t, "mem")).isEqualTo(2);
        assertThat(post("/write?db=metrics&p=cx_wrong_token", null, "mem v=1".getBytes()).statusCode()).isEqualTo(401);
    }

    @Test
    void prometheusShowsIngestAndEngineMetrics() throws Exception {
        Tenant t = tenant(null);
        assertThat(write(t, "", "cpu v=1 1000000000000000000").statusCode()).isEqualTo(204);
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/prometheus"))
                .header("Authorization", "Bearer " + OPERATOR).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.body()).contains("chronix_points_written_total{namespace=\"metrics\",tenant=\"" + t.name() + "\"}")
                .contains("chronix_wal_truncations_total").contains("chronix_wal_fsyncs_total").contains("chronix_open_engines")
                .contains("chronix_memtable_bytes").contains("chronix_write_duration_seconds_bucket");
    }
    @Test
    void aDeletedNamespaceAnswers404OnTheNextWriteAndARecreatedOneStartsEmpty() throws Exception {
        Tenant t = tenant(null);
        long now = System.currentTimeMillis();
        assertThat(write(t, "?precision=ms", "cpu,host=a v=1 " + now + "\n").statusCode()).isEqualTo(204);
        TestHttp http = new TestHttp(port);
        assertThat(http.send("DELETE", "/api/v1/namespaces/metrics", t.admin(), null).status()).isEqualTo(204);
        // the lookup of a moment ago is cached; the deletion must win over it at once
        HttpResponse<String> gone = write(t, "?precision=ms", "cpu,host=a v=2 " + now + "\n");
        assertThat(gone.statusCode()).as(gone.body()).isEqualTo(404);
        assertThat(json(gone).get("errorId").asString()).isEqualTo("namespace-not-found");

        assertThat(http.send("POST", "/api/v1/namespaces", t.admin(), "{\"name\":\"metrics\"}").status()).isEqualTo(201);
        assertThat(write(t, "?precision=ms", "cpu,host=b v=3 " + now + "\n").statusCode()).isEqualTo(204);
        assertThat(points(t, "cpu")).isEqualTo(1);
    }

    @Test
    void aRevokedWriteTokenAnswers401OnTheNextWrite() throws Exception {
        Tenant t = tenant(null);
        TestHttp http = new TestHttp(port);
        JsonNode created = http.send("POST", "/api/v1/tokens", t.admin(), "{\"description\":\"x\",\"scopes\":[\"write:metrics\"]}").json();
        String token = created.get("token").asString();
        byte[] line = ("cpu v=1 " + System.currentTimeMillis() + "\n").getBytes(StandardCharsets.UTF_8);
        assertThat(post("/api/v1/namespaces/metrics/write?precision=ms", "Bearer " + token, line).statusCode()).isEqualTo(204);
        assertThat(http.send("DELETE", "/api/v1/tokens/" + created.get("id").asString(), t.admin(), null).status()).isEqualTo(204);
        assertThat(post("/api/v1/namespaces/metrics/write?precision=ms", "Bearer " + token, line).statusCode()).isEqualTo(401);
    }

    @Test
    void bodiesOfChangingSizesAndEncodingsAreReadWholeThroughReusedBuffers() throws Exception {
        Tenant t = tenant(null);
        long now = System.currentTimeMillis();
        int expected = 0;
        // large, small, larger again, gzip and plain alternating: each body must be read whole, never a
        // previous request's bytes past its end
        int[] sizes = {3000, 5, 20000, 1, 7000, 40000, 2};
        for (int round = 0; round < sizes.length; round++) {
            StringBuilder body = new StringBuilder();
            for (int i = 0; i < sizes[round]; i++) {
                body.append("reuse,host=h").append(i % 97).append(",round=r").append(round).append(" v=").append(i).append(' ')
                        .append(now - 1000L * round - i % 50).append('\n');
            }
            byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
            HttpResponse<String> r = round % 2 == 0
                    ? post("/api/v1/namespaces/metrics/write?precision=ms", "Bearer " + t.writer(), gzip(body.toString()), "Content-Encoding", "gzip")
                    : post("/api/v1/namespaces/metrics/write?precision=ms", "Bearer " + t.writer(), bytes);
            assertThat(r.statusCode()).as("round %d: %s", round, r.body()).isEqualTo(204);
            expected += Math.min(sizes[round], 97 * 50); // distinct (host, time) per round: later duplicates win
        }
        assertThat(points(t, "reuse")).isEqualTo(expected);
    }
}
