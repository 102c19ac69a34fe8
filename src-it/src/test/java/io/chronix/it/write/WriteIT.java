package io.chronix.it.write;

import io.chronix.it.support.ExternalServices;
import io.chronix.it.support.ServiceProcess;
import io.chronix.it.write.WriteClient.Tenant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/** API.md "Write" against the real stack. */
class WriteIT {

    static final String OPERATOR = "it-operator-token-write";
    static final long BASE = System.currentTimeMillis() * 1_000_000L;

    @TempDir
    Path data;

    private List<String> args(ExternalServices services, String... more) {
        List<String> args = new ArrayList<>(services.args());
        args.add("--chronix.operator-token=" + OPERATOR);
        args.addAll(List.of(more));
        return args;
    }

    @Test
    void everyStatusCodeOfTheContractAndNothingOfARejectedRequestIsWritten() throws Exception {
        ExternalServices services = ExternalServices.fresh();
        Tenant t;
        try (ServiceProcess service = ServiceProcess.start(data, args(services))) {
            WriteClient c = new WriteClient(service);
            t = c.tenant(OPERATOR, "statuses", "{\"maxSeries\": 3, \"maxRequestBytes\": 4096}");
            c.namespace(t.admin(), "m");
            String writer = c.token(t.admin(), "[\"write:m\"]");
            String reader = c.token(t.admin(), "[\"read:m\"]");

            assertThat(c.write(writer, "m", "", "cpu,host=a v=1 " + BASE).statusCode()).isEqualTo(204);
            // 400 atomic: nothing of it
            HttpResponse<String> bad = c.write(writer, "m", "", "cpu,host=a v=2 " + (BASE + 1) + "\ncpu,host=a v= " + (BASE + 2));
            assertThat(bad.statusCode()).isEqualTo(400);
            JsonNode e = WriteClient.body(bad).get("errors").get(0);
            assertThat(e.get("line").asInt()).isEqualTo(2);
            assertThat(e.get("column").asInt()).isEqualTo(14);
            // 400 partial: the valid line is written
            HttpResponse<String> partial = c.write(writer, "m", "?accept_partial=true", "cpu,host=a v=3 " + (BASE + 3) + "\nnope");
            assertThat(partial.statusCode()).isEqualTo(400);
            assertThat(WriteClient.body(partial).get("written").asInt()).isEqualTo(1);
            // 400 not gzip
            assertThat(c.send("POST", "/api/v1/namespaces/m/write", "Bearer " + writer, "text/plain", "cpu v=1".getBytes(),
                    "Content-Encoding", "gzip").statusCode()).isEqualTo(400);
            // 401, 403, 404
            assertThat(c.write("cx_nope_nope", "m", "", "cpu v=1").statusCode()).isEqualTo(401);
            assertThat(c.write(reader, "m", "", "cpu v=1").statusCode()).isEqualTo(403);
            assertThat(c.write(writer, "other", "", "cpu v=1").statusCode()).isEqualTo(404);
            // 413 on the wire and decompressed
            String big = ("cpu,host=a v=9 " + BASE + "\n").repeat(200);
            assertThat(c.write(writer, "m", "", big).statusCode()).isEqualTo(413);
            HttpResponse<String> inflated = c.send("POST", "/api/v1/namespaces/m/write", "Bearer " + writer, "text/plain",
                    WriteClient.gzip(big), "Content-Encoding", "gzip");
            assertThat(inflated.statusCode()).isEqualTo(413);
            assertThat(WriteClient.body(inflated).get("limit").asString()).isEqualTo("maxRequestBytes");
            // 422 type conflict, 422 window, 422 series
            HttpResponse<String> type = c.write(writer, "m", "", "cpu,host=a v=1i " + (BASE + 4));
            assertThat(type.statusCode()).isEqualTo(422);
            assertThat(WriteClient.body(type).get("offeredType").asString()).isEqualTo("integer");
            HttpResponse<String> window = c.write(writer, "m", "", "cpu,host=a v=5 " + (BASE + 5) + "\ncpu,host=a v=6 " + (BASE - 86_400_000_000_000L));
            assertThat(window.statusCode()).isEqualTo(422);
            assertThat(WriteClient.body(window).get("line").asInt()).isEqualTo(2);
            HttpResponse<String> series = c.write(writer, "m", "",
                    "cpu,host=b v=7 " + (BASE + 7) + "\ncpu,host=c v=7 " + (BASE + 7) + "\ncpu,host=d v=7 " + (BASE + 7));
            assertThat(series.statusCode()).isEqualTo(422);
            assertThat(WriteClient.body(series).get("errorId").asString()).isEqualTo("quota-max-series");
            assertThat(WriteClient.body(series).get("current").asLong()).isEqualTo(1);
            // 429 with Retry-After
            assertThat(c.json("PUT", "/api/v1/tenants/" + t.id() + "/quotas", OPERATOR, "{\"maxIngestPointsPerSecond\": 1}").statusCode())
                    .isEqualTo(200);
            Thread.sleep(1100); // the service caches quotas for a second
            c.write(writer, "m", "", "cpu,host=a v=8 " + (BASE + 8) + "\ncpu,host=a v=8 " + (BASE + 9));
            HttpResponse<String> limited = c.write(writer, "m", "", "cpu,host=a v=8 " + (BASE + 10));
            assertThat(limited.statusCode()).isEqualTo(429);
            assertThat(Long.parseLong(limited.headers().firstValue("Retry-After").orElseThrow())).isPositive();
        }
        long id = WriteClient.namespaceId(services, t.id(), "m");
        // base, partial's valid line, and the two points written before the 429
        assertThat(WriteClient.rows(data.resolve("namespaces").resolve(Long.toString(id)), "cpu")).isEqualTo(4);
    }

    @Test
    void concurrentWritersToSeveralNamespacesWithIdleCloseAndReopenLoseNothing() throws Exception {
        ExternalServices services = ExternalServices.fresh();
        int namespaces = 4;
        int batches = 25;
        int perBatch = 200;
        Tenant t;
        try (ServiceProcess service = ServiceProcess.start(data, args(services, "--chronix.engine.idle-timeout=PT0.3S",
                "--chronix.engine.sweep-interval=PT0.1S"))) {
            WriteClient c = new WriteClient(service);
            t = c.tenant(OPERATOR, "concurrent", null);
            for (int n = 0; n < namespaces; n++) {
                c.namespace(t.admin(), "ns" + n);
            }
            ExecutorService pool = Executors.newFixedThreadPool(namespaces * 2);
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < namespaces * 2; w++) {
                int writer = w;
                done.add(pool.submit(() -> {
                    Random rnd = new Random(writer);
                    for (int b = 0; b < batches; b++) {
                        StringBuilder lines = new StringBuilder();
                        for (int i = 0; i < perBatch; i++) {
                            lines.append("cpu,host=h").append(i % 10).append(",writer=w").append(writer).append(" v=").append(b)
                                    .append(' ').append(BASE + (long) b * perBatch + i).append('\n');
                        }
                        HttpResponse<String> r = c.write(t.admin(), "ns" + (writer % namespaces), "", lines.toString());
                        assertThat(r.statusCode()).as(r.body()).isEqualTo(204);
                        if (rnd.nextInt(4) == 0) {
                            Thread.sleep(400 + rnd.nextInt(300)); // long enough for the engine to be closed as idle
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
            pool.shutdown();
            HttpResponse<String> metrics = c.send("GET", "/actuator/prometheus", "Bearer " + OPERATOR, null, null);
            double idleCloses = metric(metrics.body(), "chronix_engine_idle_closes_total");
            double opens = metric(metrics.body(), "chronix_engine_opens_total");
            assertThat(idleCloses).as("the test must have closed engines as idle").isPositive();
            assertThat(opens).as("and reopened them").isGreaterThan(namespaces);
        }
        for (int n = 0; n < namespaces; n++) {
            long id = WriteClient.namespaceId(services, t.id(), "ns" + n);
            assertThat(WriteClient.rows(data.resolve("namespaces").resolve(Long.toString(id)), "cpu"))
                    .as("namespace ns%d", n).isEqualTo(2L * batches * perBatch);
        }
    }

    @Test
    void writesAcknowledgedJustBeforeAKillArePresentAfterTheRestart() throws Exception {
        ExternalServices services = ExternalServices.fresh();
        Tenant t;
        int acknowledged = 0;
        try (ServiceProcess service = ServiceProcess.start(data, args(services))) {
            WriteClient c = new WriteClient(service);
            t = c.tenant(OPERATOR, "restart", null);
            c.namespace(t.admin(), "m");
            for (int b = 0; b < 30; b++) {
                StringBuilder lines = new StringBuilder();
                for (int i = 0; i < 100; i++) {
                    lines.append("cpu,host=h").append(i).append(" v=").append(b).append(' ').append(BASE + b).append('\n');
                }
                assertThat(c.write(t.admin(), "m", "", lines.toString()).statusCode()).isEqualTo(204);
                acknowledged += 100;
            }
            service.kill(); // SIGKILL right after the last 204: no flush, no clean close
        }
        try (ServiceProcess service = ServiceProcess.start(data, args(services))) {
            WriteClient c = new WriteClient(service);
            assertThat(c.write(t.admin(), "m", "", "cpu,host=h0 v=99 " + (BASE + 100)).statusCode()).isEqualTo(204);
        } // a clean stop this time: flush and close
        long id = WriteClient.namespaceId(services, t.id(), "m");
        assertThat(WriteClient.rows(data.resolve("namespaces").resolve(Long.toString(id)), "cpu")).isEqualTo(acknowledged + 1);
    }

    @Test
    void telegrafsWireFormatThroughV2WriteAndV1WithPasswordWorkUnchanged() throws Exception {
        ExternalServices services = ExternalServices.fresh();
        Tenant t;
        try (ServiceProcess service = ServiceProcess.start(data, args(services))) {
            WriteClient c = new WriteClient(service);
            t = c.tenant(OPERATOR, "telegraf", null);
            c.namespace(t.admin(), "telegraf");
            // what Telegraf's outputs.influxdb_v2 sends: gzip, Token scheme, ns precision, sorted tags
            String lines = "cpu,cpu=cpu-total,host=web01 usage_idle=98.5,usage_user=1.2 " + BASE + "\n"
                    + "mem,host=web01 available=1024i,used_percent=12.5 " + BASE + "\n"
                    + "system,host=web01 load1=0.25,uptime=3600i,uptime_format=\"1:00\" " + BASE + "\n";
            assertThat(c.send("GET", "/ping", null, null, null).statusCode()).isEqualTo(204);
            HttpResponse<String> r = c.send("POST", "/api/v2/write?bucket=telegraf&org=acme&precision=ns", "Token " + t.admin(),
                    "text/plain; charset=utf-8", WriteClient.gzip(lines), "Content-Encoding", "gzip", "User-Agent", "Telegraf/1.30.0");
            assertThat(r.statusCode()).as(r.body()).isEqualTo(204);
            HttpResponse<String> bad = c.send("POST", "/api/v2/write?bucket=telegraf&org=acme", "Token " + t.admin(), "text/plain",
                    ("disk,host=web01 free=1i " + BASE + "\ndisk,host=web01 free= " + BASE).getBytes(StandardCharsets.UTF_8));
            assertThat(bad.statusCode()).isEqualTo(400);
            assertThat(WriteClient.body(bad).get("code").asString()).isEqualTo("invalid");
            assertThat(WriteClient.body(bad).get("line").asInt()).isEqualTo(2);
            String basic = "Basic " + Base64.getEncoder().encodeToString(("telegraf:" + t.admin()).getBytes(StandardCharsets.UTF_8));
            assertThat(c.send("POST", "/write?db=telegraf&precision=s", basic, "text/plain",
                    ("net,host=web01 bytes=1i " + BASE / 1_000_000_000L).getBytes())
                    .statusCode()).isEqualTo(204);
            assertThat(c.send("POST", "/write?db=telegraf&p=" + t.admin(), null, "application/x-www-form-urlencoded",
                    ("net,host=web01 bytes=2i " + BASE).getBytes()).statusCode()).isEqualTo(204);
        }
        Path dir = data.resolve("namespaces").resolve(Long.toString(WriteClient.namespaceId(services, t.id(), "telegraf")));
        assertThat(WriteClient.rows(dir, "cpu")).isEqualTo(1);
        assertThat(WriteClient.rows(dir, "system")).isEqualTo(1);
        assertThat(WriteClient.rows(dir, "disk")).as("InfluxDB semantics: the valid line of a bad request is written").isEqualTo(1);
        assertThat(WriteClient.rows(dir, "net")).isEqualTo(2);
    }

    private static double metric(String prometheus, String name) {
        double sum = 0;
        for (String line : prometheus.split("\n")) {
            if (line.startsWith(name + " ") || line.startsWith(name + "{")) {
                sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return sum;
    }
}
