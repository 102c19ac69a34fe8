package io.chronix.api.query;

import org.springframework.context.SmartLifecycle;

/**
 * A warm-up the service runs once while it starts, in its lifecycle phase: {@link #warmUp} inside
 * {@link #start}, so the phases after it (and the application's readiness) wait for it. Nothing to
 * stop: a warm-up is over when {@code start} returns.
 */
abstract class StartupWarmUp implements SmartLifecycle {

    private final int phase;
    private volatile boolean running;

    StartupWarmUp(int phase) {
        this.phase = phase;
    }

    @Override
    public final int getPhase() {
        return phase;
    }

    @Override
    public final boolean isRunning() {
        return running;
    }

    @Override
    public final void stop() {
        running = false;
    }

    @Override
    public final void start() {
        running = true;
        warmUp();
    }

    /** Runs the warm-up, or nothing if it is turned off; a failure is logged here and startup goes on. */
    abstract void warmUp();
}
