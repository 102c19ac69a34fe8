package io.chronix.api.embedded;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.chronix.api.config.DataDirectory;
import io.chronix.api.config.StartupCheckException;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

import javax.sql.DataSource;
import java.io.IOException;
import java.nio.file.Files;

/**
 * Starts PostgreSQL from the embedded binaries on a free loopback port, with its cluster under
 * {@code <data>/postgres} (kept across restarts), and gives the application a pooled DataSource to
 * it. The port is chosen afresh at each start; nothing outside this process connects to it.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(NoExternalDatabase.class)
class EmbeddedPostgresConfiguration {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedPostgresConfiguration.class);

    @Bean(destroyMethod = "close")
    EmbeddedPostgres embeddedPostgres(DataDirectory data) {
        try {
            Files.createDirectories(data.postgres());
            boolean fresh = isEmpty(data);
            EmbeddedPostgres pg = EmbeddedPostgres.builder()
                    .setDataDirectory(data.postgres())
                    .setCleanDataDirectory(false)
                    // stopped by this bean's close, after everything using the database: the library's
                    // own JVM shutdown hook would stop it at once, beside Spring's, under the last
                    // usage report and the connection pool's close
                    .setRegisterShutdownHook(false)
                    .start();
            log.info("embedded PostgreSQL {} [dir={}, port={}]", fresh ? "initialised and started" : "started", data.postgres(), pg.getPort());
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

    private static boolean isEmpty(DataDirectory data) throws IOException {
        try (var entries = Files.list(data.postgres())) {
            return entries.findAny().isEmpty();
        }
    }
}
