package io.chronix.engine.wal;

import io.chronix.engine.io.FileIO;
import io.chronix.engine.io.NioFileIO;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of one write-ahead log.
 *
 * @param directory where the {@code wal_*.cxwl} files live (created if missing)
 * @param fsyncPolicy when written bytes are forced to the device
 * @param fsyncInterval period of the background sync under {@link FsyncPolicy#PERIODIC}
 * @param maxFileSize a file is rotated before an append would take it past this size (a single
 *     append larger than it still goes into one file)
 * @param compression LZ4-compress payloads (outside the write lock) where that makes them smaller
 * @param bufferSize the write buffer; records are framed into it and handed to the kernel in one
 *     write per append call, or per buffer-full within a large batch
 * @param groupCommitTimeout how long a writer waits for another's fsync before syncing itself
 * @param preallocation bytes of zeros the active file is extended by ahead of the records (capped at
 *     {@code maxFileSize}), so that an fdatasync after an append has no file-size change to commit;
 *     0 turns it off (files then grow with each write, as before). See {@code docs/format/wal.md},
 *     "Preallocated tail".
 * @param io the file I/O seam
 */
public record WalConfig(Path directory, FsyncPolicy fsyncPolicy, Duration fsyncInterval, long maxFileSize,
        boolean compression, int bufferSize, Duration groupCommitTimeout, long preallocation, FileIO io) {

    public static final Duration DEFAULT_FSYNC_INTERVAL = Duration.ofMillis(100);
    public static final long DEFAULT_MAX_FILE_SIZE = 64L * 1024 * 1024;
    public static final int DEFAULT_BUFFER_SIZE = 64 * 1024;
    public static final Duration DEFAULT_GROUP_COMMIT_TIMEOUT = Duration.ofSeconds(5);
    /** Small enough that the zeros' one journalled fsync per extent stays a few milliseconds. */
    public static final long DEFAULT_PREALLOCATION = 1024 * 1024;

    public WalConfig {
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(fsyncPolicy, "fsyncPolicy");
        Objects.requireNonNull(io, "io");
        if (fsyncInterval.isNegative() || fsyncInterval.isZero()) {
            throw new IllegalArgumentException("fsyncInterval must be positive: " + fsyncInterval);
        }
        if (groupCommitTimeout.isNegative() || groupCommitTimeout.isZero()) {
            throw new IllegalArgumentException("groupCommitTimeout must be positive: " + groupCommitTimeout);
        }
        if (maxFileSize <= WalFormat.HEADER_SIZE) {
            throw new IllegalArgumentException("maxFileSize must exceed the file header: " + maxFileSize);
        }
        if (preallocation < 0) {
            throw new IllegalArgumentException("preallocation must not be negative: " + preallocation);
        }
        if (bufferSize < WalFormat.FRAME_OVERHEAD * 2) {
            throw new IllegalArgumentException("bufferSize too small: " + bufferSize);
        }
    }

    /**
     * Group commit, 100 ms periodic interval, 64 MiB files, no compression, 64 KiB buffer, 1 MiB
     * preallocation, real files.
     */
    public static WalConfig defaults(Path directory) {
        return new WalConfig(directory, FsyncPolicy.PER_BATCH, DEFAULT_FSYNC_INTERVAL, DEFAULT_MAX_FILE_SIZE, false,
                DEFAULT_BUFFER_SIZE, DEFAULT_GROUP_COMMIT_TIMEOUT, DEFAULT_PREALLOCATION, NioFileIO.INSTANCE);
    }

    public WalConfig withFsyncPolicy(FsyncPolicy policy) {
        return new WalConfig(directory, policy, fsyncInterval, maxFileSize, compression, bufferSize, groupCommitTimeout, preallocation, io);
    }

    public WalConfig withFsyncInterval(Duration interval) {
        return new WalConfig(directory, fsyncPolicy, interval, maxFileSize, compression, bufferSize, groupCommitTimeout, preallocation, io);
    }

    public WalConfig withMaxFileSize(long size) {
        return new WalConfig(directory, fsyncPolicy, fsyncInterval, size, compression, bufferSize, groupCommitTimeout, preallocation, io);
    }

    public WalConfig withCompression(boolean on) {
        return new WalConfig(directory, fsyncPolicy, fsyncInterval, maxFileSize, on, bufferSize, groupCommitTimeout, preallocation, io);
    }

    public WalConfig withBufferSize(int size) {
        return new WalConfig(directory, fsyncPolicy, fsyncInterval, maxFileSize, compression, size, groupCommitTimeout, preallocation, io);
    }

    public WalConfig withGroupCommitTimeout(Duration timeout) {
        return new WalConfig(directory, fsyncPolicy, fsyncInterval, maxFileSize, compression, bufferSize, timeout, preallocation, io);
    }

    public WalConfig withPreallocation(long bytes) {
        return new WalConfig(directory, fsyncPolicy, fsyncInterval, maxFileSize, compression, bufferSize, groupCommitTimeout, bytes, io);
    }

    public WalConfig withIo(FileIO fileIo) {
        return new WalConfig(directory, fsyncPolicy, fsyncInterval, maxFileSize, compression, bufferSize, groupCommitTimeout, preallocation, fileIo);
    }
}
