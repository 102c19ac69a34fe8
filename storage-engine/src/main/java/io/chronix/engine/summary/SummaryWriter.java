package io.chronix.engine.summary;

import com.github.luben.zstd.Zstd;
import io.chronix.engine.io.FileIO;
import io.chronix.engine.model.FieldType;
import io.chronix.engine.segment.SeriesWriter;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32C;

/** The one writer of {@code .summary} files ({@link SummaryFormat}; {@code docs/format/summary.md}). */
public final class SummaryWriter {

    private SummaryWriter() {
    }

    public static byte[] encode(SegmentSummary s) {
        Body body = new Body();
        body.string16(s.measurement());
        body.u16(s.tagNames().size());
        s.tagNames().forEach(body::string16);
        body.u16(s.fields().size());
        for (SegmentSummary.Field f : s.fields()) {
            body.string16(f.name());
            body.u8(switch (f.type()) {
                case FLOAT -> SummaryFormat.TYPE_FLOAT;
                case INTEGER -> SummaryFormat.TYPE_INTEGER;
                case UNSIGNED -> SummaryFormat.TYPE_UNSIGNED;
                default -> throw new IllegalArgumentException("not a summarised type: " + f.type());
            });
        }
        body.i32(s.series().size());
        for (SegmentSummary.Series series : s.series()) {
            for (String v : series.tagValues()) {
                if (v == null) {
                    body.i32(SummaryFormat.ABSENT);
                } else {
                    byte[] b = v.getBytes(StandardCharsets.UTF_8);
                    body.i32(b.length);
                    body.write(b, 0, b.length);
                }
            }
            body.i64(series.rows());
            body.i64(series.minTime());
            body.i64(series.maxTime());
            for (FieldAggregate a : series.aggregates()) {
                body.i64(a.count);
                if (a.count > 0) {
                    body.i64(a.firstTime);
                    body.i64(a.lastTime);
                    body.i64(a.firstBits);
                    body.i64(a.lastBits);
                    body.i64(a.minBits);
                    body.i64(a.maxBits);
                    body.i64(a.sumA);
                    body.i64(a.sumB);
                }
            }
        }
        byte[] packed = Zstd.compress(Arrays.copyOf(body.bytes(), body.size()), SummaryFormat.ZSTD_LEVEL);
        int bodyLength = SummaryFormat.PLAIN_LENGTH_SIZE + packed.length;
        ByteBuffer out = ByteBuffer.allocate(SummaryFormat.HEADER_SIZE + bodyLength + SummaryFormat.FOOTER_SIZE)
                .order(ByteOrder.LITTLE_ENDIAN);
        out.put(SummaryFormat.MAGIC);
        out.put((byte) SummaryFormat.VERSION);
        out.put(new byte[3]);
        out.putInt(s.segmentCrc());
        out.putInt(bodyLength);
        out.putInt(body.size());
        out.put(packed);
        CRC32C crc = new CRC32C();
        crc.update(out.array(), 0, out.position());
        out.putInt((int) crc.getValue());
        return out.array();
    }

    /** Writes and publishes {@code target} (from {@code SegmentFile.resolveSummary}): tmp, fsync, rename, directory fsync. */
    public static void write(FileIO io, Path tmpDir, Path target, SegmentSummary summary) {
        SeriesWriter.publish(io, tmpDir, target, encode(summary));
    }

    private static final class Body extends ByteArrayOutputStream {
        private final ByteBuffer scratch = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);

        void u8(int v) {
            write(v);
        }

        void u16(int v) {
            if (v > 0xFFFF) {
                throw new IllegalArgumentException("more than 65535 entries: " + v);
            }
            write(v & 0xFF);
            write(v >>> 8);
        }

        void i32(int v) {
            write(scratch.clear().putInt(v).array(), 0, 4);
        }

        void i64(long v) {
            write(scratch.clear().putLong(v).array(), 0, 8);
        }

        void string16(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            u16(b.length);
            write(b, 0, b.length);
        }

        byte[] bytes() {
            return buf;
        }
    }

    static FieldType typeOf(int code) {
        return switch (code) {
            case SummaryFormat.TYPE_FLOAT -> FieldType.FLOAT;
            case SummaryFormat.TYPE_INTEGER -> FieldType.INTEGER;
            case SummaryFormat.TYPE_UNSIGNED -> FieldType.UNSIGNED;
            default -> null;
        };
    }
}
