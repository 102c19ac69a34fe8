package io.chronix.engine.segment;

import com.github.luben.zstd.Zstd;
import io.chronix.engine.io.FileIO;
import io.chronix.engine.segment.encoding.BlockBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * The one writer of {@code .series} sidecars ({@link SeriesFormat}). Publishes like a segment: temp
 * file in {@code tmpDir}, fsync, rename over nothing... except that a sidecar is derived data and may
 * replace a damaged one, so an existing target is deleted first. Then the directory is fsynced.
 */
public final class SeriesWriter {

    private SeriesWriter() {
    }

    /** Encodes the sidecar bytes as the current version writes them (also used by tests to build fixtures). */
    public static byte[] encode(SeriesIndex index) {
        byte[] plain = plainBody(index);
        byte[] packed = Zstd.compress(plain, SeriesFormat.ZSTD_LEVEL);
        int bodyLength = SeriesFormat.PLAIN_LENGTH_SIZE + packed.length;
        ByteBuffer out = ByteBuffer.allocate(SeriesFormat.HEADER_SIZE + bodyLength + SeriesFormat.TRAILER_SIZE)
                .order(ByteOrder.LITTLE_ENDIAN);
        out.put(SeriesFormat.MAGIC);
        out.putShort((short) SeriesFormat.VERSION);
        out.putShort((short) 0);
        out.putInt(index.segmentCrc());
        out.putInt(bodyLength);
        out.putInt(plain.length);
        out.put(packed);
        CRC32C crc = new CRC32C();
        crc.update(out.array(), 0, out.position());
        out.putInt((int) crc.getValue());
        return out.array();
    }

    /**
     * The plain body (version 1 stored it as it is; version 2 stores it as one Zstandard frame).
     * Package-private so that the format tests can compare it byte for byte with a fixture's.
     */
    static byte[] plainBody(SeriesIndex index) {
        BlockBuffer body = new BlockBuffer(256 + index.series().size() * 64);
        SegmentWriter.putName(body, index.measurement());
        if (index.tagNames().size() > 0xFFFF) {
            throw new IllegalArgumentException("too many tags for a sidecar");
        }
        body.putByte(index.tagNames().size() & 0xFF);
        body.putByte(index.tagNames().size() >>> 8);
        for (String t : index.tagNames()) {
            SegmentWriter.putName(body, t);
        }
        body.putInt(index.series().size());
        for (SeriesIndex.Key k : index.series()) {
            body.putLong(k.firstRow());
            body.putInt(k.rowCount());
            body.putLong(k.minTime());
            body.putLong(k.maxTime());
            for (String v : k.tagValues()) {
                if (v == null) {
                    body.putByte(0xFF);
                    body.putByte(0xFF);
                } else {
                    byte[] b = v.getBytes(StandardCharsets.UTF_8);
                    if (b.length > SeriesFormat.MAX_VALUE_BYTES) {
                        throw new IllegalArgumentException("tag value longer than " + SeriesFormat.MAX_VALUE_BYTES + " bytes");
                    }
                    body.putByte(b.length & 0xFF);
                    body.putByte(b.length >>> 8);
                    body.putBytes(b, 0, b.length);
                }
            }
        }
        if (body.size() > SeriesFormat.MAX_BODY_LENGTH) {
            throw new IllegalArgumentException("series sidecar body larger than " + SeriesFormat.MAX_BODY_LENGTH + " bytes");
        }
        return java.util.Arrays.copyOf(body.array(), body.size());
    }

    /** Writes and publishes {@code target} (a sidecar path from {@link SegmentFile#resolveSidecar}). */
    public static void write(FileIO io, Path tmpDir, Path target, SeriesIndex index) {
        publish(io, tmpDir, target, encode(index));
    }

    /**
     * Publishes a small derived file beside a segment (a sidecar): write to {@code tmpDir}, fsync,
     * rename over {@code target}, fsync the directory. Also used by the {@code .summary} writer.
     */
    public static void publish(FileIO io, Path tmpDir, Path target, byte[] bytes) {
        Path tmp = tmpDir.resolve(target.getParent().getFileName() + "-" + target.getFileName() + ".tmp");
        boolean published = false;
        try {
            io.createDirectories(tmpDir);
            if (io.exists(tmp)) {
                io.delete(tmp);
            }
            try (FileIO.WritableFile f = io.create(tmp)) {
                ByteBuffer b = ByteBuffer.wrap(bytes);
                int zero = 0;
                while (b.hasRemaining()) {
                    if (f.write(b) == 0 && ++zero > 16) {
                        throw new IOException("file accepts no more bytes");
                    }
                }
                f.sync();
            }
            io.createDirectories(target.getParent());
            if (io.exists(target)) {
                io.delete(target);
            }
            io.rename(tmp, target);
            published = true;
            io.syncDirectory(target.getParent());
        } catch (IOException e) {
            throw new SegmentIoException("write sidecar", target, e);
        } finally {
            if (!published) {
                try {
                    io.delete(tmp);
                } catch (IOException ignored) {
                    // removed with tmp/ at the next open
                }
            }
        }
    }
}
