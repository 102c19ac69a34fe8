package io.chronix.it.storage;

import io.chronix.it.support.ExternalServices;
import io.chronix.it.support.ServiceProcess;
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

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A failing fsync, through the jar's test-only fault switch ({@code -Dchronix.test.inject-faults}:
 * every engine fsync fails while a trigger file exists). The WAL poisons: the write whose fsync
 * failed and every later one answer 503 {@code storage-unavailable} with {@code Retry-After},
 * readiness is DOWN with the {@code engine} component naming the namespace, and it stays so while
 * the device fails. Once it works the service reopens the namespace by itself: writes are accepted,
 * readiness is UP, and the namespace holds every acknowledged point and none of the refused ones —
 * also after a kill and a restart, which replays the WAL.
 */
class FsyncFailureIT {

    static final String OPERATOR = "it-operator-token-fsync";

    @TempDir
    Path data;
    @TempDir
    Path faults;

    @Test
    void aFailedFsyncIs503AndNotReadyUntilTheServiceHasReopenedTheNamespaceFromWhatWasSynced() throws Exception {
        List<String> args = new ArrayList<>(ExternalServices.fresh().args());
        args.add("--chronix.operator-token=" + OPERATOR);
        args.add("--chronix.engine.storage-retry-interval=1s");
        List<String> jvm = List.of("-Xmx512m", "-Dchronix.test.inject-faults=" + faults);
        Path trigger = faults.resolve("fail-fsync");
        long t0 = System.currentTimeMillis() * 1_000_000L;
        Tenant t;
        try (ServiceProcess service = ServiceProcess.start(data, jvm, args)) {
            assertThat(service.output()).as("the switch says it is on").contains("TEST-ONLY STORAGE FAULT INJECTION IS ON");
            WriteClient c = new WriteClient(service);
            t = c.tenant(OPERATOR, "fsync", null);
            c.namespace(t.admin(), "m");
            assertThat(c.write(t.admin(), "m", "", "cpu v=1 " + t0).statusCode()).isEqualTo(204);

            Files.createFile(trigger);
            HttpResponse<String> failed = c.write(t.admin(), "m", "", "cpu v=2 " + (t0 + 1));
            assertThat(failed.statusCode()).as(failed.body()).isEqualTo(503);
            assertThat(failed.headers().firstValue("Retry-After")).as("a limit that passes").isPresent();
            JsonNode problem = WriteClient.body(failed);
            assertThat(problem.get("errorId").asString()).isEqualTo("storage-unavailable");
            assertThat(problem.get("type").asString()).isEqualTo("urn:chronix:problem:storage-unavailable");
            assertThat(problem.get("fault").asString()).isEqualTo("fsync-failed");
            assertThat(problem.get("written").asInt()).isZero();

            Thread.sleep(2500); // past two retry intervals: the device still fails, so nothing recovers
            assertThat(c.write(t.admin(), "m", "", "cpu v=3 " + (t0 + 2)).statusCode())
                    .as("nothing after the failed fsync is acknowledged").isEqualTo(503);
            assertThat(service.get("/actuator/health/readiness", null).statusCode()).isEqualTo(503);
            assertThat(service.get("/actuator/health/liveness", null).statusCode()).isEqualTo(200);
            JsonNode health = WriteClient.body(service.get("/actuator/health", OPERATOR));
            assertThat(health.at("/components/engine/status").asString()).isEqualTo("DOWN");
            assertThat(health.at("/components/engine/details/failingNamespaces").toString()).contains("SYNC_FAILED");
            assertThat(health.at("/components/engine/details/testFaultInjection").asString()).isEqualTo(faults.toString());

            Files.delete(trigger); // the device works again
            long deadline = System.nanoTime() + 30_000_000_000L;
            int status = 0;
            while (System.nanoTime() < deadline && service.get("/actuator/health/readiness", null).statusCode() != 200) {
                Thread.sleep(200);
            }
            assertThat(service.get("/actuator/health/readiness", null).statusCode()).as("ready again, no restart").isEqualTo(200);
            status = c.write(t.admin(), "m", "", "cpu v=4 " + (t0 + 3)).statusCode();
            assertThat(status).isEqualTo(204);
            assertThat(values(c, t)).as("the acknowledged points; the refused ones not brought back").isEqualTo("[[1.0],[4.0]]");
            assertThat(service.output()).contains("namespace engine open again after a storage failure");
            service.kill();
        }
        try (ServiceProcess service = ServiceProcess.start(data, jvm, args)) {
            assertThat(values(new WriteClient(service), t)).as("after a kill: the WAL replayed").isEqualTo("[[1.0],[4.0]]");
        }
    }

    private static String values(WriteClient c, Tenant t) throws Exception {
        HttpResponse<String> r = c.send("GET", "/api/v1/namespaces/m/query?sql=SELECT%20v%20FROM%20cpu%20ORDER%20BY%20time",
                "Bearer " + t.admin(), null, null);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return WriteClient.body(r).get("rows").toString();
    }
}
