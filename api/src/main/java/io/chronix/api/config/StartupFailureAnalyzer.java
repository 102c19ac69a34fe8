package io.chronix.api.config;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns a {@link StartupCheckException} anywhere in the cause chain into Boot's short failure
 * report ("Description" / "Action"), so an operator reads one line, not 200 lines of stack.
 */
public final class StartupFailureAnalyzer extends AbstractFailureAnalyzer<StartupCheckException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, StartupCheckException cause) {
        return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
    }
}
