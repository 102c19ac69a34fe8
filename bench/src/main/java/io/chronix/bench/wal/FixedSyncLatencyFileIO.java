package io.chronix.bench.wal;

import io.chronix.engine.io.FileIO;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Real files whose fsync takes a fixed time: each {@link WritableFile#sync()} runs the real one and
 * then waits {@code latency}. On a memory file system (where the real fsync costs a syscall and
 * nothing else) this stands in for a device whose fsync always takes the same time, so that an A/B of
 * the group-commit machinery is not drowned by a shared disk whose fsync swings from 0.3 to 1.3 ms
 * between runs. Every write is still a real {@code write(2)}.
 */
final class FixedSyncLatencyFileIO implements FileIO {

    private final FileIO delegate;
    private final long latencyNanos;

    FixedSyncLatencyFileIO(FileIO delegate, long latencyMicros) {
        this.delegate = delegate;
        this.latencyNanos = TimeUnit.MICROSECONDS.toNanos(latencyMicros);
    }

    @Override
    public WritableFile create(Path path) throws IOException {
        return new Slow(delegate.create(path));
    }

    @Override
    public WritableFile openAppend(Path path) throws IOException {
        return new Slow(delegate.openAppend(path));
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
    public void syncDirectory(Path dir) throws IOException {
        delegate.syncDirectory(dir);
    }

    private final class Slow implements WritableFile {
        private final WritableFile file;

        Slow(WritableFile file) {
            this.file = file;
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            return file.write(src);
        }

        @Override
        public int writeAt(ByteBuffer src, long position) throws IOException {
            return file.writeAt(src, position);
        }

        @Override
        public boolean preallocate(long size) throws IOException {
            return file.preallocate(size);
        }

        @Override
        public void sync() throws IOException {
            file.sync();
            // parks (a virtual thread unmounts, where a real fsync would hold its carrier and be
            // compensated by another); waits out the rest if woken early
            long deadline = System.nanoTime() + latencyNanos;
            for (long left = latencyNanos; left > 0; left = deadline - System.nanoTime()) {
                LockSupport.parkNanos(left);
            }
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
