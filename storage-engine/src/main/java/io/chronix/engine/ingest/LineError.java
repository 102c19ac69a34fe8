package io.chronix.engine.ingest;

/**
 * One rejected line.
 *
 * @param line    1-based line number in the body
 * @param column  1-based column (in characters, not bytes) where parsing stopped; for a line over a
 *                {@link LineLimit}, where the element over it starts (the line itself: column 1)
 * @param message what was wrong and what was expected there; a limit's message names it and its value
 * @param limit   the limit the line went over, or {@code null} when the line is malformed otherwise
 */
public record LineError(int line, int column, String message, LineLimit limit) {

    /** A line that is not valid line protocol (no limit involved). */
    public LineError(int line, int column, String message) {
        this(line, column, message, null);
    }
}
