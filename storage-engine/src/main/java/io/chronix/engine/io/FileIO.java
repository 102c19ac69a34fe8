package io.chronix.engine.io;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The one seam through which the engine touches files. Production uses {@link NioFileIO}; tests
 * substitute an implementation that fails fsync, runs out of space, writes short, or simulates a
 * power loss that drops, keeps or garbles whatever was not yet synced.
 *
 * <p>Methods report failure as {@link IOException}, exactly as the operating system would; turning
 * that into an engine exception with path and offset is the caller's job, because only the caller
 * knows what the bytes were.
 *
 * <p>Threading: implementations are thread-safe; a single {@link WritableFile} is not required to
 * be safe for concurrent writes, but {@link WritableFile#sync()} may run concurrently with a write.
 */
public interface FileIO {

    /** Creates {@code path}, which must not exist, and opens it for writing at offset 0. */
    WritableFile create(Path path) throws IOException;

    /** Opens an existing file for writing at its current end. */
    WritableFile openAppend(Path path) throws IOException;

    /** Opens an existing file for positional reads. */
    ReadableFile openRead(Path path) throws IOException;

    /** Shrinks {@code path} to {@code size} bytes and makes the new length durable. */
    void truncate(Path path, long size) throws IOException;

    /** Deletes {@code path} if it exists. The directory entry is durable only after {@link #syncDirectory}. */
    void delete(Path path) throws IOException;

    /** The regular files directly in {@code dir}, in no particular order. */
    List<Path> list(Path dir) throws IOException;

    /**
     * The directories directly in {@code dir}, in no particular order; none if {@code dir} does not
     * exist. The default lists the default file system; a test seam that keeps files elsewhere
     * overrides it.
     */
    default List<Path> listDirectories(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(Files::isDirectory).toList();
        }
    }

    boolean exists(Path path);

    long size(Path path) throws IOException;

    void createDirectories(Path dir) throws IOException;

    /**
     * Atomically renames {@code source} to {@code target}, replacing nothing: publishing a file
     * written under a temporary name. Durable only after {@link #syncDirectory} of the target's
     * directory. The default uses {@link java.nio.file.Files#move} with {@code ATOMIC_MOVE}; a test
     * seam that models crashes overrides it.
     */
    default void rename(Path source, Path target) throws IOException {
        if (java.nio.file.Files.exists(target)) {
            throw new java.nio.file.FileAlreadyExistsException(target.toString());
        }
        java.nio.file.Files.move(source, target, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /** Makes the directory's entries (created, renamed, deleted files) durable. */
    void syncDirectory(Path dir) throws IOException;

    /** A file open for sequential writing. */
    interface WritableFile extends AutoCloseable {

        /**
         * Writes some of {@code src} at the current end and advances both; may write fewer bytes
         * than remain (a short write), never more. Returns the count written.
         */
        int write(java.nio.ByteBuffer src) throws IOException;

        /**
         * Writes some of {@code src} at {@code position} without moving the write position: patching
         * bytes already written (a segment's header, whose counts are known only at the end). Returns
         * the count written. Implementations that cannot do it refuse.
         */
        default int writeAt(java.nio.ByteBuffer src, long position) throws IOException {
            throw new UnsupportedOperationException("positional writes not supported [path=" + path() + "]");
        }

        /**
         * Extends the file to {@code size} bytes with zeros that are really written (allocated
         * blocks, not a hole), without moving the write position; does nothing if the file is
         * already that long. A later overwrite of those bytes then changes no file size or block
         * allocation, so its fdatasync has no metadata to commit. May fail part-way (a full disk),
         * leaving some of the zeros. Returns false if this implementation cannot preallocate; the
         * caller then just appends.
         */
        default boolean preallocate(long size) throws IOException {
            return false;
        }

        /** Forces written bytes (not metadata beyond what reading them back needs) to the device. */
        void sync() throws IOException;

        /** Cuts the file to {@code size} bytes and moves the write position there. */
        void truncate(long size) throws IOException;

        /** The write position: bytes handed to the kernel so far. */
        long position() throws IOException;

        Path path();

        @Override
        void close() throws IOException;
    }

    /** A file open for positional reads. */
    interface ReadableFile extends AutoCloseable {

        /** Reads into {@code dst} from {@code position}; returns the count read, or -1 at end of file. */
        int read(java.nio.ByteBuffer dst, long position) throws IOException;

        long size() throws IOException;

        @Override
        void close() throws IOException;
    }
}
