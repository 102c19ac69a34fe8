package io.chronix.it.foundation;

import io.chronix.it.support.ServiceProcess;
import io.chronix.it.write.WriteClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The jar with no configuration at all: embedded PostgreSQL, filesystem cold tier, generated token. */
class EmbeddedDefaultsIT {

    @TempDir
    Path data;

    @Test
    void startsWithNoConfigurationAndKeepsItsTokenAndDatabaseAcrossRestarts() throws Exception {
        String token;
        try (ServiceProcess first = ServiceProcess.start(data, List.of())) {
            HttpResponse<String> health = first.get("/actuator/health", null);
            assertThat(health.body()).contains("\"db\":{\"status\":\"UP\"").contains("\"coldStore\":{\"status\":\"UP\"");

            Path tokenFile = data.resolve("operator-token");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenFile))).isEqualTo("rw-------");
            token = first.operatorTokenFromFile();
            assertThat(first.output()).containsOnlyOnce(token); // printed once, at generation

            assertThat(first.get("/api/v1/whoami", null).statusCode()).isEqualTo(401);
            HttpResponse<String> me = first.get("/api/v1/whoami", token);
            assertThat(me.statusCode()).isEqualTo(200);
            assertThat(me.body()).contains("\"kind\":\"operator\"");
            assertThat(data.resolve("postgres/PG_VERSION")).exists();
            assertThat(data.resolve("cold")).isDirectory();
            assertThat(data.resolve("namespaces")).as("no namespace yet, so no engine directory").doesNotExist();
        }

        try (ServiceProcess second = ServiceProcess.start(data, List.of())) {
            assertThat(second.operatorTokenFromFile()).isEqualTo(token);
            assertThat(second.output()).doesNotContain(token); // never printed again
            assertThat(second.output()).contains("embedded PostgreSQL started"); // reused the cluster
            assertThat(second.get("/api/v1/whoami", token).statusCode()).isEqualTo(200);
        }
    }

    /**
     * The embedded PostgreSQL is stopped by the service after everything that uses it, not by a
     * JVM hook of its own running beside Spring's: the last usage report, made while the service
     * shuts down, reaches it. With reports an hour apart that report is the only one, so the series
     * count the next start shows is its doing.
     */
    @Test
    void theLastUsageReportAtShutdownReachesTheEmbeddedDatabase() throws Exception {
        List<String> args = List.of("--chronix.usage.report-interval=PT1H");
        WriteClient.Tenant t;
        try (ServiceProcess first = ServiceProcess.start(data, args)) {
            WriteClient c = new WriteClient(first);
            t = c.tenant(first.operatorTokenFromFile(), "usage", null);
            c.namespace(t.admin(), "m");
            long now = System.currentTimeMillis() * 1_000_000L;
            HttpResponse<String> w = c.write(t.admin(), "m", "", "cpu,host=a v=1 " + now + "\ncpu,host=b v=2 " + now + "\ncpu,host=c v=3 " + now);
            assertThat(w.statusCode()).as(w.body()).isEqualTo(204);
            first.stop();
            assertThat(first.output()).doesNotContain("usage report at shutdown");
        }
        try (ServiceProcess second = ServiceProcess.start(data, args)) {
            HttpResponse<String> usage = second.get("/api/v1/usage", t.admin());
            assertThat(usage.statusCode()).isEqualTo(200);
            assertThat(WriteClient.body(usage).get("maxSeries").get("used").asLong()).as(usage.body()).isEqualTo(3);
        }
    }

    @Test
    void aSecondInstanceOnTheSameDataDirRefusesToStartNamingTheLock() throws Exception {
        try (ServiceProcess first = ServiceProcess.start(data, List.of())) {
            ServiceProcess second = ServiceProcess.launch(data, List.of());
            int status = second.awaitExit(Duration.ofSeconds(90));
            assertThat(status).isNotZero();
            assertThat(second.output())
                    .contains("chronix.data-dir: " + data.toAbsolutePath() + " is in use by another process")
                    .contains(data.resolve("LOCK").toAbsolutePath().toString())
                    .doesNotContain("\tat ");
            // the first is unharmed
            assertThat(first.get("/actuator/health", null).statusCode()).isEqualTo(200);
        }
    }

    /**
     * After {@code kill -9} of the JVM alone the embedded PostgreSQL is left running on the cluster;
     * after {@code kill -9} of both, the cluster recovers from its own log. Either way the service
     * comes back, with every acknowledged account, namespace and point, and a namespace made after
     * the crash starts empty (before, a lost row's id was handed out again, with the old directory).
     */
    @Test
    void comesBackAfterKillOfTheJvmAloneAndOfTheJvmWithItsPostgres() throws Exception {
        List<String> args = List.of();
        long now = System.currentTimeMillis() * 1_000_000L;
        WriteClient.Tenant a;
        try (ServiceProcess first = ServiceProcess.start(data, args)) {
            WriteClient c = new WriteClient(first);
            a = c.tenant(first.operatorTokenFromFile(), "a", null);
            c.namespace(a.admin(), "first");
            assertThat(c.write(a.admin(), "first", "", "cpu,owner=a v=1 " + now + "\ncpu,owner=a v=2 " + (now + 1)).statusCode()).isEqualTo(204);
            first.kill(); // the JVM alone: its PostgreSQL lives on, holding the cluster
        }
        WriteClient.Tenant b;
        try (ServiceProcess second = ServiceProcess.start(data, args)) {
            assertThat(second.output()).contains("a PostgreSQL left running by an earlier process of this service holds the embedded cluster; stopping it");
            WriteClient c = new WriteClient(second);
            assertThat(count(c, a, "first")).isEqualTo(2);
            b = c.tenant(second.operatorTokenFromFile(), "b", null);
            c.namespace(a.admin(), "second");
            assertThat(c.write(a.admin(), "second", "", "cpu,owner=a v=3 " + now).statusCode()).isEqualTo(204);
            long postmaster = Long.parseLong(Files.readAllLines(data.resolve("postgres/postmaster.pid")).getFirst().trim());
            ProcessHandle.of(postmaster).orElseThrow().destroyForcibly(); // and the database with it
            second.kill();
        }
        try (ServiceProcess third = ServiceProcess.start(data, args)) {
            WriteClient c = new WriteClient(third);
            assertThat(count(c, a, "second")).as("an acknowledged namespace and its point survive the database's crash").isEqualTo(1);
            assertThat(c.json("GET", "/api/v1/whoami", b.admin(), null).statusCode()).as("an acknowledged tenant's token").isEqualTo(200);
            c.namespace(b.admin(), "fresh");
            HttpResponse<String> m = c.json("GET", "/api/v1/namespaces/fresh/measurements", b.admin(), null);
            assertThat(m.statusCode()).isEqualTo(200);
            assertThat(WriteClient.body(m).isEmpty()).as("a new namespace of another tenant starts empty: " + m.body()).isTrue();
        }
    }

    private static long count(WriteClient c, WriteClient.Tenant t, String ns) throws Exception {
        HttpResponse<String> q = c.json("POST", "/api/v1/namespaces/" + ns + "/query", t.admin(), "{\"sql\": \"SELECT count(*) FROM cpu\"}");
        assertThat(q.statusCode()).as(q.body()).isEqualTo(200);
        return WriteClient.body(q).path("rows").path(0).path(0).asLong();
    }
}
