package io.chronix.engine.error;

import java.nio.file.Path;

/**
 * A file carries a format version this build does not write. Versions are compared for equality:
 * there is one format per file kind, and a file that is not it is refused rather than guessed at.
 */
public final class UnsupportedFormatVersionException extends EngineException {

    private final Path path;
    private final String format;
    private final int found;
    private final int expected;

    public UnsupportedFormatVersionException(Path path, String format, int found, int expected) {
        super(describe("unsupported " + format + " version", "path", path, "found", found, "expected", expected));
        this.path = path;
        this.format = format;
        this.found = found;
        this.expected = expected;
    }

    public Path path() {
        return path;
    }

    /** Which format: {@code "WAL file"}, {@code "WAL payload"}, ... */
    public String format() {
        return format;
    }

    public int found() {
        return found;
    }

    public int expected() {
        return expected;
    }
}
