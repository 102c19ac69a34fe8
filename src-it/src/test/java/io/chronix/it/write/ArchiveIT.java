package io.chronix.it.write;

import io.chronix.archive.store.S3Backend;
import io.chronix.engine.storage.NamespaceId;
import io.chronix.it.support.ExternalServices;
import io.chronix.it.support.ServiceProcess;
import io.chronix.it.write.WriteClient.Tenant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Archiving against the real stack (PostgreSQL, S3): archive over HTTP → query → restart → query. */
class ArchiveIT {

    static final String OPERATOR = "it-operator-token-archive";
    static final long NOW = System.currentTimeMillis() * 1_000_000L;
    static final long DAY = 86_400_000_000_000L;

    @TempDir
    Path data;

    private static List<String> args(ExternalServices services) {
        List<String> args = new ArrayList<>(services.args());
        args.add("--chronix.operator-token=" + OPERATOR);
        args.add("--chronix.archive.enabled=false"); // the test runs the pass itself
        return args;
    }

    private static String query(WriteClient c, String token, String sql) throws Exception {
        HttpResponse<String> r = c.json("POST", "/api/v1/namespaces/m/query", token, WriteClient.JSON.writeValueAsString(java.util.Map.of("sql", sql)));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return WriteClient.body(r).get("rows").toString();
    }

    @Test
    void archivedRowsAnswerTheSameOverHttpAndAcrossARestart() throws Exception {
        ExternalServices services = ExternalServices.fresh();
        String sql = "SELECT time, host, rack, v, n FROM cpu ORDER BY time, host";
        String expected;
        Tenant t;
        String reader;
        try (ServiceProcess service = ServiceProcess.start(data, args(services))) {
            WriteClient c = new WriteClient(service);
            t = c.tenant(OPERATOR, "archiving", null);
            assertThat(c.json("POST", "/api/v1/namespaces", t.admin(), "{\"name\": \"m\", \"coldAfter\": \"P1D\"}").statusCode()).isEqualTo(201);
            String writer = c.token(t.admin(), "[\"write:m\"]");
            reader = c.token(t.admin(), "[\"read:m\"]");
            long old = NOW - 3 * DAY;
            StringBuilder lines = new StringBuilder();
            for (int i = 0; i < 50; i++) {
                lines.append("cpu,host=h").append(i % 3).append(i % 4 == 0 ? ",rack=r1" : "").append(" v=").append(i * 0.5)
                        .append(i % 5 == 0 ? ",n=" + i + "i" : "").append(' ').append(old + i * 60_000_000_000L).append('\n');
            }
            assertThat(c.write(writer, "m", "", lines.toString()).statusCode()).isEqualTo(204);
            assertThat(c.write(writer, "m", "", "cpu,host=h9 v=99 " + NOW).statusCode()).isEqualTo(204);
            expected = query(c, reader, sql);

            HttpResponse<String> archived = c.json("POST", "/api/v1/namespaces/m/archive", t.admin(), null);
            assertThat(archived.statusCode()).as(archived.body()).isEqualTo(200);
            JsonNode r = WriteClient.body(archived);
            assertThat(r.get("segments").asInt()).isPositive();
            assertThat(r.get("rows").asLong()).isEqualTo(50);
            assertThat(r.path("failure").isNull() || r.path("failure").isMissingNode()).as(archived.body()).isTrue();
            assertThat(query(c, reader, sql)).isEqualTo(expected);
            assertThat(query(c, reader, "SELECT count(*), count(n), count(rack) FROM cpu")).isEqualTo("[[51,10,13]]");

            // the namespace list tells hot from archived once the usage report after the pass ran
            JsonNode listed = null;
            long deadline = System.nanoTime() + java.time.Duration.ofSeconds(30).toNanos();
            while (System.nanoTime() < deadline) {
                listed = WriteClient.body(c.json("GET", "/api/v1/namespaces", t.admin(), null)).get(0);
                if (listed.get("coldBytes").asLong() > 0) {
                    break;
                }
                Thread.sleep(250);
            }
            assertThat(listed.get("coldBytes").asLong()).as(listed.toString()).isPositive()
                    .isLessThanOrEqualTo(listed.get("storedBytes").asLong());
        }
        long id = WriteClient.namespaceId(services, t.id(), "m");
        try (S3Backend s3 = new S3Backend(services.s3())) {
            assertThat(s3.list(new NamespaceId(id))).isNotEmpty()
                    .allMatch(p -> p.key().matches("ns_" + id + "/shard_-?\\d+/seg_\\d+_\\d+\\.parquet"));
        }
        try (ServiceProcess service = ServiceProcess.start(data, args(services))) {
            WriteClient c = new WriteClient(service);
            assertThat(query(c, reader, sql)).isEqualTo(expected);
        }
    }
}
