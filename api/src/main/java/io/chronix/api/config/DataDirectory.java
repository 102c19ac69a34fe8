package io.chronix.api.config;

import io.chronix.engine.error.DirectoryLockedException;
import io.chronix.engine.io.DirectoryLock;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The service's data directory, locked for the life of the process so that two services never share
 * one. Layout: {@code LOCK}, {@code operator-token}, {@code postgres/} (embedded database),
 * {@code cold/} (filesystem cold tier), {@code namespaces/} (one engine directory per namespace id).
 */
public final class DataDirectory implements AutoCloseable {

    private final Path root;
    private final DirectoryLock lock;

    private DataDirectory(Path root, DirectoryLock lock) {
        this.root = root;
        this.lock = lock;
    }

    /** Checks, creates and locks the directory. */
    public static DataDirectory open(Path configured) {
        Path root = StartupChecks.checkDataDir(configured.toString());
        try {
            return new DataDirectory(root, DirectoryLock.acquire(root));
        } catch (DirectoryLockedException e) {
            String holder = DirectoryLock.holderOf(root);
            throw new StartupCheckException(StartupChecks.DATA_DIR,
                    root + " is in use by another process" + (holder.isEmpty() ? "" : " (pid " + holder + ")")
                            + "; lock " + e.lockFile() + " is held",
                    "Stop the other Chronix process, or start this one with another " + StartupChecks.DATA_DIR + ".", e);
        }
    }

    public Path root() {
        return root;
    }

    public Path postgres() {
        return root.resolve("postgres");
    }

    public Path cold() {
        return root.resolve("cold");
    }

    public Path namespaces() {
        return root.resolve("namespaces");
    }

    public Path operatorTokenFile() {
        return root.resolve("operator-token");
    }

    @Override
    public void close() {
        lock.close();
    }

    /** Deletes the directory and everything below it, without following symbolic links. */
    public static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE;
                }
                throw e;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                if (e != null) {
                    throw e;
                }
                Files.deleteIfExists(d);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
