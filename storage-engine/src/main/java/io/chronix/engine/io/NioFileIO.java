package io.chronix.engine.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@link FileIO} over {@link FileChannel}: the production implementation.
 *
 * <p>Directory fsync opens the directory read-only and forces it, which Linux and macOS support;
 * where a platform refuses it (Windows), the refusal propagates rather than being mistaken for
 * durability.
 *
 * <p>Threading: stateless, thread-safe.
 */
public final class NioFileIO implements FileIO {

    public static final NioFileIO INSTANCE = new NioFileIO();

    private NioFileIO() {
    }

    @Override
    public WritableFile create(Path path) throws IOException {
        return new NioWritableFile(path, FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE));
    }

    @Override
    public WritableFile openAppend(Path path) throws IOException {
        FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE);
        channel.position(channel.size());
        return new NioWritableFile(path, channel);
    }

    @Override
    public ReadableFile openRead(Path path) throws IOException {
        FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
        return new ReadableFile() {
            @Override
            public int read(ByteBuffer dst, long position) throws IOException {
                return channel.read(dst, position);
            }

            @Override
            public long size() throws IOException {
                return channel.size();
            }

            @Override
            public void close() throws IOException {
                channel.close();
            }
        };
    }

    @Override
    public void truncate(Path path, long size) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
            channel.truncate(size);
            channel.force(true);
        }
    }

    @Override
    public void delete(Path path) throws IOException {
        Files.deleteIfExists(path);
    }

    @Override
    public List<Path> list(Path dir) throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> entries = Files.list(dir)) {
            entries.filter(Files::isRegularFile).forEach(files::add);
        } catch (NoSuchFileException e) {
            return List.of();
        }
        return files;
    }

    @Override
    public boolean exists(Path path) {
        return Files.exists(path);
    }

    @Override
    public long size(Path path) throws IOException {
        return Files.size(path);
    }

    @Override
    public void createDirectories(Path dir) throws IOException {
        Files.createDirectories(dir);
    }

    @Override
    public void syncDirectory(Path dir) throws IOException {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }

    private record NioWritableFile(Path path, FileChannel channel) implements WritableFile {

        /** Zeros for {@link #preallocate}: written, so the blocks are allocated (fallocate would leave unwritten extents to convert at the first overwrite). */
        private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(64 * 1024).asReadOnlyBuffer();

        @Override
        public boolean preallocate(long size) throws IOException {
            long at = channel.size();
            while (at < size) {
                ByteBuffer zeros = ZEROS.duplicate().limit((int) Math.min(ZEROS.capacity(), size - at));
                at += channel.write(zeros, at);
            }
            return true;
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            return channel.write(src);
        }

        @Override
        public int writeAt(ByteBuffer src, long position) throws IOException {
            return channel.write(src, position);
        }

        @Override
        public void sync() throws IOException {
            // data only: the WAL never relies on mtime, and the size change of an append is
            // flushed by fdatasync as needed to read the data back
            channel.force(false);
        }

        @Override
        public void truncate(long size) throws IOException {
            channel.truncate(size);
            channel.position(size);
        }

        @Override
        public long position() throws IOException {
            return channel.position();
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }
}
