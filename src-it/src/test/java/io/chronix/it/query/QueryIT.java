package io.chronix.it.query;

import io.chronix.it.support.ExternalServices;
import io.chronix.it.support.ServiceProcess;
import io.chronix.it.write.WriteClient;
import io.chronix.it.write.WriteClient.Tenant;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import java.io.ByteArrayInputStream;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * API.md "Query" against the real stack: points written over HTTP come back through SQL in every
 * answer format, with NULLs and last-write-wins intact, after a clean restart and after a kill;
 * errors, scopes and tenant isolation as the contract says.
 */
class QueryIT {

    static final String OPERATOR = "it-operator-token-query";
    /** A recent second (inside the write window), so the nanosecond part is ours. */
    static final long T = (System.currentTimeMillis() / 1000 - 60) * 1_000_000_000L;

    @TempDir
    Path data;

    private List<String> args(ExternalServices services) {
        List<String> args = new ArrayList<>(services.args());
        args.add("--chronix.operator-token=" + OPERATOR);
        return args;
    }

    private record Setup(Tenant tenant, String reader, String writer) {
    }

    @Test
    void pointsWrittenOverHttpComeBackThroughSqlInEveryFormatAcrossARestartAndAKill() throws Exception {
        ExternalServices services = ExternalServices.fresh();
        Setup s;
        try (ServiceProcess service = ServiceProcess.start(data, args(services))) {
            WriteClient c = new WriteClient(service);
            Tenant a = c.tenant(OPERATOR, "query-a", null);
            c.namespace(a.admin(), "m");
            c.namespace(a.admin(), "other");
            s = new Setup(a, c.token(a.admin(), "[\"read:m\"]"), c.token(a.admin(), "[\"write:m\"]"));
            Tenant b = c.tenant(OPERATOR, "query-b", null);
            c.namespace(b.admin(), "m");
            assertThat(c.write(b.admin(), "m", "", "cpu,host=zzz usage=100 " + T).statusCode()).isEqualTo(204);

            assertThat(c.write(s.writer(), "m", "", String.join("\n",
                    "cpu,host=a usage=1.5,n=1i " + T,
                    "cpu,host=a usage=2.5 " + (T + 1),
                    "cpu,host=b n=7i " + (T + 123_456_789),
                    "cpu,host=b,dc=east usage=0 " + (T + 2),
                    "cpu,host=a usage=9.5 " + (T + 1))).statusCode()).isEqualTo(204); // the last line overwrites the second

            answersAreRight(c, s, "memtable");
            // errors, scopes and isolation
            HttpResponse<String> syntax = query(c, s.reader(), "m", "SELECT host FROM cpu WHERE", "application/json");
            assertThat(syntax.statusCode()).isEqualTo(400);
            assertThat(WriteClient.body(syntax).get("errorType").asString()).isEqualTo("Parser Error");
            HttpResponse<String> unknown = query(c, s.reader(), "m", "SELECT * FROM  mem", "application/json");
            assertThat(unknown.statusCode()).isEqualTo(400);
            assertThat(WriteClient.body(unknown).get("detail").asString()).contains("'mem'");
            assertThat(WriteClient.body(unknown).get("position").asInt()).isEqualTo(15);
            assertThat(query(c, s.reader(), "m", "SELECT * FROM read_csv('/etc/passwd')", "application/json").statusCode())
                    .isEqualTo(400);
            assertThat(query(c, s.writer(), "m", "SELECT 1", "application/json").statusCode()).as("a write token cannot read")
                    .isEqualTo(403);
            assertThat(query(c, s.reader(), "other", "SELECT 1", "application/json").statusCode())
                    .as("a token for m cannot read the tenant's other namespace").isEqualTo(403);
            JsonNode bCount = WriteClient.body(query(c, a.admin(), "m", "SELECT count(*) FROM cpu WHERE host = 'zzz'", "application/json"));
            assertThat(bCount.get("rows").get(0).get(0).asLong()).as("tenant b's point is not in tenant a's m").isZero();
            assertThat(c.send("GET", "/api/v1/namespaces/nope/query?sql=SELECT%201", "Bearer " + s.reader(), null, null).statusCode())
                    .isEqualTo(404);
            getAndPostAnswerAlike(c, s);
        } // clean stop: flush and close
        try (ServiceProcess service = ServiceProcess.start(data, args(services))) {
            WriteClient c = new WriteClient(service);
            answersAreRight(c, s, "after a clean restart (segments)");
            assertThat(c.write(s.writer(), "m", "", "cpu,host=c usage=3 " + (T + 5)).statusCode()).isEqualTo(204);
            service.kill();
        }
        try (ServiceProcess service = ServiceProcess.start(data, args(services))) {
            WriteClient c = new WriteClient(service);
            JsonNode r = WriteClient.body(query(c, s.reader(), "m", "SELECT host, usage FROM cpu WHERE host = 'c'", "application/json"));
            assertThat(r.get("rows").toString()).as("the point acknowledged just before the kill").isEqualTo("[[\"c\",3.0]]");
            answersAreRight(c, s, "after a kill (segments + WAL replay)");
        }
    }

    private void answersAreRight(WriteClient c, Setup s, String when) throws Exception {
        // JSON: NULLs are absent values, last write wins
        HttpResponse<String> json = query(c, s.reader(), "m",
                "SELECT host, count(*), count(usage), avg(usage), sum(n) FROM cpu WHERE host IN ('a', 'b') GROUP BY host ORDER BY host",
                "application/json");
        assertThat(json.statusCode()).as(when + ": " + json.body()).isEqualTo(200);
        assertThat(WriteClient.body(json).get("rows").toString()).as(when).isEqualTo("[[\"a\",2,2,5.5,1],[\"b\",2,1,0.0,7]]");
        assertThat(json.headers().firstValue("X-Chronix-Scan-Rows")).as(when).isPresent();
        // nanosecond timestamps, RFC 3339
        JsonNode times = WriteClient.body(query(c, s.reader(), "m", "SELECT time FROM cpu WHERE host = 'b' AND dc IS NULL", "application/json"));
        assertThat(times.get("columns").get(0).get("type").asString()).isEqualTo("TIMESTAMP");
        assertThat(times.get("rows").get(0).get(0).asString()).as(when).endsWith(".123456789Z");
        // CSV: NULL is an empty field
        HttpResponse<String> csv = query(c, s.reader(), "m", "SELECT host, dc, usage FROM cpu WHERE host IN ('a', 'b') ORDER BY host, time",
                "text/csv");
        assertThat(csv.body()).as(when).isEqualTo("host,dc,usage\r\na,,1.5\r\na,,9.5\r\nb,east,0.0\r\nb,,\r\n");
        // Arrow IPC stream, every column in canonical order
        HttpRequest.Builder arrow = HttpRequest.newBuilder(c.uri("/api/v1/namespaces/m/query"))
                .header("Authorization", "Bearer " + s.reader()).header("Content-Type", "application/json")
                .header("Accept", "application/vnd.apache.arrow.stream")
                .POST(HttpRequest.BodyPublishers.ofString("{\"sql\": \"SELECT * FROM cpu WHERE host IN ('a', 'b') ORDER BY time, host\"}"));
        HttpResponse<byte[]> bytes = HttpClient.newHttpClient().send(arrow.build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(bytes.statusCode()).as(when).isEqualTo(200);
        List<String> rows = new ArrayList<>();
        List<String> names = new ArrayList<>();
        try (BufferAllocator allocator = new RootAllocator();
             ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(bytes.body()), allocator)) {
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            root.getSchema().getFields().forEach(f -> names.add(f.getName()));
            while (reader.loadNextBatch()) {
                for (int r = 0; r < root.getRowCount(); r++) {
                    StringBuilder sb = new StringBuilder();
                    for (FieldVector v : root.getFieldVectors()) {
                        sb.append(v.isNull(r) ? "null" : v.getObject(r)).append('|');
                    }
                    rows.add(sb.toString());
                }
            }
        }
        assertThat(names).as(when).containsExactly("time", "dc", "host", "n", "usage");
        assertThat(rows).as(when).hasSize(4);
        assertThat(rows.get(0)).as(when).endsWith("|null|a|1|1.5|");
        assertThat(rows.get(1)).as(when).endsWith("|null|a|null|9.5|");
        // measurements, columns, last
        assertThat(c.send("GET", "/api/v1/namespaces/m/measurements", "Bearer " + s.reader(), null, null).body()).isEqualTo("[\"cpu\"]");
        JsonNode cols = WriteClient.body(c.send("GET", "/api/v1/namespaces/m/measurements/cpu", "Bearer " + s.reader(), null, null));
        List<String> kinds = new ArrayList<>();
        cols.get("columns").forEach(col -> kinds.add(col.get("name").asString() + ":" + col.get("kind").asString() + ":" + col.get("type").asString()));
        assertThat(kinds).containsExactly("time:time:TIMESTAMP", "dc:tag:VARCHAR", "host:tag:VARCHAR", "n:field:BIGINT", "usage:field:DOUBLE");
        JsonNode last = WriteClient.body(c.send("GET", "/api/v1/namespaces/m/last?measurement=cpu&tag.host=a", "Bearer " + s.reader(), null, null));
        assertThat(last.get("rows")).as(when).hasSize(1);
        assertThat(last.get("rows").get(0).toString()).as(when).endsWith(",null,\"a\",null,9.5]");
    }

    /**
     * The same statement as a GET parameter and as a POST body: for answers and for every error,
     * the same status, body and headers (all but the date and framing).
     */
    private void getAndPostAnswerAlike(WriteClient c, Setup s) throws Exception {
        String sum = "SELECT host, count(*) AS n FROM cpu GROUP BY host ORDER BY host";
        List<List<String>> cases = List.of(
                List.of("Bearer " + s.reader(), "m", sum, "application/json", "200"),
                List.of("Bearer " + s.reader(), "m", sum, "text/csv", "200"),
                List.of("Token " + s.reader(), "m", sum, "application/vnd.apache.arrow.stream", "200"),
                List.of("Bearer " + s.reader(), "m", "SELECT host FROM cpu WHERE", "application/json", "400"),
                List.of("Bearer " + s.reader(), "m", "SELECT * FROM  mem", "application/json", "400"),
                List.of("Bearer " + s.reader(), "m", " ", "application/json", "400"),
                List.of("Bearer " + s.reader(), "m", "SELECT 1", "image/png", "406"),
                List.of("Bearer " + s.writer(), "m", "SELECT 1", "application/json", "403"),
                List.of("Bearer " + s.reader(), "other", "SELECT 1", "application/json", "403"),
                List.of("Bearer " + s.reader(), "nope", "SELECT 1", "application/json", "404"),
                List.of("Bearer " + OPERATOR, "m", "SELECT 1", "application/json", "403"),
                List.of("Bearer not-a-token", "m", "SELECT 1", "application/json", "401"));
        java.util.Set<String> framing = java.util.Set.of("date", "content-length", "transfer-encoding", "connection", "keep-alive");
        for (List<String> k : cases) {
            String path = "/api/v1/namespaces/" + k.get(1) + "/query";
            HttpResponse<String> get = c.send("GET", path + "?sql=" + URLEncoder.encode(k.get(2), StandardCharsets.UTF_8),
                    k.get(0), null, null, "Accept", k.get(3));
            HttpResponse<String> post = c.send("POST", path, k.get(0), "application/json",
                    tools.jackson.databind.json.JsonMapper.builder().build().writeValueAsBytes(java.util.Map.of("sql", k.get(2))),
                    "Accept", k.get(3));
            String what = k.subList(1, 5).toString();
            assertThat(get.statusCode()).as(what + " " + get.body()).isEqualTo(Integer.parseInt(k.get(4)));
            assertThat(post.statusCode()).as(what).isEqualTo(get.statusCode());
            assertThat(get.body()).as(what).isEqualTo(post.body());
            java.util.Map<String, List<String>> getHeaders = new java.util.TreeMap<>(get.headers().map());
            java.util.Map<String, List<String>> postHeaders = new java.util.TreeMap<>(post.headers().map());
            getHeaders.keySet().removeIf(framing::contains);
            postHeaders.keySet().removeIf(framing::contains);
            assertThat(getHeaders).as(what).isEqualTo(postHeaders);
            if (get.statusCode() == 200) {
                assertThat(getHeaders).as(what).containsKeys("x-content-type-options", "x-frame-options", "cache-control", "x-chronix-scan");
            }
        }
    }

    private static HttpResponse<String> query(WriteClient c, String token, String ns, String sql, String accept) throws Exception {
        String path = "/api/v1/namespaces/" + ns + "/query?sql=" + URLEncoder.encode(sql, StandardCharsets.UTF_8);
        return c.send("GET", path, "Bearer " + token, null, null, "Accept", accept);
    }
}
