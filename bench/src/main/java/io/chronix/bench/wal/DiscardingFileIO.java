package io.chronix.bench.wal;

import io.chronix.engine.io.FileIO;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

/**
 * A {@link FileIO} whose files swallow every byte: measures the WAL's framing and CRC alone, with
 * no syscall and no fsync behind it.
 */
final class DiscardingFileIO implements FileIO {

    @Override
    public WritableFile create(Path path) {
        return new Sink(path);
    }

    @Override
    public WritableFile openAppend(Path path) {
        return new Sink(path);
    }

    @Override
    public ReadableFile openRead(Path path) throws IOException {
        throw new IOException("nothing to read");
    }

    @Override
    public void truncate(Path path, long size) {
    }

    @Override
    public void delete(Path path) {
    }

    @Override
    public List<Path> list(Path dir) {
        return List.of();
    }

    @Override
    public boolean exists(Path path) {
        return false;
    }

    @Override
    public long size(Path path) {
        return 0;
    }

    @Override
    public void createDirectories(Path dir) {
    }

    @Override
    public void syncDirectory(Path dir) {
    }

    private static final class Sink implements WritableFile {
        private final Path path;
        private long position;

        Sink(Path path) {
            this.path = path;
        }

        @Override
        public int write(ByteBuffer src) {
            int n = src.remaining();
            src.position(src.limit());
            position += n;
            return n;
        }

        @Override
        public void sync() {
        }

        @Override
        public void truncate(long size) {
            position = size;
        }

        @Override
        public long position() {
            return position;
        }

        @Override
        public Path path() {
            return path;
        }

        @Override
        public void close() {
        }
    }
}
