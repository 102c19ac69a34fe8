package io.chronix.engine.segment;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A segment's name relative to the namespace's {@code segments/} directory:
 * {@code shard_{id}/seg_{nanos}_{counter}.csx}. This is what the catalog stores, so a data
 * directory is relocatable; {@link #resolve(Path)} is the only way to an openable path.
 *
 * <p>The type can only hold names of exactly that shape: {@link #parse(String)} refuses anything
 * else — an absolute path, a second separator, a {@code ..} or {@code .} component, a backslash,
 * leading zeros or a sign where none belongs — so a catalog read off disk cannot name a file outside
 * the database. The shard id may be negative (a shard before 1970); nanos and counter may not.
 *
 * <p>Immutable.
 */
public record SegmentFile(long shardId, long nanos, long counter) implements Comparable<SegmentFile> {

    public static final String SHARD_PREFIX = "shard_";
    public static final String FILE_PREFIX = "seg_";
    /** Suffix of the optional {@code .summary} file beside a segment (format: {@code io.chronix.engine.summary.SummaryFormat}). */
    public static final String SUMMARY_SUFFIX = ".summary";

    public SegmentFile {
        if (nanos < 0 || counter < 0) {
            throw new IllegalArgumentException("segment nanos and counter must not be negative [nanos=" + nanos + ", counter=" + counter + "]");
        }
    }

    public static SegmentFile of(long shardId, long nanos, long counter) {
        return new SegmentFile(shardId, nanos, counter);
    }

    /**
     * Parses {@code shard_{id}/seg_{nanos}_{counter}.csx}.
     *
     * @throws IllegalArgumentException for any other string
     */
    public static SegmentFile parse(String relative) {
        Objects.requireNonNull(relative, "relative");
        int slash = relative.indexOf('/');
        if (slash < 0 || relative.indexOf('/', slash + 1) >= 0 || relative.indexOf('\\') >= 0) {
            throw refused(relative, "must be exactly shard_{id}/seg_{nanos}_{counter}" + SegmentFormat.FILE_SUFFIX);
        }
        String dir = relative.substring(0, slash);
        String name = relative.substring(slash + 1);
        if (!dir.startsWith(SHARD_PREFIX) || !name.startsWith(FILE_PREFIX) || !name.endsWith(SegmentFormat.FILE_SUFFIX)) {
            throw refused(relative, "must be exactly shard_{id}/seg_{nanos}_{counter}" + SegmentFormat.FILE_SUFFIX);
        }
        String core = name.substring(FILE_PREFIX.length(), name.length() - SegmentFormat.FILE_SUFFIX.length());
        int underscore = core.indexOf('_');
        if (underscore < 0) {
            throw refused(relative, "missing counter");
        }
        long shard = parseNumber(relative, dir.substring(SHARD_PREFIX.length()), true);
        long nanos = parseNumber(relative, core.substring(0, underscore), false);
        long counter = parseNumber(relative, core.substring(underscore + 1), false);
        SegmentFile f = new SegmentFile(shard, nanos, counter);
        if (!f.relativeName().equals(relative)) {
            throw refused(relative, "not in canonical form");
        }
        return f;
    }

    private static long parseNumber(String relative, String s, boolean signed) {
        if (s.isEmpty() || s.length() > 20) {
            throw refused(relative, "bad number '" + s + "'");
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9') && !(signed && i == 0 && c == '-' && s.length() > 1)) {
                throw refused(relative, "bad number '" + s + "'");
            }
        }
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw refused(relative, "bad number '" + s + "'");
        }
    }

    private static IllegalArgumentException refused(String relative, String why) {
        return new IllegalArgumentException("not a segment file name: " + why + " [name=" + relative + "]");
    }

    /** {@code shard_{id}} */
    public String shardDirectory() {
        return SHARD_PREFIX + shardId;
    }

    /** {@code seg_{nanos}_{counter}.csx} */
    public String fileName() {
        return FILE_PREFIX + nanos + "_" + counter + SegmentFormat.FILE_SUFFIX;
    }

    /** {@code seg_{nanos}_{counter}.series} */
    public String sidecarFileName() {
        return FILE_PREFIX + nanos + "_" + counter + SeriesFormat.FILE_SUFFIX;
    }

    /** {@code seg_{nanos}_{counter}.summary} */
    public String summaryFileName() {
        return FILE_PREFIX + nanos + "_" + counter + SUMMARY_SUFFIX;
    }

    /** The {@code .summary} file's path under {@code segmentsDir}. */
    public Path resolveSummary(Path segmentsDir) {
        return segmentsDir.resolve(shardDirectory()).resolve(summaryFileName());
    }

    /** {@code shard_{id}/seg_{nanos}_{counter}.csx}: what the catalog stores. */
    public String relativeName() {
        return shardDirectory() + "/" + fileName();
    }

    /** The segment's path under {@code segmentsDir}: the only way to an openable path. */
    public Path resolve(Path segmentsDir) {
        return segmentsDir.resolve(shardDirectory()).resolve(fileName());
    }

    /** The {@code .series} sidecar's path under {@code segmentsDir}. */
    public Path resolveSidecar(Path segmentsDir) {
        return segmentsDir.resolve(shardDirectory()).resolve(sidecarFileName());
    }

    @Override
    public int compareTo(SegmentFile o) {
        int c = Long.compare(shardId, o.shardId);
        if (c == 0) {
            c = Long.compare(nanos, o.nanos);
        }
        return c != 0 ? c : Long.compare(counter, o.counter);
    }

    @Override
    public String toString() {
        return relativeName();
    }
}
