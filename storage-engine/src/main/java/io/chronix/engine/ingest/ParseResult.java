package io.chronix.engine.ingest;

import java.util.List;

/**
 * What one {@link LineProtocolParser#parse} call did.
 *
 * @param lines      lines that held a point or an error (blank lines and comments not counted)
 * @param points     points added to the builder
 * @param rejected   lines rejected (all of them, even past the reported ones)
 * @param errors     the first {@link LineProtocolParser#MAX_REPORTED_ERRORS} rejected lines, in order
 * @param pointLines for each point added (in builder order, starting at the builder's size before
 *                   the call), its 1-based line number; an array, not an object per point
 */
public record ParseResult(int lines, int points, int rejected, List<LineError> errors, int[] pointLines) {

    public ParseResult {
        errors = List.copyOf(errors);
    }

    public boolean hasErrors() {
        return rejected > 0;
    }

    /** The line of the {@code i}-th point this call added. */
    public int lineOfPoint(int i) {
        return pointLines[i];
    }
}
