package io.chronix.api.embedded;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * Settings of the embedded PostgreSQL ({@code chronix.embedded-postgres.*}); unused when an
 * external database is configured.
 *
 * @param startTimeout how long start-up waits for the embedded server to accept connections. After
 *                     a crash the server first replays its own WAL, and on a busy machine that can
 *                     take far longer than a clean start, so the default is generous: a start that
 *                     gives up leaves the service down, a long wait costs only time.
 * @param stopTimeout  how long a server left running by an earlier process of this service (its
 *                     JVM killed) is given to shut down before it is killed
 */
@ConfigurationProperties("chronix.embedded-postgres")
public record EmbeddedPostgresProperties(@DefaultValue("3m") Duration startTimeout,
                                         @DefaultValue("60s") Duration stopTimeout) {

    public EmbeddedPostgresProperties {
        if (startTimeout.isNegative() || startTimeout.isZero()) {
            throw new IllegalArgumentException("chronix.embedded-postgres.start-timeout must be positive");
        }
        if (stopTimeout.isNegative() || stopTimeout.isZero()) {
            throw new IllegalArgumentException("chronix.embedded-postgres.stop-timeout must be positive");
        }
    }
}
