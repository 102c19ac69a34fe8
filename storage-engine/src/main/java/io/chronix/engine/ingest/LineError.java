package io.chronix.engine.ingest;

/**
 * One rejected line.
 *
 * @param line    1-based line number in the body
 * @param column  1-based column (in characters, not bytes) where parsing stopped
 * @param message what was wrong and what was expected there
 */
public record LineError(int line, int column, String message) {
}
