package io.chronix.engine.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * Another {@link FileIO} whose fsyncs fail, or whose device is full, where and while a condition holds: for
 * tests of what the engine and the service do about a failing or full disk over real files (the
 * service's black-box tests switch it on through a test-only property; nothing in production
 * constructs it). While {@code syncFails} holds, every file and directory fsync throws {@code
 * Input/output error} without syncing; while {@code diskFull} holds, every write, positional write
 * and preallocation throws {@code No space left on device} without writing — the messages the
 * operating system gives, which the engine recognises. Reads, truncation, deletion and the rest
 * pass through.
 *
 * <p>Threading: as thread-safe as the delegate; the conditions are asked on the calling thread.
 */
public final class FaultInjectingFileIO implements FileIO {

    private final FileIO delegate;
    private final Predicate<Path> syncFails;
    private final Predicate<Path> diskFull;
    private final AtomicLong failedSyncs = new AtomicLong();
    private final AtomicLong failedWrites = new AtomicLong();

    /**
     * @param syncFails whether an fsync of this file or directory fails now
     * @param diskFull  whether a write to this file finds the device full now
     */
    public FaultInjectingFileIO(FileIO delegate, Predicate<Path> syncFails, Predicate<Path> diskFull) {
        this.delegate = delegate;
        this.syncFails = syncFails;
        this.diskFull = diskFull;
    }

    /** Fsyncs this refused (the fault fired). */
    public long failedSyncs() {
        return failedSyncs.get();
    }

    /** Writes this refused for a full device. */
    public long failedWrites() {
        return failedWrites.get();
    }

    private void checkSync(Path path) throws IOException {
        if (syncFails.test(path)) {
            failedSyncs.incrementAndGet();
            throw new IOException("Input/output error (injected fsync failure) [path=" + path + "]");
        }
    }

    private void checkSpace(Path path) throws IOException {
        if (diskFull.test(path)) {
            failedWrites.incrementAndGet();
            throw new IOException("No space left on device (injected) [path=" + path + "]");
        }
    }

    @Override
    public WritableFile create(Path path) throws IOException {
        return new Faulty(delegate.create(path));
    }

    @Override
    public WritableFile openAppend(Path path) throws IOException {
        return new Faulty(delegate.openAppend(path));
    }

    @Override
    public ReadableFile openRead(Path path) throws IOException {
        return delegate.openRead(path);
    }

    @Override
    public void truncate(Path path, long size) throws IOException {
        delegate.truncate(path, size);
    }

    @Override
    public void delete(Path path) throws IOException {
        delegate.delete(path);
    }

    @Override
    public List<Path> list(Path dir) throws IOException {
        return delegate.list(dir);
    }

    @Override
    public boolean exists(Path path) {
        return delegate.exists(path);
    }

    @Override
    public long size(Path path) throws IOException {
        return delegate.size(path);
    }

    @Override
    public void createDirectories(Path dir) throws IOException {
        delegate.createDirectories(dir);
    }

    @Override
    public void rename(Path source, Path target) throws IOException {
        delegate.rename(source, target);
    }

    @Override
    public void syncDirectory(Path dir) throws IOException {
        checkSync(dir);
        delegate.syncDirectory(dir);
    }

    private final class Faulty implements WritableFile {
        private final WritableFile file;

        Faulty(WritableFile file) {
            this.file = file;
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            checkSpace(file.path());
            return file.write(src);
        }

        @Override
        public int writeAt(ByteBuffer src, long position) throws IOException {
            checkSpace(file.path());
            return file.writeAt(src, position);
        }

        @Override
        public boolean preallocate(long size) throws IOException {
            checkSpace(file.path());
            return file.preallocate(size);
        }

        @Override
        public void sync() throws IOException {
            checkSync(file.path());
            file.sync();
        }

        @Override
        public void truncate(long size) throws IOException {
            file.truncate(size);
        }

        @Override
        public long position() throws IOException {
            return file.position();
        }

        @Override
        public Path path() {
            return file.path();
        }

        @Override
        public void close() throws IOException {
            file.close();
        }
    }
}
