package io.chronix.engine.segment;

import io.chronix.engine.error.CorruptFileException;
import io.chronix.engine.error.UnsupportedFormatVersionException;
import io.chronix.engine.io.CompressedBody;
import io.chronix.engine.io.FileIO;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The one reader of {@code .series} sidecars. Checks magic, version (2, the compressed body the
 * writer writes, or 1, the plain body of older files; any other is {@link
 * UnsupportedFormatVersionException}), the body length against the file, the CRC-32C, in version 2
 * that the frame decompresses to exactly its plain length, and every length while parsing; damage
 * is a {@link CorruptFileException} with path and offset.
 */
public final class SeriesReader {

    private SeriesReader() {
    }

    public static SeriesIndex read(FileIO io, Path path) {
        return decode(path, readSmall(io, path, SeriesFormat.HEADER_SIZE + SeriesFormat.TRAILER_SIZE,
                SeriesFormat.HEADER_SIZE + SeriesFormat.MAX_BODY_LENGTH + SeriesFormat.TRAILER_SIZE));
    }

    /**
     * Reads a small derived file (a sidecar) whole, refusing one shorter than {@code minSize} or
     * longer than {@code maxSize} before allocating. Also used by the {@code .summary} reader.
     */
    public static byte[] readSmall(FileIO io, Path path, long minSize, long maxSize) {
        byte[] bytes;
        try (FileIO.ReadableFile f = io.openRead(path)) {
            long size = f.size();
            if (size < minSize) {
                throw new CorruptFileException(path, 0, "sidecar too short [size=" + size + "]");
            }
            if (size > maxSize) {
                throw new CorruptFileException(path, 0, "sidecar larger than any body allows [size=" + size + "]");
            }
            bytes = new byte[(int) size];
            ByteBuffer dst = ByteBuffer.wrap(bytes);
            long at = 0;
            while (dst.hasRemaining()) {
                int n = f.read(dst, at);
                if (n < 0) {
                    throw new CorruptFileException(path, at, "sidecar ends early");
                }
                at += n;
            }
        } catch (IOException e) {
            throw new SegmentIoException("read sidecar", path, e);
        }
        return bytes;
    }

    /** Parses sidecar bytes; {@code path} names them in errors. */
    public static SeriesIndex decode(Path path, byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        if (bytes.length < SeriesFormat.HEADER_SIZE + SeriesFormat.TRAILER_SIZE) {
            throw new CorruptFileException(path, 0, "sidecar too short [size=" + bytes.length + "]");
        }
        for (int i = 0; i < SeriesFormat.MAGIC.length; i++) {
            if (bytes[i] != SeriesFormat.MAGIC[i]) {
                throw new CorruptFileException(path, SeriesFormat.MAGIC_OFFSET, "bad sidecar magic");
            }
        }
        int version = Short.toUnsignedInt(b.getShort(SeriesFormat.VERSION_OFFSET));
        if (version != SeriesFormat.VERSION && version != SeriesFormat.VERSION_PLAIN) {
            throw new UnsupportedFormatVersionException(path, "series sidecar", version, SeriesFormat.VERSION);
        }
        long bodyLength = Integer.toUnsignedLong(b.getInt(SeriesFormat.BODY_LENGTH_OFFSET));
        if (bodyLength != bytes.length - SeriesFormat.HEADER_SIZE - SeriesFormat.TRAILER_SIZE) {
            throw new CorruptFileException(path, SeriesFormat.BODY_LENGTH_OFFSET, "body length disagrees with the file size");
        }
        int crcAt = bytes.length - SeriesFormat.TRAILER_SIZE;
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, crcAt);
        if ((int) crc.getValue() != b.getInt(crcAt)) {
            throw new CorruptFileException(path, crcAt, "sidecar checksum mismatch");
        }
        if (b.getShort(SeriesFormat.RESERVED_OFFSET) != 0) {
            throw new CorruptFileException(path, SeriesFormat.RESERVED_OFFSET, "reserved bytes set");
        }
        int segmentCrc = b.getInt(SeriesFormat.SEGMENT_CRC_OFFSET);
        if (version == SeriesFormat.VERSION) {
            // parse header + plain body, so that offsets in errors below count from the file's start
            // as if the body were stored plain (as the summary reader does)
            b = ByteBuffer.wrap(CompressedBody.decompress(path, bytes, SeriesFormat.HEADER_SIZE, crcAt,
                    SeriesFormat.MAX_BODY_LENGTH, "sidecar")).order(ByteOrder.LITTLE_ENDIAN);
            crcAt = b.capacity();
        }
        b.position(SeriesFormat.HEADER_SIZE);
        b.limit(crcAt);
        String measurement = name(path, b);
        int tagCount = u16(path, b);
        List<String> tags = new ArrayList<>(tagCount);
        for (int i = 0; i < tagCount; i++) {
            tags.add(name(path, b));
        }
        need(path, b, 4);
        long count = Integer.toUnsignedLong(b.getInt());
        if (count > b.remaining() / (SegmentFormat.SERIES_ENTRY_SIZE + 2L * tagCount)) {
            throw new CorruptFileException(path, b.position() - 4, "series count impossible [count=" + count + "]");
        }
        List<SeriesIndex.Key> keys = new ArrayList<>((int) count);
        for (long s = 0; s < count; s++) {
            need(path, b, SegmentFormat.SERIES_ENTRY_SIZE);
            long firstRow = b.getLong();
            int rows = b.getInt();
            long min = b.getLong();
            long max = b.getLong();
            String[] values = new String[tagCount];
            for (int t = 0; t < tagCount; t++) {
                int len = u16(path, b);
                if (len == SeriesFormat.ABSENT) {
                    continue;
                }
                need(path, b, len);
                values[t] = new String(b.array(), b.position(), len, StandardCharsets.UTF_8);
                b.position(b.position() + len);
            }
            keys.add(new SeriesIndex.Key(java.util.Arrays.asList(values), firstRow, rows, min, max));
        }
        if (b.hasRemaining()) {
            throw new CorruptFileException(path, b.position(), "sidecar body has bytes after its end");
        }
        return new SeriesIndex(segmentCrc, measurement, tags, keys);
    }

    private static void need(Path path, ByteBuffer b, int n) {
        if (b.remaining() < n) {
            throw new CorruptFileException(path, b.position(), "sidecar field runs past the end of the body");
        }
    }

    private static int u16(Path path, ByteBuffer b) {
        need(path, b, 2);
        return Short.toUnsignedInt(b.getShort());
    }

    private static String name(Path path, ByteBuffer b) {
        int len = u16(path, b);
        need(path, b, len);
        String s = new String(b.array(), b.position(), len, StandardCharsets.UTF_8);
        b.position(b.position() + len);
        return s;
    }
}
