package io.chronix.engine.segment;

import io.chronix.engine.io.FileIO;
import io.chronix.engine.io.NioFileIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Faults injected through the file seam: a failed write publishes nothing and leaves no temp file. */
class SegmentWriterFaultTest {

    @TempDir
    Path dir;

    /** Delegates to NIO; fails the chosen operation; writes at most 7 bytes per call (short writes). */
    static final class FaultyIO implements FileIO {
        final String failOn;
        final AtomicInteger fired = new AtomicInteger();

        FaultyIO(String failOn) {
            this.failOn = failOn;
        }

        private void maybeFail(String op) throws IOException {
            if (op.equals(failOn)) {
                fired.incrementAndGet();
                throw new IOException("injected " + op + " failure");
            }
        }

        @Override
        public WritableFile create(Path path) throws IOException {
            WritableFile f = NioFileIO.INSTANCE.create(path);
            return new WritableFile() {
                long written;

                @Override
                public int write(ByteBuffer src) throws IOException {
                    if (written > 200) {
                        maybeFail("write");
                    }
                    ByteBuffer slice = src.slice();
                    slice.limit(Math.min(slice.remaining(), 7));
                    int n = f.write(slice);
                    src.position(src.position() + n);
                    written += n;
                    return n;
                }

                @Override
                public int writeAt(ByteBuffer src, long position) throws IOException {
                    maybeFail("write");
                    return f.writeAt(src, position);
                }

                @Override
                public void sync() throws IOException {
                    maybeFail("sync");
                    f.sync();
                }

                @Override
                public void truncate(long size) throws IOException {
                    f.truncate(size);
                }

                @Override
                public long position() throws IOException {
                    return f.position();
                }

                @Override
                public Path path() {
                    return f.path();
                }

                @Override
                public void close() throws IOException {
                    f.close();
                }
            };
        }

        @Override
        public WritableFile openAppend(Path path) throws IOException {
            return NioFileIO.INSTANCE.openAppend(path);
        }

        @Override
        public ReadableFile openRead(Path path) throws IOException {
            return NioFileIO.INSTANCE.openRead(path);
        }

        @Override
        public void truncate(Path path, long size) throws IOException {
            NioFileIO.INSTANCE.truncate(path, size);
        }

        @Override
        public void delete(Path path) throws IOException {
            NioFileIO.INSTANCE.delete(path);
        }

        @Override
        public List<Path> list(Path d) throws IOException {
            return NioFileIO.INSTANCE.list(d);
        }

        @Override
        public boolean exists(Path path) {
            return NioFileIO.INSTANCE.exists(path);
        }

        @Override
        public long size(Path path) throws IOException {
            return NioFileIO.INSTANCE.size(path);
        }

        @Override
        public void createDirectories(Path d) throws IOException {
            NioFileIO.INSTANCE.createDirectories(d);
        }

        @Override
        public void syncDirectory(Path d) throws IOException {
            maybeFail("syncDirectory");
            NioFileIO.INSTANCE.syncDirectory(d);
        }

        @Override
        public void rename(Path source, Path target) throws IOException {
            maybeFail("rename");
            FileIO.super.rename(source, target);
        }
    }

    @Test
    void shortWritesStillProduceAReadableSegment() {
        FaultyIO io = new FaultyIO("none");
        SegmentFile file = SegmentFile.of(0, 1, 1);
        SegmentWriter.write(io, dir.resolve("tmp"), dir.resolve("segments"), file, new SegmentTestData(1, 3, 50).all(),
                SegmentWriterConfig.defaults(), 0);
        try (SegmentReader r = SegmentReader.open(io, file.resolve(dir.resolve("segments")))) {
            r.verifyBlocks();
        }
    }

    @Test
    void aFailedWriteSyncOrRenamePublishesNothing() throws IOException {
        for (String op : List.of("write", "sync", "rename")) {
            FaultyIO io = new FaultyIO(op);
            SegmentFile file = SegmentFile.of(0, 2, op.length());
            assertThatThrownBy(() -> SegmentWriter.write(io, dir.resolve("tmp"), dir.resolve("segments"), file,
                    new SegmentTestData(1, 3, 50).all(), SegmentWriterConfig.defaults(), 0))
                    .as(op).isInstanceOf(SegmentIoException.class).hasMessageContaining("injected " + op);
            assertThat(io.fired.get()).as("the %s fault must have fired", op).isPositive();
            assertThat(file.resolve(dir.resolve("segments"))).doesNotExist();
            try (var s = Files.list(dir.resolve("tmp"))) {
                assertThat(s.toList()).as(op).isEmpty();
            }
        }
    }

    @Test
    void aFailedDirectorySyncIsReportedNotSwallowed() {
        FaultyIO io = new FaultyIO("syncDirectory");
        SegmentFile file = SegmentFile.of(0, 3, 1);
        assertThatThrownBy(() -> SegmentWriter.write(io, dir.resolve("tmp"), dir.resolve("segments"), file,
                new SegmentTestData(1, 3, 50).all(), SegmentWriterConfig.defaults(), 0))
                .isInstanceOf(SegmentIoException.class).hasMessageContaining("sync directory");
        assertThat(io.fired.get()).isPositive();
    }
}
