package io.chronix.it.storage;

import io.chronix.it.support.ExternalServices;
import io.chronix.it.support.ServiceProcess;
import io.chronix.it.support.Tmpfs;
import io.chronix.it.write.WriteClient;
import io.chronix.it.write.WriteClient.Tenant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A full disk, for real: the namespaces' directory is a 16 MiB tmpfs, filled up with a file. Writes
 * answer 507 {@code insufficient-storage}, readiness is DOWN with {@code diskSpace} naming the full
 * directory; once the file is removed, readiness is UP and writes are accepted again — no restart —
 * and every acknowledged point is there.
 */
class DiskFullIT {

    static final String OPERATOR = "it-operator-token-disk-full";

    @TempDir
    Path data;

    @Test
    void aFullDiskAnswers507TakesReadinessDownAndWritesComeBackOnceSpaceIsFreed() throws Exception {
        List<String> args = new ArrayList<>(ExternalServices.fresh().args());
        args.add("--chronix.operator-token=" + OPERATOR);
        args.add("--chronix.engine.disk-free-threshold=4MB");
        try (Tmpfs disk = Tmpfs.mount(data.resolve("namespaces"), 16);
             ServiceProcess service = ServiceProcess.start(data, args)) {
            WriteClient c = new WriteClient(service);
            Tenant t = c.tenant(OPERATOR, "disk-full", null);
            c.namespace(t.admin(), "m");
            Random rnd = new Random(7);
            long acked = 0;
            long ts = System.currentTimeMillis() * 1_000_000L;
            assertThat(c.write(t.admin(), "m", "", "cpu,host=a v=1 " + ts).statusCode()).isEqualTo(204); // its engine is on the tmpfs
            acked++;
            JsonNode healthy = WriteClient.body(service.get("/actuator/health", OPERATOR));
            assertThat(healthy.at("/components/diskSpace/status").asString()).isEqualTo("UP");
            assertThat(healthy.at("/components/diskSpace/details/namespaces/path").asString())
                    .as("the namespaces' own file system is watched").isEqualTo(disk.path().toString());

            long filled = disk.fill("filler");
            assertThat(filled).isPositive();
            // the WAL keeps zeros written ahead of its records: small writes may still land there; a few
            // writes of ~100 KB use them up and meet the full disk
            HttpResponse<String> full = null;
            for (int i = 0; i < 40 && full == null; i++) {
                StringBuilder lines = new StringBuilder();
                for (int p = 0; p < 2000; p++) {
                    lines.append("cpu,host=h").append(p % 50).append(" v=").append(rnd.nextDouble()).append(' ').append(++ts).append('\n');
                }
                HttpResponse<String> r = c.write(t.admin(), "m", "", lines.toString());
                if (r.statusCode() == 204) {
                    acked += 2000;
                } else {
                    assertThat(r.statusCode()).as(r.body()).isEqualTo(507);
                    full = r;
                }
            }
            assertThat(full).as("a write met the full disk").isNotNull();
            JsonNode problem = WriteClient.body(full);
            assertThat(full.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
            assertThat(problem.get("errorId").asString()).isEqualTo("insufficient-storage");
            assertThat(problem.get("type").asString()).isEqualTo("urn:chronix:problem:insufficient-storage");
            assertThat(problem.get("status").asInt()).isEqualTo(507);
            assertThat(problem.get("title").asString()).isNotBlank();
            assertThat(problem.get("detail").asString()).contains("disk is full");
            assertThat(problem.get("written").asInt()).isZero();

            HttpResponse<String> ready = service.get("/actuator/health/readiness", null);
            assertThat(ready.statusCode()).as("not ready on a full disk: " + ready.body()).isEqualTo(503);
            JsonNode health = WriteClient.body(service.get("/actuator/health", OPERATOR));
            assertThat(health.at("/components/diskSpace/status").asString()).isEqualTo("DOWN");
            assertThat(health.at("/components/diskSpace/details/namespaces/path").asString()).isEqualTo(disk.path().toString());
            assertThat(service.get("/actuator/health/liveness", null).statusCode()).as("alive all the same").isEqualTo(200);

            Files.delete(disk.path().resolve("filler"));
            assertThat(service.get("/actuator/health/readiness", null).statusCode()).as("ready again, no restart").isEqualTo(200);
            assertThat(c.write(t.admin(), "m", "", "cpu,host=a v=2 " + (++ts)).statusCode()).isEqualTo(204);
            acked++;
            HttpResponse<String> count = c.send("GET", "/api/v1/namespaces/m/query?sql=SELECT%20count(*)%20FROM%20cpu",
                    "Bearer " + t.admin(), null, null);
            assertThat(WriteClient.body(count).get("rows").get(0).get(0).asLong()).as("every acknowledged point, nothing else")
                    .isEqualTo(acked);
            service.stop(); // before the tmpfs goes
        }
    }
}
