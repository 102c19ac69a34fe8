package io.chronix.api.embedded;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.chronix.api.config.DataDirectory;
import io.chronix.api.config.StartupCheckException;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

import javax.sql.DataSource;
import java.io.IOException;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

/**
 * Starts PostgreSQL from the embedded binaries on a free loopback port, with its cluster under
 * {@code <data>/postgres} (kept across restarts), and gives the application a pooled DataSource to
 * it. The port is chosen afresh at each start; nothing outside this process connects to it.
 *
 * <p>Durability: the accounts, tokens, revocations and namespaces in this database are acknowledged
 * to clients like points are, so the server runs with {@code fsync}, {@code synchronous_commit} and
 * {@code full_page_writes} on — the library's defaults turn the first two off (it is made for tests),
 * which lost acknowledged namespaces and brought revoked tokens back after a kill -9. A commit the
 * service acknowledges is on disk.
 *
 * <p>Coming back: a server left running by a killed JVM is stopped first ({@link LeftoverPostmaster}),
 * and the wait for the server is {@link EmbeddedPostgresProperties#startTimeout()}, long enough for
 * its crash recovery on a busy machine.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(NoExternalDatabase.class)
@EnableConfigurationProperties(EmbeddedPostgresProperties.class)
class EmbeddedPostgresConfiguration {

    /** Server settings that make a commit durable; each overrides the library's test-friendly default. */
    static final Map<String, String> DURABLE_SETTINGS = Map.of(
            "fsync", "on", // after the library's own -F (fsync off) on the command line: the later setting wins
            "synchronous_commit", "on",
            "full_page_writes", "on");

    private static final Logger log = LoggerFactory.getLogger(EmbeddedPostgresConfiguration.class);

    @Bean(destroyMethod = "close")
    EmbeddedPostgres embeddedPostgres(DataDirectory data, EmbeddedPostgresProperties properties) {
        try {
            Files.createDirectories(data.postgres());
            boolean fresh = isEmpty(data);
            LeftoverPostmaster.stop(data.postgres(), properties.stopTimeout());
            log.info("starting the embedded PostgreSQL; waiting up to {} for it to accept connections"
                    + " (after a crash it first recovers from its own log) [dir={}]", properties.startTimeout(), data.postgres());
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setDataDirectory(data.postgres())
                    .setCleanDataDirectory(false)
                    .setPGStartupWait(properties.startTimeout())
                    // stopped by this bean's close, after everything using the database: the library's
                    // own JVM shutdown hook would stop it at once, beside Spring's, under the last
                    // usage report and the connection pool's close
                    .setRegisterShutdownHook(false);
            DURABLE_SETTINGS.forEach(builder::setServerConfig);
            long started = System.nanoTime();
            EmbeddedPostgres pg = builder.start();
            verifyDurable(pg);
            log.info("embedded PostgreSQL {} in {} ms [dir={}, port={}, fsync=on, synchronous_commit=on]",
                    fresh ? "initialised and started" : "started", (System.nanoTime() - started) / 1_000_000, data.postgres(), pg.getPort());
            return pg;
        } catch (IOException | RuntimeException e) {
            throw new StartupCheckException("chronix.data-dir",
                    "cannot start the embedded PostgreSQL in " + data.postgres() + " (" + e.getMessage() + ")",
                    "Check that the directory is intact and not used by another PostgreSQL, or set spring.datasource.url to an external PostgreSQL.", e);
        }
    }

    @Bean(destroyMethod = "close")
    DataSource dataSource(EmbeddedPostgres pg) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("chronix-embedded");
        config.setJdbcUrl(pg.getJdbcUrl("postgres", "postgres"));
        config.setUsername("postgres");
        config.setMaximumPoolSize(10);
        return new HikariDataSource(config);
    }

    /**
     * Refuses to run on a server whose settings would lose acknowledged commits: the settings are
     * read back from the running server, so a library change that stops passing them is caught here.
     */
    static void verifyDurable(EmbeddedPostgres pg) {
        try (Connection c = pg.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            for (String name : DURABLE_SETTINGS.keySet()) {
                try (ResultSet rs = s.executeQuery("SHOW " + name)) {
                    rs.next();
                    String value = rs.getString(1);
                    if (!"on".equals(value)) {
                        pg.close();
                        throw new IllegalStateException("the embedded PostgreSQL runs with " + name + "=" + value + "; acknowledged changes could be lost");
                    }
                }
            }
        } catch (SQLException | IOException e) {
            throw new IllegalStateException("cannot read the embedded PostgreSQL's settings (" + e.getMessage() + ")", e);
        }
    }

    private static boolean isEmpty(DataDirectory data) throws IOException {
        try (var entries = Files.list(data.postgres())) {
            return entries.findAny().isEmpty();
        }
    }
}
