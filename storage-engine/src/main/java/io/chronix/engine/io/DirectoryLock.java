package io.chronix.engine.io;

import io.chronix.engine.error.DirectoryLockedException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An advisory, exclusive lock on a directory, held through a {@code LOCK} file in it: one writer per
 * directory, whether the other holder is another process or another instance in this JVM.
 *
 * <p>The lock is the OS file lock ({@link FileChannel#tryLock()}), so it dies with the process:
 * a {@code kill -9} never leaves a stale lock behind. The file's content (the holder's pid) is only
 * for people reading the directory; the file itself is never deleted, because deleting it would let
 * a second process lock a fresh inode while the first still holds the old one.
 *
 * <p>Threading: {@link #close()} is idempotent and thread-safe.
 */
public final class DirectoryLock implements AutoCloseable {

    public static final String FILE_NAME = "LOCK";

    private final Path file;
    private final FileChannel channel;
    private final FileLock lock;

    private DirectoryLock(Path file, FileChannel channel, FileLock lock) {
        this.file = file;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the lock on {@code directory}, which must exist.
     *
     * @throws DirectoryLockedException if another holder has it
     * @throws UncheckedIOException if the lock file cannot be created or written
     */
    public static DirectoryLock acquire(Path directory) {
        Path file = directory.resolve(FILE_NAME);
        FileChannel channel;
        try {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.READ);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open lock file [lock=" + file + "]", e);
        }
        try {
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null; // held by this JVM
            }
            if (lock == null) {
                channel.close();
                throw new DirectoryLockedException(file);
            }
            byte[] pid = (ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII);
            channel.truncate(0);
            channel.write(ByteBuffer.wrap(pid), 0);
            channel.force(false);
            return new DirectoryLock(file, channel, lock);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new UncheckedIOException("cannot lock [lock=" + file + "]", e);
        }
    }

    /** The pid recorded by the current holder, if the file holds one. For messages only. */
    public static String holderOf(Path directory) {
        try {
            return Files.readString(directory.resolve(FILE_NAME), StandardCharsets.US_ASCII).strip();
        } catch (IOException e) {
            return "";
        }
    }

    public Path file() {
        return file;
    }

    @Override
    public synchronized void close() {
        if (!channel.isOpen()) {
            return;
        }
        try {
            lock.release();
        } catch (IOException ignored) {
            // closing the channel below releases it anyway
        }
        closeQuietly(channel);
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // nothing left to release
        }
    }
}
