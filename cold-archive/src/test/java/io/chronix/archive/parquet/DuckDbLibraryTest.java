package io.chronix.archive.parquet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The driver's unpacked native library is unlinked once loaded, and DuckDB goes on working. */
class DuckDbLibraryTest {

    @TempDir
    Path dir;

    @Test
    void onlyThisProcesssCopiesInTheTemporaryDirectoryAreRemoved() throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
        Path mine = Files.writeString(tmp.resolve("libduckdb_java123.so"), "x");
        Path notMapped = Files.writeString(tmp.resolve("libduckdb_java456.so"), "x");
        Path outside = Files.writeString(elsewhere.resolve("libduckdb_java789.so"), "x");
        Path other = Files.writeString(tmp.resolve("libother.so"), "x");
        Path maps = Files.writeString(dir.resolve("maps"), String.join("\n",
                "7f00-7f01 r-xp 00000000 fd:00 1 " + mine,
                "7f01-7f02 r--p 00001000 fd:00 1 " + mine,
                "7f02-7f03 r-xp 00000000 fd:00 2 " + outside,
                "7f03-7f04 r-xp 00000000 fd:00 3 " + other,
                "7f04-7f05 r-xp 00000000 fd:00 4 " + tmp.resolve("libduckdb_java999.so") + " (deleted)",
                "7f05-7f06 rw-p 00000000 00:00 0 [heap]"));
        assertThat(DuckDbLibrary.unlinkCopies(maps, tmp)).containsExactly(mine);
        assertThat(mine).doesNotExist();
        assertThat(notMapped).as("not mapped by this process").exists();
        assertThat(outside).as("not in the temporary directory").exists();
        assertThat(other).exists();
        assertThat(DuckDbLibrary.unlinkCopies(dir.resolve("no-such-map"), tmp)).isEmpty();
    }

    @Test
    void theLoadedCopyIsUnlinkedAndDuckDbStillWorks() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
            DuckDbLibrary.unlinkLoadedCopy();
            List<String> copies = Files.readAllLines(Path.of("/proc/self/maps")).stream()
                    .filter(l -> l.contains("libduckdb_java")).toList();
            assertThat(copies).as("the library is mapped").isNotEmpty();
            assertThat(copies).as("and its file gone").allMatch(l -> l.endsWith("(deleted)"));
            try (Connection fresh = DriverManager.getConnection("jdbc:duckdb:");
                 Statement s = fresh.createStatement(); ResultSet r = s.executeQuery("SELECT 6 * 7")) {
                assertThat(r.next()).isTrue();
                assertThat(r.getInt(1)).isEqualTo(42);
            }
        }
        assertThat(DuckDbLibrary.unlinkLoadedCopy()).as("once per process").isEmpty();
    }
}
