package io.chronix.engine.summary;

import io.chronix.engine.error.CorruptFileException;
import io.chronix.engine.error.UnsupportedFormatVersionException;
import io.chronix.engine.io.CompressedBody;
import io.chronix.engine.io.FileIO;
import io.chronix.engine.model.FieldType;
import io.chronix.engine.segment.SeriesReader;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The one reader of {@code .summary} files. Verifies before trusting: length, magic, version
 * (equality; another is {@link UnsupportedFormatVersionException}), reserved bytes, the CRC-32C over
 * header and body, then every length and count against what remains, every type code, and that the
 * body ends exactly at the footer. Damage is {@link CorruptFileException} with path and offset.
 * The engine treats either as "no summary" and reads the segment's blocks instead.
 */
public final class SummaryReader {

    /** Larger than any summary the engine writes (64 MiB: ~1M series × a few fields). */
    static final int MAX_BODY = 64 << 20;

    private SummaryReader() {
    }

    public static SegmentSummary read(FileIO io, Path path) {
        return decode(path, SeriesReader.readSmall(io, path, SummaryFormat.HEADER_SIZE + SummaryFormat.FOOTER_SIZE,
                (long) SummaryFormat.HEADER_SIZE + MAX_BODY + SummaryFormat.FOOTER_SIZE));
    }

    public static SegmentSummary decode(Path path, byte[] bytes) {
        if (bytes.length < SummaryFormat.HEADER_SIZE + SummaryFormat.FOOTER_SIZE) {
            throw new CorruptFileException(path, 0, "summary too short [size=" + bytes.length + "]");
        }
        if (!Arrays.equals(bytes, 0, 4, SummaryFormat.MAGIC, 0, 4)) {
            throw new CorruptFileException(path, SummaryFormat.MAGIC_OFFSET, "bad summary magic");
        }
        int version = bytes[SummaryFormat.VERSION_OFFSET] & 0xFF;
        if (version != SummaryFormat.VERSION) {
            throw new UnsupportedFormatVersionException(path, SummaryFormat.FORMAT_NAME, version, SummaryFormat.VERSION);
        }
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int bodyLength = b.getInt(SummaryFormat.BODY_LENGTH_OFFSET);
        if (bodyLength < 0 || (long) SummaryFormat.HEADER_SIZE + bodyLength + SummaryFormat.FOOTER_SIZE != bytes.length) {
            throw new CorruptFileException(path, SummaryFormat.BODY_LENGTH_OFFSET, "body length does not match the file [bodyLength="
                    + bodyLength + ", size=" + bytes.length + "]");
        }
        int crcAt = SummaryFormat.HEADER_SIZE + bodyLength;
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, crcAt);
        if ((int) crc.getValue() != b.getInt(crcAt)) {
            throw new CorruptFileException(path, crcAt, "summary checksum mismatch");
        }
        for (int i = SummaryFormat.RESERVED_OFFSET; i < SummaryFormat.SEGMENT_CRC_OFFSET; i++) {
            if (bytes[i] != 0) {
                throw new CorruptFileException(path, i, "reserved byte not zero");
            }
        }
        int segmentCrc = b.getInt(SummaryFormat.SEGMENT_CRC_OFFSET);
        // the plain body, decompressed behind a copy of the header so that the parser's offsets
        // below are offsets into header + plain body
        byte[] plain = CompressedBody.decompress(path, bytes, SummaryFormat.HEADER_SIZE, crcAt, MAX_BODY, "summary");
        b = ByteBuffer.wrap(plain).order(ByteOrder.LITTLE_ENDIAN);
        crcAt = plain.length;
        Parser p = new Parser(path, b, crcAt);
        p.at = SummaryFormat.HEADER_SIZE;
        String measurement = p.string16("measurement");
        int tagCount = p.u16("tag count");
        List<String> tags = new ArrayList<>(tagCount);
        for (int t = 0; t < tagCount; t++) {
            tags.add(p.string16("tag name"));
        }
        int fieldCount = p.u16("field count");
        List<SegmentSummary.Field> fields = new ArrayList<>(fieldCount);
        for (int f = 0; f < fieldCount; f++) {
            String name = p.string16("field name");
            int at = p.at;
            FieldType type = SummaryWriter.typeOf(p.u8("field type"));
            if (type == null) {
                throw new CorruptFileException(path, at, "unknown field type code");
            }
            fields.add(new SegmentSummary.Field(name, type));
        }
        int seriesCount = p.i32("series count");
        // each series takes at least 24 bytes of times and one count per field: bound before allocating
        if (seriesCount < 0 || (long) seriesCount * (3 * 8 + 8L * fieldCount) > crcAt - p.at) {
            throw new CorruptFileException(path, p.at - 4, "series count does not fit the body [count=" + seriesCount + "]");
        }
        List<SegmentSummary.Series> series = new ArrayList<>(seriesCount);
        String[] values = new String[tagCount];
        for (int s = 0; s < seriesCount; s++) {
            for (int t = 0; t < tagCount; t++) {
                int at = p.at;
                int len = p.i32("tag value length");
                if (len == SummaryFormat.ABSENT) {
                    values[t] = null;
                } else if (len < 0) {
                    throw new CorruptFileException(path, at, "negative tag value length");
                } else {
                    values[t] = p.utf8(len, "tag value");
                }
            }
            long rows = p.i64("rows");
            long min = p.i64("min time");
            long max = p.i64("max time");
            List<FieldAggregate> aggregates = new ArrayList<>(fieldCount);
            for (SegmentSummary.Field field : fields) {
                FieldAggregate a = new FieldAggregate(field.type());
                int at = p.at;
                a.count = p.i64("value count");
                if (a.count < 0 || a.count > rows) {
                    throw new CorruptFileException(path, at, "value count outside [0, rows]");
                }
                if (a.count > 0) {
                    a.firstTime = p.i64("first time");
                    a.lastTime = p.i64("last time");
                    a.firstBits = p.i64("first");
                    a.lastBits = p.i64("last");
                    a.minBits = p.i64("min");
                    a.maxBits = p.i64("max");
                    a.sumA = p.i64("sum");
                    a.sumB = p.i64("sum");
                }
                aggregates.add(a);
            }
            series.add(new SegmentSummary.Series(Arrays.asList(values.clone()), rows, min, max, aggregates));
        }
        if (p.at != crcAt) {
            throw new CorruptFileException(path, p.at, "body has " + (crcAt - p.at) + " bytes after its series");
        }
        return new SegmentSummary(segmentCrc, measurement, tags, fields, series);
    }

    private static final class Parser {
        final Path path;
        final ByteBuffer b;
        final int end;
        int at;

        Parser(Path path, ByteBuffer b, int end) {
            this.path = path;
            this.b = b;
            this.end = end;
        }

        private void need(int n, String what) {
            if (n > end - at) {
                throw new CorruptFileException(path, at, "summary ends inside " + what);
            }
        }

        int u8(String what) {
            need(1, what);
            return b.get(at++) & 0xFF;
        }

        int u16(String what) {
            need(2, what);
            int v = b.getShort(at) & 0xFFFF;
            at += 2;
            return v;
        }

        int i32(String what) {
            need(4, what);
            int v = b.getInt(at);
            at += 4;
            return v;
        }

        long i64(String what) {
            need(8, what);
            long v = b.getLong(at);
            at += 8;
            return v;
        }

        String utf8(int len, String what) {
            need(len, what);
            String s = new String(b.array(), at, len, StandardCharsets.UTF_8);
            at += len;
            return s;
        }

        String string16(String what) {
            return utf8(u16(what + " length"), what);
        }
    }
}
