package io.chronix.api.embedded;

import io.chronix.api.config.DataDirectory;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The embedded PostgreSQL keeps acknowledged commits and comes back after the service's JVM is
 * killed: a real server, started by a child JVM that is then killed with SIGKILL, as an operator's
 * {@code kill -9} would.
 */
class EmbeddedPostgresRestartTest {

    @TempDir Path tmp;

    /** The child: starts the embedded server on the given cluster as the service does, says so, and waits to be killed. */
    public static void main(String[] args) throws Exception {
        EmbeddedPostgres pg = EmbeddedPostgres.builder().setDataDirectory(Path.of(args[0])).setCleanDataDirectory(false)
                .setRegisterShutdownHook(false).start();
        System.out.println("READY " + pg.getPort());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }

    @Test
    void aServerLeftRunningByAKilledJvmIsStoppedAndTheNextStartSucceedsDurably() throws Exception {
        DataDirectory data = DataDirectory.open(tmp.resolve("data"));
        try {
            Files.createDirectories(data.postgres());
            String java = ProcessHandle.current().info().command().orElseThrow();
            Process child = new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"),
                    EmbeddedPostgresRestartTest.class.getName(), data.postgres().toString())).redirectErrorStream(true).start();
            try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null && !line.startsWith("READY")) {
                    // the library's log lines
                }
                assertThat(line).as("the child started its server").startsWith("READY");
                child.destroyForcibly(); // SIGKILL: no shutdown hook, no pg_ctl stop
                assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            }
            Optional<ProcessHandle> leftover = LeftoverPostmaster.find(data.postgres());
            assertThat(leftover).as("the server outlives the killed JVM: this is what the next start must deal with").isPresent();

            EmbeddedPostgres pg = new EmbeddedPostgresConfiguration().embeddedPostgres(data,
                    new EmbeddedPostgresProperties(Duration.ofMinutes(2), Duration.ofSeconds(60)));
            try {
                assertThat(leftover.get().isAlive()).isFalse();
                try (Connection c = pg.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
                    for (String setting : List.of("fsync", "synchronous_commit", "full_page_writes")) {
                        try (ResultSet rs = s.executeQuery("SHOW " + setting)) {
                            rs.next();
                            assertThat(rs.getString(1)).as(setting).isEqualTo("on");
                        }
                    }
                }
            } finally {
                pg.close();
            }
            assertThat(LeftoverPostmaster.find(data.postgres())).as("closed cleanly: nothing left").isEmpty();
        } finally {
            LeftoverPostmaster.stop(data.postgres(), Duration.ofSeconds(30)); // never leave a server behind a failed test
            data.close();
        }
    }

    @Test
    void noServerIsFoundWhereThereIsNone() throws Exception {
        Path cluster = Files.createDirectories(tmp.resolve("cluster"));
        assertThat(LeftoverPostmaster.find(cluster)).isEmpty();
        // a pid file naming a live process that is not a postgres on this cluster: this JVM
        Files.writeString(cluster.resolve("postmaster.pid"), ProcessHandle.current().pid() + "\n" + cluster + "\n");
        assertThat(LeftoverPostmaster.find(cluster)).isEmpty();
        assertThat(LeftoverPostmaster.stop(cluster, Duration.ofSeconds(1))).isEmpty();
        assertThat(ProcessHandle.current().isAlive()).isTrue();
    }
}
