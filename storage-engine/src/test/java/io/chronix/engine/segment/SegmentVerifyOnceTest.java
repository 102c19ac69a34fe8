package io.chronix.engine.segment;

import io.chronix.engine.error.CorruptFileException;
import io.chronix.engine.io.NioFileIO;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The whole-file hash is paid once per process per (length, mtime, inode), and only for settled files. */
class SegmentVerifyOnceTest {

    @TempDir
    Path dir;

    @AfterEach
    void forget() {
        SegmentReader.forgetVerified();
    }

    private Path settledSegment(long counter, FileTime mtime) throws Exception {
        SegmentFile file = SegmentFile.of(0, 9, counter);
        SegmentWriter.write(NioFileIO.INSTANCE, dir.resolve("tmp"), dir.resolve("segments"), file,
                new SegmentTestData(counter, 3, 40).all(), SegmentWriterConfig.defaults(), 0);
        Path p = file.resolve(dir.resolve("segments"));
        Files.setLastModifiedTime(p, mtime);
        SegmentReader.open(NioFileIO.INSTANCE, p).close(); // verified and remembered
        return p;
    }

    private static void flipInPlace(Path p, long at, FileTime keepMtime) throws Exception {
        try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "rw")) {
            f.seek(at);
            int b = f.read();
            f.seek(at);
            f.write(b ^ 1);
        }
        Files.setLastModifiedTime(p, keepMtime);
    }

    @Test
    void aChangedMtimeIsVerifiedAgain() throws Exception {
        FileTime old = FileTime.fromMillis(System.currentTimeMillis() - 60_000);
        Path p = settledSegment(1, old);
        flipInPlace(p, 60, FileTime.fromMillis(old.toMillis() + 1));
        assertThatThrownBy(() -> SegmentReader.open(NioFileIO.INSTANCE, p)).isInstanceOf(CorruptFileException.class);
    }

    @Test
    void aReplacementThatKeptLengthAndMtimeIsVerifiedAgain() throws Exception {
        FileTime old = FileTime.fromMillis(System.currentTimeMillis() - 60_000);
        Path p = settledSegment(2, old);
        Path copy = dir.resolve("copy.csx");
        Files.copy(p, copy);
        flipInPlace(copy, 60, old);
        Files.move(copy, p, StandardCopyOption.REPLACE_EXISTING); // a new inode under the verified name
        Files.setLastModifiedTime(p, old);
        assertThatThrownBy(() -> SegmentReader.open(NioFileIO.INSTANCE, p)).isInstanceOf(CorruptFileException.class);
    }

    @Test
    void verifyModeNeverTrustsTheMemory() throws Exception {
        FileTime old = FileTime.fromMillis(System.currentTimeMillis() - 60_000);
        Path p = settledSegment(3, old);
        flipInPlace(p, 60, old); // same inode, length and mtime: only a fresh hash sees it
        assertThatThrownBy(() -> SegmentReader.open(NioFileIO.INSTANCE, p, false)).isInstanceOf(CorruptFileException.class);
    }
}
