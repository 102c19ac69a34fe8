package io.chronix.engine.archive;

import java.util.Optional;

/**
 * What one archiving pass did.
 *
 * @param segments segments moved to the cold tier
 * @param rows rows they hold
 * @param hotBytes bytes of {@code .csx} files they took in the hot tier
 * @param objectBytes bytes of the objects written for them
 * @param pending old-enough segments the pass did not move (a failure stopped it; the next pass retries)
 * @param strayObjectsRemoved objects under the namespace's prefix no catalog entry knew (left by a crash
 *     between upload and catalog record), deleted
 * @param failure what stopped the pass, if something did
 */
public record ArchiveReport(int segments, long rows, long hotBytes, long objectBytes, int pending, int strayObjectsRemoved,
        Optional<String> failure) {

    public static ArchiveReport nothing() {
        return new ArchiveReport(0, 0, 0, 0, 0, 0, Optional.empty());
    }
}
