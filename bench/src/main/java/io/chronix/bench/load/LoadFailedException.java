package io.chronix.bench.load;

/** The target refused a batch (non-2xx) or the connection failed; the run stopped. */
public final class LoadFailedException extends RuntimeException {
    private final int status;

    public LoadFailedException(String message, int status, Throwable cause) {
        super(message, cause);
        this.status = status;
    }

    /** The HTTP status that failed the run, or -1 for an I/O failure. */
    public int status() {
        return status;
    }
}
