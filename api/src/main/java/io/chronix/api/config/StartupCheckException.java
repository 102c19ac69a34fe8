package io.chronix.api.config;

/**
 * A setting that stops start-up. Reported by {@link StartupFailureAnalyzer} as one line naming the
 * property and the problem, with what to do, instead of a stack trace.
 */
public final class StartupCheckException extends RuntimeException {

    private final String property;
    private final String problem;
    private final String action;

    public StartupCheckException(String property, String problem, String action) {
        super(property + ": " + problem);
        this.property = property;
        this.problem = problem;
        this.action = action;
    }

    public StartupCheckException(String property, String problem, String action, Throwable cause) {
        super(property + ": " + problem, cause);
        this.property = property;
        this.problem = problem;
        this.action = action;
    }

    public String property() {
        return property;
    }

    public String problem() {
        return problem;
    }

    public String action() {
        return action;
    }
}
