package io.chronix.archive.parquet;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * DuckDB's JDBC driver copies its native library (about 70 MB) into the temporary directory each
 * time a process loads it, and deletes the copy only when the JVM exits normally. A process that
 * is killed, or that dies, leaves its copy behind, and a service restarted often fills the disk.
 * Once loaded the copy is not needed any more: on Linux an unlinked file stays mapped for as long
 * as the process lives. So after a process opens its first DuckDB connection, this unlinks the
 * copy that process mapped, and nothing is left behind however it ends.
 *
 * <p>Only the copy named in this process's own memory map ({@code /proc/self/maps}) and lying in
 * the temporary directory is removed; another process's copy is never touched. Where there is no
 * such map (not Linux) nothing is done, and the driver's own clean-up at exit stays.
 */
public final class DuckDbLibrary {

    private static final Pattern COPY = Pattern.compile("(/\\S*/libduckdb_java\\d+\\.so)$");
    private static final AtomicBoolean DONE = new AtomicBoolean();

    private DuckDbLibrary() {
    }

    /**
     * Unlinks this process's copy of the native library, once per process; call it after a DuckDB
     * connection was opened (the library is loaded then). A failure only leaves the copy where the
     * driver put it.
     *
     * @return the copies removed (none after the first call)
     */
    public static List<Path> unlinkLoadedCopy() {
        if (!DONE.compareAndSet(false, true)) {
            return List.of();
        }
        return unlinkCopies(Path.of("/proc/self/maps"), Path.of(System.getProperty("java.io.tmpdir")));
    }

    /** The copies named in memory map {@code maps} that lie directly in {@code tmpDir}, removed. */
    static List<Path> unlinkCopies(Path maps, Path tmpDir) {
        if (!Files.isReadable(maps)) {
            return List.of();
        }
        try {
            Path tmp = tmpDir.toRealPath();
            List<Path> removed = new java.util.ArrayList<>();
            for (String line : Files.readAllLines(maps)) {
                Matcher m = COPY.matcher(line.strip());
                if (!m.find()) {
                    continue; // another mapping, or a copy already unlinked ("… (deleted)")
                }
                Path copy = Path.of(m.group(1));
                if (tmp.equals(copy.getParent()) && !removed.contains(copy) && Files.deleteIfExists(copy)) {
                    removed.add(copy);
                }
            }
            return removed;
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }
}
