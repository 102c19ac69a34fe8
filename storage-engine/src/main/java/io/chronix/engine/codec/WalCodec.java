package io.chronix.engine.codec;

import io.chronix.engine.error.PayloadDecodeException;
import io.chronix.engine.error.UnknownPayloadVersionException;
import io.chronix.engine.model.FieldType;
import io.chronix.engine.model.PointBatch;
import io.chronix.engine.wal.WalRecordType;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;

/**
 * Payload codec v1: {@code [version 0x01][discriminant u8][body]}, a compact binary encoding of our
 * own — LEB128 varints, zigzag for signed numbers, no reflection, no text. The discriminant equals
 * the WAL record type code of the entry. Byte layout: {@code docs/format/wal.md}, "Payload codec".
 *
 * <p>Points are encoded by walking the batch's columns, never through an object per point. A batch
 * body is its string dictionary followed by the points, each point naming strings by dictionary id;
 * timestamps are zigzag deltas from the previous point, so sorted or nearly sorted batches cost a
 * byte or two per timestamp.
 *
 * <p>Decoding refuses anything whose first byte is not {@code 0x01} — a JSON document included —
 * with {@link UnknownPayloadVersionException}, and any malformed body with {@link
 * PayloadDecodeException}; no input makes it throw anything else.
 *
 * <p>Threading: stateless; thread-safe.
 */
public final class WalCodec {

    public static final int VERSION = 0x01;

    // The smallest encoding of a point: measurement id, timestamp, tag count, field count, and one
    // field of name id, type and a one-byte value. Bounds a declared count before allocating for it.
    private static final int MIN_POINT_BYTES = 7;
    private static final int MIN_STRING_BYTES = 1;

    private WalCodec() {
    }

    /** Encodes {@code points} into {@code out} (cleared first) as a DATA (one point) or BATCH payload. */
    public static EncodeBuffer encodePoints(PointBatch points, EncodeBuffer out) {
        if (points.size() == 0) {
            throw new IllegalArgumentException("empty batch");
        }
        out.clear();
        out.writeByte(VERSION);
        out.writeByte(points.size() == 1 ? WalRecordType.DATA.code() : WalRecordType.BATCH.code());
        out.writeVarInt(points.stringCount());
        for (int s = 0; s < points.stringCount(); s++) {
            out.writeString(points.string(s));
        }
        out.writeVarInt(points.size());
        long previous = 0;
        for (int i = 0; i < points.size(); i++) {
            out.writeVarInt(points.measurementId(i));
            long ts = points.timestamp(i);
            out.writeZigZag(ts - previous);
            previous = ts;
            int tags = points.tagCount(i);
            out.writeVarInt(tags);
            for (int t = 0; t < tags; t++) {
                out.writeVarInt(points.tagKeyId(i, t));
                out.writeVarInt(points.tagValueId(i, t));
            }
            int fields = points.fieldCount(i);
            out.writeVarInt(fields);
            for (int f = 0; f < fields; f++) {
                out.writeVarInt(points.fieldNameId(i, f));
                FieldType type = points.fieldType(i, f);
                out.writeByte(type.code());
                long bits = points.fieldBits(i, f);
                switch (type) {
                    case FLOAT -> out.writeLongLE(bits);
                    case INTEGER -> out.writeZigZag(bits);
                    case UNSIGNED, STRING -> out.writeVarLong(bits);
                    case BOOLEAN -> out.writeByte((int) bits);
                }
            }
        }
        return out;
    }

    public static EncodeBuffer encode(WalEntry entry, EncodeBuffer out) {
        return switch (entry) {
            case WalEntry.Points p -> encodePoints(p.points(), out);
            case WalEntry.Schema s -> {
                out.clear();
                out.writeByte(VERSION);
                out.writeByte(WalRecordType.SCHEMA.code());
                out.writeVarInt(s.fields().size());
                for (WalEntry.FieldDeclaration d : s.fields()) {
                    out.writeString(d.measurement());
                    out.writeString(d.field());
                    out.writeByte(d.type().code());
                }
                yield out;
            }
            case WalEntry.Tombstone t -> {
                out.clear();
                out.writeByte(VERSION);
                out.writeByte(WalRecordType.TOMBSTONE.code());
                out.writeString(t.measurement());
                out.writeVarInt(t.tags().size());
                t.tags().forEach((k, v) -> {
                    out.writeString(k);
                    out.writeString(v);
                });
                out.writeZigZag(t.start());
                out.writeZigZag(t.end());
                yield out;
            }
        };
    }

    /** Encodes into a fresh array; for tests and cold paths. */
    public static byte[] encode(WalEntry entry) {
        return encode(entry, new EncodeBuffer()).toByteArray();
    }

    /**
     * Decodes the remaining bytes of {@code payload} (its position is not moved).
     *
     * @throws UnknownPayloadVersionException if the first byte is not {@link #VERSION}
     * @throws PayloadDecodeException if the body is malformed or has trailing bytes
     */
    public static WalEntry decode(ByteBuffer payload) {
        if (!payload.hasRemaining()) {
            throw new UnknownPayloadVersionException(-1, VERSION);
        }
        int version = payload.get(payload.position()) & 0xFF;
        if (version != VERSION) {
            throw new UnknownPayloadVersionException(version, VERSION);
        }
        DecodeCursor in = new DecodeCursor(payload);
        in.readByte();
        int discriminant = in.readByte();
        WalRecordType type = WalRecordType.ofCode(discriminant);
        if (type == null) {
            throw new PayloadDecodeException(1, "unknown discriminant " + discriminant);
        }
        WalEntry entry = switch (type) {
            case DATA, BATCH -> {
                PointBatch points = decodePoints(in);
                if ((points.size() == 1) != (type == WalRecordType.DATA)) {
                    throw in.error(type + " payload holds " + points.size() + " points");
                }
                yield new WalEntry.Points(points);
            }
            case SCHEMA -> decodeSchema(in);
            case TOMBSTONE -> decodeTombstone(in);
        };
        if (in.remaining() != 0) {
            throw in.error(in.remaining() + " trailing bytes");
        }
        return entry;
    }

    public static WalEntry decode(byte[] payload) {
        return decode(ByteBuffer.wrap(payload));
    }

    private static PointBatch decodePoints(DecodeCursor in) {
        int stringCount = in.readCount(MIN_STRING_BYTES, "string");
        String[] strings = new String[stringCount];
        for (int s = 0; s < stringCount; s++) {
            strings[s] = in.readString();
        }
        int size = in.readCount(MIN_POINT_BYTES, "point");
        long[] timestamps = new long[size];
        int[] measurements = new int[size];
        int[] tagStart = new int[size + 1];
        int[] fieldStart = new int[size + 1];
        int[] tagKeys = new int[Math.max(4, size)];
        int[] tagValues = new int[tagKeys.length];
        int[] fieldNames = new int[Math.max(4, size)];
        byte[] fieldTypes = new byte[fieldNames.length];
        long[] fieldValues = new long[fieldNames.length];
        int tagCount = 0;
        int fieldCount = 0;
        long previous = 0;
        for (int i = 0; i < size; i++) {
            measurements[i] = in.readId(stringCount, "measurement");
            previous += in.readZigZag();
            timestamps[i] = previous;
            int tags = in.readCount(2, "tag");
            if (tagCount + tags > tagKeys.length) {
                int n = Math.max(tagKeys.length * 2, tagCount + tags);
                tagKeys = Arrays.copyOf(tagKeys, n);
                tagValues = Arrays.copyOf(tagValues, n);
            }
            for (int t = 0; t < tags; t++) {
                tagKeys[tagCount] = in.readId(stringCount, "tag key");
                tagValues[tagCount] = in.readId(stringCount, "tag value");
                tagCount++;
            }
            tagStart[i + 1] = tagCount;
            int fields = in.readCount(3, "field");
            if (fields == 0) {
                throw in.error("point without fields");
            }
            if (fieldCount + fields > fieldNames.length) {
                int n = Math.max(fieldNames.length * 2, fieldCount + fields);
                fieldNames = Arrays.copyOf(fieldNames, n);
                fieldTypes = Arrays.copyOf(fieldTypes, n);
                fieldValues = Arrays.copyOf(fieldValues, n);
            }
            for (int f = 0; f < fields; f++) {
                fieldNames[fieldCount] = in.readId(stringCount, "field name");
                int code = in.readByte();
                FieldType type = FieldType.ofCode(code);
                if (type == null) {
                    throw in.error("unknown field type " + code);
                }
                fieldTypes[fieldCount] = (byte) code;
                fieldValues[fieldCount] = switch (type) {
                    case FLOAT -> in.readLongLE();
                    case INTEGER -> in.readZigZag();
                    case UNSIGNED -> in.readVarLong();
                    case STRING -> in.readId(stringCount, "string value");
                    case BOOLEAN -> {
                        int b = in.readByte();
                        if (b > 1) {
                            throw in.error("boolean byte " + b);
                        }
                        yield b;
                    }
                };
                fieldCount++;
            }
            fieldStart[i + 1] = fieldCount;
        }
        try {
            return PointBatch.ofColumns(strings, timestamps, measurements, tagStart, Arrays.copyOf(tagKeys, tagCount),
                    Arrays.copyOf(tagValues, tagCount), fieldStart, Arrays.copyOf(fieldNames, fieldCount),
                    Arrays.copyOf(fieldTypes, fieldCount), Arrays.copyOf(fieldValues, fieldCount));
        } catch (IllegalArgumentException e) {
            throw in.error(e.getMessage());
        }
    }

    private static WalEntry.Schema decodeSchema(DecodeCursor in) {
        int n = in.readCount(3, "field declaration");
        List<WalEntry.FieldDeclaration> fields = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String measurement = in.readString();
            String field = in.readString();
            int code = in.readByte();
            FieldType type = FieldType.ofCode(code);
            if (type == null) {
                throw in.error("unknown field type " + code);
            }
            fields.add(new WalEntry.FieldDeclaration(measurement, field, type));
        }
        return new WalEntry.Schema(fields);
    }

    private static WalEntry.Tombstone decodeTombstone(DecodeCursor in) {
        String measurement = in.readString();
        int n = in.readCount(2, "tag");
        TreeMap<String, String> tags = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            String key = in.readString();
            if (tags.put(key, in.readString()) != null) {
                throw in.error("duplicate tag key " + key);
            }
        }
        long start = in.readZigZag();
        long end = in.readZigZag();
        return new WalEntry.Tombstone(measurement, tags, start, end);
    }
}
