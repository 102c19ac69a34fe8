package io.chronix.engine.error;

/**
 * A write would take the engine's live series count past the limit it was given. Names the limit,
 * the live count before the write and how many new series the batch brings. Nothing of the batch
 * is written.
 */
public final class SeriesLimitExceededException extends EngineException {

    private final long limit;
    private final long current;
    private final long adding;

    public SeriesLimitExceededException(long limit, long current, long adding) {
        super(describe("write would exceed the series limit", "limit", limit, "current", current, "adding", adding));
        this.limit = limit;
        this.current = current;
        this.adding = adding;
    }

    public long limit() {
        return limit;
    }

    /** Live series before the write. */
    public long current() {
        return current;
    }

    /** New series the refused batch would have added. */
    public long adding() {
        return adding;
    }
}
