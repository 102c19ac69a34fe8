package io.chronix.api.embedded;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

import java.sql.SQLException;

/**
 * An external PostgreSQL that cannot be reached at start-up (refused, unknown host, bad password)
 * becomes one line naming {@code spring.datasource.url}, not the driver's stack trace.
 */
public final class DatabaseFailureAnalyzer extends AbstractFailureAnalyzer<SQLException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, SQLException cause) {
        String state = cause.getSQLState() == null ? "" : " (SQLState " + cause.getSQLState() + ")";
        return new FailureAnalysis(
                "spring.datasource.url: cannot use the configured PostgreSQL: " + cause.getMessage() + state,
                "Check spring.datasource.url, spring.datasource.username and spring.datasource.password, and that the server answers.",
                cause);
    }
}
