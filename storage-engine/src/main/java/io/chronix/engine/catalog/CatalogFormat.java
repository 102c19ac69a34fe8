package io.chronix.engine.catalog;

import io.chronix.engine.model.FieldType;
import io.chronix.engine.schema.Column;
import io.chronix.engine.schema.SchemaRegistry.CatalogDeclaration;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Constants and record bodies of the catalog file {@code catalog/manifest.cxct}. The byte-level
 * contract is {@code docs/format/catalog.md}; in short:
 *
 * <pre>
 *   header  [magic "CXCT"][version u16 LE]                           6 bytes
 *   record  [crc32c u32][length u32][~length u32][type u8][body]     13 + length bytes
 * </pre>
 *
 * CRC-32C covers everything after itself: {@code length}, its complement, {@code type} and the
 * body. The complement lets a reader tell a damaged length (corruption: refused) from a record cut
 * short by a crash (a torn tail: cut off). Integers are little-endian; strings are
 * {@code [u32 byte length][UTF-8]}.
 */
public final class CatalogFormat {

    public static final String DIRECTORY = "catalog";
    public static final String FILE_NAME = "manifest.cxct";
    public static final byte[] MAGIC = {'C', 'X', 'C', 'T'};
    public static final int VERSION = 1;

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = MAGIC_OFFSET + 4;
    public static final int HEADER_SIZE = VERSION_OFFSET + Short.BYTES;

    public static final int CRC_OFFSET = 0;
    public static final int LENGTH_OFFSET = CRC_OFFSET + Integer.BYTES;
    public static final int LENGTH_CHECK_OFFSET = LENGTH_OFFSET + Integer.BYTES;
    public static final int TYPE_OFFSET = LENGTH_CHECK_OFFSET + Integer.BYTES;
    public static final int FRAME_OVERHEAD = TYPE_OFFSET + 1;
    /** A body longer than this is damage, not data: refused before allocating. */
    public static final int MAX_BODY = 64 * 1024 * 1024;

    public static final byte TYPE_SETTINGS = 1;
    public static final byte TYPE_ADD_SEGMENTS = 2;
    public static final byte TYPE_REMOVE_SEGMENTS = 3;
    public static final byte TYPE_SCHEMA = 4;
    public static final byte TYPE_WAL_FLOOR = 5;
    /** Segments moved to the cold tier: out of the hot set, into the archived set (body: {@link ArchiveRecords}). */
    public static final byte TYPE_ARCHIVED = 12;
    /** Archived objects removed from the cold tier (retention, deletion). */
    public static final byte TYPE_COLD_REMOVED = 13;
    /** Compaction: segments added and segments removed in one record (see {@link Replace}). */
    public static final byte TYPE_REPLACE_SEGMENTS = 6;
    /** Tombstones issued by one delete ({@link TombstoneEntry}); deletes and retention own 7–9. */
    public static final byte TYPE_TOMBSTONES = 7;
    /** Tombstones collected because every segment they were issued against has left the catalog. */
    public static final byte TYPE_DROP_TOMBSTONES = 8;

    /** A rollup's definition ({@link RollupRecords}); rollups own 15–19. */
    public static final byte TYPE_ROLLUP_DEFINED = 15;
    /** A rollup removed (its target's data stays). */
    public static final byte TYPE_ROLLUP_REMOVED = 16;
    /** A rollup's state: watermark and pending invalid ranges, the latest record counting. */
    public static final byte TYPE_ROLLUP_STATE = 17;

    static final byte KIND_TAG = 0;
    static final byte KIND_FIELD = 1;
    static final byte NO_TYPE = (byte) 0xFF;

    private CatalogFormat() {
    }

    /** The namespace's fixed settings, written once when the namespace is created. */
    public record Settings(long shardDurationNanos) {
    }

    // ---------------------------------------------------------------- encoding

    static final class Out {
        private ByteBuffer buf = ByteBuffer.allocate(256).order(ByteOrder.LITTLE_ENDIAN);

        private void ensure(int n) {
            if (buf.remaining() < n) {
                ByteBuffer grown = ByteBuffer.allocate(Math.max(buf.capacity() * 2, buf.position() + n)).order(ByteOrder.LITTLE_ENDIAN);
                buf.flip();
                grown.put(buf);
                buf = grown;
            }
        }

        Out u8(int v) {
            ensure(1);
            buf.put((byte) v);
            return this;
        }

        Out u32(int v) {
            ensure(4);
            buf.putInt(v);
            return this;
        }

        Out i64(long v) {
            ensure(8);
            buf.putLong(v);
            return this;
        }

        Out str(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            u32(b.length);
            ensure(b.length);
            buf.put(b);
            return this;
        }

        Out optStr(String s) {
            u8(s == null ? 0 : 1);
            return s == null ? this : str(s);
        }

        byte[] bytes() {
            byte[] out = new byte[buf.position()];
            buf.duplicate().flip().get(out);
            return out;
        }
    }

    static byte[] encodeSettings(Settings s) {
        return new Out().i64(s.shardDurationNanos()).bytes();
    }

    /** A REPLACE_SEGMENTS body: the files that leave and the entries that join, applied together. */
    public record Replace(List<String> removed, List<SegmentEntry> added) {
        public Replace {
            removed = List.copyOf(removed);
            added = List.copyOf(added);
        }
    }

    static byte[] encodeReplace(Replace r) {
        Out o = new Out();
        putRemove(o, r.removed());
        putAdd(o, r.added());
        return o.bytes();
    }

    static Replace decodeReplace(ByteBuffer body) throws BadBody {
        In in = new In(body);
        List<String> removed = readRemove(in);
        List<SegmentEntry> added = readAdd(in);
        in.end();
        return new Replace(removed, added);
    }

    static byte[] encodeAdd(List<SegmentEntry> entries) {
        Out o = new Out();
        putAdd(o, entries);
        return o.bytes();
    }

    private static void putAdd(Out o, List<SegmentEntry> entries) {
        o.u32(entries.size());
        for (SegmentEntry e : entries) {
            encodeEntry(o, e);
        }
    }

    /** One segment entry as {@code ADD_SEGMENTS} (and {@code ARCHIVED}) hold it. */
    static void encodeEntry(Out o, SegmentEntry e) {
        o.i64(e.id()).str(e.file()).i64(e.shard()).str(e.measurement()).i64(e.minTime()).i64(e.maxTime())
                .i64(e.rowCount()).u32(e.seriesCount()).i64(e.sizeBytes()).i64(e.walSequence()).u32(e.columns().size());
        for (ColumnStats c : e.columns()) {
            o.str(c.name()).u8(c.kind() == Column.Kind.TAG ? KIND_TAG : KIND_FIELD)
                    .u8(c.type() == null ? NO_TYPE : c.type().code()).i64(c.nullCount()).optStr(c.minTag()).optStr(c.maxTag())
                    .u8(c.hasRange() ? 1 : 0).i64(c.minBits()).i64(c.maxBits());
        }
    }

    static byte[] encodeWalFloor(long floor) {
        return new Out().i64(floor).bytes();
    }

    static long decodeWalFloor(ByteBuffer body) throws BadBody {
        In in = new In(body);
        long f = in.i64();
        in.end();
        if (f < 0) {
            throw new BadBody("negative WAL floor " + f);
        }
        return f;
    }

    static byte[] encodeTombstones(List<TombstoneEntry> tombstones) {
        Out o = new Out().u32(tombstones.size());
        for (TombstoneEntry t : tombstones) {
            o.i64(t.id()).str(t.measurement()).u32(t.tags().size());
            t.tags().forEach((k, v) -> o.str(k).str(v));
            o.i64(t.start()).i64(t.end());
            long[] ids = t.segmentIds();
            o.u32(ids.length);
            for (long id : ids) {
                o.i64(id);
            }
        }
        return o.bytes();
    }

    static byte[] encodeDropTombstones(List<Long> ids) {
        Out o = new Out().u32(ids.size());
        for (long id : ids) {
            o.i64(id);
        }
        return o.bytes();
    }

    static byte[] encodeRemove(List<String> files) {
        Out o = new Out();
        putRemove(o, files);
        return o.bytes();
    }

    private static void putRemove(Out o, List<String> files) {
        o.u32(files.size());
        for (String f : files) {
            o.str(f);
        }
    }

    static byte[] encodeSchema(List<CatalogDeclaration> decls) {
        Out o = new Out().u32(decls.size());
        for (CatalogDeclaration d : decls) {
            o.str(d.measurement()).str(d.column()).u8(d.type() == null ? KIND_TAG : KIND_FIELD)
                    .u8(d.type() == null ? NO_TYPE : d.type().code());
        }
        return o.bytes();
    }

    // ---------------------------------------------------------------- decoding

    /** Thrown by the decoders on a body that does not parse; the reader turns it into a corrupt-file error. */
    static final class BadBody extends Exception {
        BadBody(String reason) {
            super(reason, null, false, false);
        }
    }

    static final class In {
        private final ByteBuffer buf;

        In(ByteBuffer body) {
            this.buf = body.order(ByteOrder.LITTLE_ENDIAN);
        }

        int u8() throws BadBody {
            try {
                return buf.get() & 0xFF;
            } catch (BufferUnderflowException e) {
                throw new BadBody("body ends inside a field");
            }
        }

        int count(int minBytesEach) throws BadBody {
            int n = u32();
            if (n < 0 || (long) n * minBytesEach > buf.remaining()) {
                throw new BadBody("count " + Integer.toUnsignedString(n) + " exceeds the body");
            }
            return n;
        }

        int u32() throws BadBody {
            try {
                return buf.getInt();
            } catch (BufferUnderflowException e) {
                throw new BadBody("body ends inside a field");
            }
        }

        long i64() throws BadBody {
            try {
                return buf.getLong();
            } catch (BufferUnderflowException e) {
                throw new BadBody("body ends inside a field");
            }
        }

        String str() throws BadBody {
            int n = u32();
            if (n < 0 || n > buf.remaining()) {
                throw new BadBody("string length " + Integer.toUnsignedString(n) + " exceeds the body");
            }
            byte[] b = new byte[n];
            buf.get(b);
            return new String(b, StandardCharsets.UTF_8);
        }

        String optStr() throws BadBody {
            int flag = u8();
            if (flag > 1) {
                throw new BadBody("bad optional flag " + flag);
            }
            return flag == 0 ? null : str();
        }

        void end() throws BadBody {
            if (buf.hasRemaining()) {
                throw new BadBody(buf.remaining() + " trailing bytes");
            }
        }
    }

    static Settings decodeSettings(ByteBuffer body) throws BadBody {
        In in = new In(body);
        long d = in.i64();
        in.end();
        if (d <= 0) {
            throw new BadBody("shard duration not positive: " + d);
        }
        return new Settings(d);
    }

    static List<SegmentEntry> decodeAdd(ByteBuffer body) throws BadBody {
        In in = new In(body);
        List<SegmentEntry> out = readAdd(in);
        in.end();
        return out;
    }

    private static List<SegmentEntry> readAdd(In in) throws BadBody {
        int n = in.count(8);
        List<SegmentEntry> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(decodeEntry(in));
        }
        return out;
    }

    /** One segment entry, see {@link #encodeEntry}. */
    static SegmentEntry decodeEntry(In in) throws BadBody {
        long id = in.i64();
        String file = in.str();
        long shard = in.i64();
        String measurement = in.str();
        long minTime = in.i64();
        long maxTime = in.i64();
        long rows = in.i64();
        int series = in.u32();
        long size = in.i64();
        long wal = in.i64();
        int cols = in.count(4);
        List<ColumnStats> stats = new ArrayList<>(cols);
        for (int c = 0; c < cols; c++) {
            String name = in.str();
            int kind = in.u8();
            FieldType type = fieldType(in.u8(), kind);
            long nulls = in.i64();
            String minTag = in.optStr();
            String maxTag = in.optStr();
            boolean range = in.u8() != 0;
            long min = in.i64();
            long max = in.i64();
            stats.add(new ColumnStats(name, kind == KIND_TAG ? Column.Kind.TAG : Column.Kind.FIELD, type, nulls, minTag, maxTag,
                    range, min, max));
        }
        try {
            return new SegmentEntry(id, file, shard, measurement, minTime, maxTime, rows, series, size, wal, stats);
        } catch (IllegalArgumentException e) {
            throw new BadBody(e.getMessage());
        }
    }

    static List<TombstoneEntry> decodeTombstones(ByteBuffer body) throws BadBody {
        In in = new In(body);
        int n = in.count(8 + 4 + 4 + 8 + 8 + 4);
        List<TombstoneEntry> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long id = in.i64();
            String measurement = in.str();
            int tagCount = in.count(8);
            java.util.TreeMap<String, String> tags = new java.util.TreeMap<>();
            String previous = null;
            for (int t = 0; t < tagCount; t++) {
                String k = in.str();
                if (previous != null && previous.compareTo(k) >= 0) {
                    throw new BadBody("tombstone tags not strictly ascending at " + k);
                }
                previous = k;
                tags.put(k, in.str());
            }
            long start = in.i64();
            long end = in.i64();
            int segments = in.count(8);
            long[] ids = new long[segments];
            for (int s = 0; s < segments; s++) {
                ids[s] = in.i64();
                if (s > 0 && ids[s] <= ids[s - 1]) {
                    throw new BadBody("tombstone segment ids not strictly ascending at " + ids[s]);
                }
            }
            if (start > end) {
                throw new BadBody("tombstone start " + start + " after end " + end);
            }
            out.add(new TombstoneEntry(id, measurement, tags, start, end, ids));
        }
        in.end();
        return out;
    }

    static List<Long> decodeDropTombstones(ByteBuffer body) throws BadBody {
        In in = new In(body);
        int n = in.count(8);
        List<Long> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(in.i64());
        }
        in.end();
        return out;
    }

    static List<String> decodeRemove(ByteBuffer body) throws BadBody {
        In in = new In(body);
        List<String> out = readRemove(in);
        in.end();
        return out;
    }

    private static List<String> readRemove(In in) throws BadBody {
        int n = in.count(4);
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(in.str());
        }
        return out;
    }

    static List<CatalogDeclaration> decodeSchema(ByteBuffer body) throws BadBody {
        In in = new In(body);
        int n = in.count(10);
        List<CatalogDeclaration> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String m = in.str();
            String c = in.str();
            int kind = in.u8();
            FieldType type = fieldType(in.u8(), kind);
            out.add(new CatalogDeclaration(m, c, type));
        }
        in.end();
        return out;
    }

    private static FieldType fieldType(int code, int kind) throws BadBody {
        if (kind == KIND_TAG) {
            if (code != (NO_TYPE & 0xFF)) {
                throw new BadBody("a tag with a field type");
            }
            return null;
        }
        if (kind != KIND_FIELD) {
            throw new BadBody("unknown column kind " + kind);
        }
        FieldType t = FieldType.ofCode(code);
        if (t == null) {
            throw new BadBody("unknown field type " + code);
        }
        return t;
    }
}
