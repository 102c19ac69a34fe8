package io.chronix.it.tenancy;

import io.chronix.it.support.ExternalServices;
import io.chronix.it.support.ServiceProcess;
import io.chronix.it.tenancy.TenancyClient.Tenant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Deleting a namespace answers 404 at once; its data is removed by a background task whose work
 * is in the database, so a service stopped before the removal ran does it after its restart.
 */
class DeletionSurvivesRestartIT {

    static final String OPERATOR = "it-operator-token-tenancy-restart";

    @TempDir
    Path data;

    @Test
    void dataOfANamespaceDeletedBeforeAStopIsRemovedAfterTheRestart() throws Exception {
        ExternalServices services = ExternalServices.fresh();
        List<String> args = new ArrayList<>(services.args());
        args.add("--chronix.operator-token=" + OPERATOR);
        List<String> noReaper = new ArrayList<>(args);
        noReaper.add("--chronix.deletion.initial-delay=PT1H");

        Path dir;
        try (ServiceProcess service = ServiceProcess.start(data, noReaper)) {
            TenancyClient client = new TenancyClient(service);
            Tenant t = client.createTenant(OPERATOR, "restart");
            client.createNamespace(t.adminToken(), "doomed");
            long id = namespaceId(services, "doomed");
            dir = data.resolve("namespaces").resolve(Long.toString(id));
            assertThat(dir.resolve("IDENTITY")).exists(); // creating a namespace makes its directory and identity, durably
            Files.createDirectories(dir.resolve("wal"));
            Files.writeString(dir.resolve("wal/wal_00000000000000000001.cxwl"), "engine data stand-in");

            assertThat(client.json("DELETE", "/api/v1/namespaces/doomed", t.adminToken(), null).statusCode()).isEqualTo(204);
            assertThat(client.json("GET", "/api/v1/namespaces/doomed", t.adminToken(), null).statusCode()).isEqualTo(404);
            assertThat(dir).exists();
        }

        try (ServiceProcess service = ServiceProcess.start(data, args)) {
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (Files.exists(dir) && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
            assertThat(dir).as(service.output()).doesNotExist();
        }
    }

    private static long namespaceId(ExternalServices s, String name) throws Exception {
        try (Connection c = DriverManager.getConnection(s.jdbcUrl(), s.dbUser(), s.dbPassword());
             PreparedStatement q = c.prepareStatement("SELECT id FROM namespaces WHERE name = ? AND deleted_at IS NULL")) {
            q.setString(1, name);
            try (ResultSet rs = q.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return rs.getLong(1);
            }
        }
    }
}
