package io.chronix.engine;

import io.chronix.engine.io.FileIO;
import io.chronix.engine.io.NioFileIO;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The real file system, except that {@link #powerLoss()} cuts every WAL file back to the length
 * its last fsync made durable — what a power loss does to appends that were only in the kernel's
 * buffers — and every handle opened before it fails from then on. (Catalog records and segments
 * are fsynced as they are written; the WAL under {@code PERIODIC} is the file with a window.)
 * {@link #failNextWalWrite()} makes one WAL write fail as a full disk does.
 */
final class WalLossFileIO implements FileIO {

    private final FileIO disk = NioFileIO.INSTANCE;
    private final Map<Path, Long> synced = new HashMap<>();
    private int generation;
    int walSyncs;
    private volatile boolean failNextWalWrite;
    /** WAL writes failed by {@link #failNextWalWrite()}. */
    int failedWalWrites;

    /** The next write to a WAL file fails with ENOSPC's message, writing nothing. */
    void failNextWalWrite() {
        failNextWalWrite = true;
    }

    private static boolean isWal(Path p) {
        return p.getParent() != null && p.getParent().getFileName().toString().equals(DataDirectory.WAL);
    }

    /** Cuts every WAL file to its durable length; open handles die. */
    synchronized void powerLoss() throws IOException {
        generation++;
        for (Map.Entry<Path, Long> e : synced.entrySet()) {
            if (disk.exists(e.getKey()) && disk.size(e.getKey()) > e.getValue()) {
                disk.truncate(e.getKey(), e.getValue());
            }
        }
    }

    private WritableFile track(WritableFile f, long durable) {
        if (!isWal(f.path())) {
            return f;
        }
        int born;
        synchronized (this) {
            born = generation;
            synced.putIfAbsent(f.path(), durable);
        }
        return new WritableFile() {
            private void alive() throws IOException {
                synchronized (WalLossFileIO.this) {
                    if (born != generation) {
                        throw new IOException("power lost [path=" + f.path() + "]");
                    }
                }
            }

            @Override
            public int write(ByteBuffer src) throws IOException {
                alive();
                synchronized (WalLossFileIO.this) {
                    if (failNextWalWrite) {
                        failNextWalWrite = false;
                        failedWalWrites++;
                        throw new IOException("No space left on device (injected) [path=" + f.path() + "]");
                    }
                }
                return f.write(src);
            }

            @Override
            public void sync() throws IOException {
                alive();
                f.sync();
                synchronized (WalLossFileIO.this) {
                    synced.put(f.path(), f.position());
                    walSyncs++;
                }
            }

            @Override
            public void truncate(long size) throws IOException {
                alive();
                f.truncate(size);
                synchronized (WalLossFileIO.this) {
                    synced.computeIfPresent(f.path(), (k, v) -> Math.min(v, size));
                }
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
                f.close(); // a close is no fsync
            }
        };
    }

    @Override
    public WritableFile create(Path path) throws IOException {
        return track(disk.create(path), 0);
    }

    @Override
    public WritableFile openAppend(Path path) throws IOException {
        return track(disk.openAppend(path), disk.size(path));
    }

    @Override
    public ReadableFile openRead(Path path) throws IOException {
        return disk.openRead(path);
    }

    @Override
    public void truncate(Path path, long size) throws IOException {
        disk.truncate(path, size);
        synchronized (this) {
            synced.computeIfPresent(path, (k, v) -> Math.min(v, size));
        }
    }

    @Override
    public void delete(Path path) throws IOException {
        disk.delete(path);
        synchronized (this) {
            synced.remove(path);
        }
    }

    @Override
    public List<Path> list(Path dir) throws IOException {
        return disk.list(dir);
    }

    @Override
    public boolean exists(Path path) {
        return disk.exists(path);
    }

    @Override
    public long size(Path path) throws IOException {
        return disk.size(path);
    }

    @Override
    public void createDirectories(Path dir) throws IOException {
        disk.createDirectories(dir);
    }

    @Override
    public void rename(Path source, Path target) throws IOException {
        disk.rename(source, target);
    }

    @Override
    public void syncDirectory(Path dir) throws IOException {
        disk.syncDirectory(dir);
    }
}
