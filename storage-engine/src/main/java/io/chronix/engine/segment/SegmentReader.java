package io.chronix.engine.segment;

import com.github.luben.zstd.ZstdDictDecompress;
import io.chronix.engine.cache.BlockCache;
import io.chronix.engine.cache.DecodedBlock;
import io.chronix.engine.error.CorruptFileException;
import io.chronix.engine.error.UnsupportedFormatVersionException;
import io.chronix.engine.io.FileIO;
import io.chronix.engine.model.FieldType;
import io.chronix.engine.segment.encoding.DeltaOfDelta;
import io.chronix.engine.segment.encoding.DeltaZigzag;
import io.chronix.engine.segment.encoding.Dictionary;
import io.chronix.engine.segment.encoding.EncodingException;
import io.chronix.engine.segment.encoding.Encodings;
import io.chronix.engine.segment.encoding.Alp;
import io.chronix.engine.segment.encoding.AlpRd;
import io.chronix.engine.segment.encoding.Gorilla;
import io.chronix.engine.segment.encoding.BooleanBits;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.zip.CRC32C;

/**
 * The one reader of {@code .csx} segments.
 *
 * <h2>Verify before trusting</h2>
 * {@link #open} checks, in order: the file is long enough for header and footer; the header magic;
 * the version (equality — a foreign version is {@link UnsupportedFormatVersionException}); known
 * header flags; the footer magic; the metadata offset lies between header and footer; the row-group
 * count fits the metadata's size (so a damaged count cannot make us allocate); the whole-file
 * CRC-32C; then every metadata field as it is parsed — lengths against what remains, counts against
 * the header, every block range inside the data region, every encoding valid for its column, and
 * the metadata ending exactly at the footer. Every block read then checks the block's CRC-32C
 * before decoding, and a decode that finds impossible bytes fails. All of these are {@link
 * CorruptFileException} with the path and the offset of the damage; none returns wrong data, none
 * escapes as an unchecked JDK exception.
 *
 * <h2>Reading</h2>
 * {@link #readRowGroup} decodes the projected columns of one row group into a fresh {@link
 * VectorSchemaRoot} the caller owns, columns in canonical order. {@link #rowGroupsOverlapping}
 * prunes by the row groups' time bounds; {@link #scan} and {@link #scanReverse} (newest row group
 * first, for last values) combine the two.
 *
 * <p>Threading: reads are thread-safe (positional reads, per-call buffers); {@link #close} must not
 * race them. Closing twice is harmless.
 */
public final class SegmentReader implements AutoCloseable {

    private static final int CRC_CHUNK = 1 << 20;

    private final Path path;
    private final FileIO.ReadableFile file;
    private final SegmentMeta meta;
    private final ZstdDictDecompress dictionary;
    private final long metadataOffset;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Decoders (with their grown scratch arrays) kept for the next read; at most {@value #POOLED} idle. */
    private final java.util.concurrent.ConcurrentLinkedQueue<Decoder> decoders = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final java.util.concurrent.atomic.AtomicInteger pooled = new java.util.concurrent.atomic.AtomicInteger();
    private static final int POOLED = 4;
    /** Where decoded blocks are kept across reads; {@code null} = decode every time. */
    private volatile BlockCache blockCache;
    private final String cacheName;

    /** Receives one decoded row group; return false to stop. The root is closed after the call. */
    @FunctionalInterface
    public interface Visitor {
        boolean visit(int rowGroup, VectorSchemaRoot root);
    }

    private SegmentReader(Path path, FileIO.ReadableFile file, SegmentMeta meta, byte[] dict, long metadataOffset) {
        this.path = path;
        this.file = file;
        this.meta = meta;
        this.dictionary = dict.length == 0 ? null : new ZstdDictDecompress(dict);
        this.metadataOffset = metadataOffset;
        this.cacheName = path.toString();
    }

    /**
     * Makes row-group reads look decoded blocks up in {@code cache} first and put what they decode
     * there (keyed by this reader's path, row group and column). Returns this reader.
     */
    public SegmentReader cachingIn(BlockCache cache) {
        this.blockCache = cache;
        return this;
    }

    /**
     * Opens and verifies a segment (see the class comment).
     *
     * @throws CorruptFileException              on any damage
     * @throws UnsupportedFormatVersionException for another format version
     * @throws SegmentIoException                if the file cannot be read
     */
    public static SegmentReader open(FileIO io, Path path) {
        return open(io, path, true);
    }

    /**
     * Like {@link #open(FileIO, Path)}; with {@code trustEarlierVerification} false the whole-file
     * CRC is always recomputed (what {@code chronix-tool segment verify} wants).
     *
     * <h2>Verified once per process</h2>
     * A published segment never changes, so hashing it at every open is waste (seed 002 §3.3). After
     * a successful full check the reader remembers the file's (length, mtime, file key — the inode on
     * Linux) and its CRC, but only once the mtime is older than {@link #SETTLE_NANOS}, longer than
     * any file system's timestamp granularity; a later open of the same path with the same three
     * values and the same stored CRC skips the streaming hash. Each field catches what the others
     * cannot: a rewrite of another size, one of the same size, and a replacement by a copy that kept
     * the mtime. Metadata is still parsed and bounds-checked, and every block read still checks its
     * block CRC. A restart re-verifies everything.
     */
    public static SegmentReader open(FileIO io, Path path, boolean trustEarlierVerification) {
        FileIO.ReadableFile f;
        try {
            f = io.openRead(path);
        } catch (IOException e) {
            throw new SegmentIoException("open", path, e);
        }
        try {
            SegmentReader r = verifyAndParse(path, f, trustEarlierVerification);
            f = null;
            return r;
        } finally {
            if (f != null) {
                try {
                    f.close();
                } catch (IOException ignored) {
                    // open failed already
                }
            }
        }
    }

    /** How old an mtime must be before a verification is remembered (2 s). */
    static final long SETTLE_NANOS = 2_000_000_000L;
    private static final java.util.concurrent.ConcurrentHashMap<Path, Verified> VERIFIED = new java.util.concurrent.ConcurrentHashMap<>();

    private record Verified(long size, long mtimeNanos, Object fileKey, int crc) {
    }

    /** The file's identity on the default file system, or null where it has none (a test seam's paths). */
    private static Verified identity(Path path, long size, int crc) {
        try {
            java.nio.file.attribute.BasicFileAttributes a = java.nio.file.Files.readAttributes(path,
                    java.nio.file.attribute.BasicFileAttributes.class);
            if (a.size() != size || a.fileKey() == null) {
                return null;
            }
            return new Verified(size, a.lastModifiedTime().to(java.util.concurrent.TimeUnit.NANOSECONDS), a.fileKey(), crc);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Forgets every remembered verification (tests; or an operator who suspects the disk). */
    public static void forgetVerified() {
        VERIFIED.clear();
    }

    private static SegmentReader verifyAndParse(Path path, FileIO.ReadableFile f, boolean trustEarlier) {
        long size;
        try {
            size = f.size();
        } catch (IOException e) {
            throw new SegmentIoException("size", path, e);
        }
        if (size < SegmentFormat.MIN_FILE_SIZE) {
            throw new CorruptFileException(path, 0, "file too short for header and footer [size=" + size + "]");
        }
        ByteBuffer header = readAt(path, f, 0, SegmentFormat.HEADER_SIZE);
        if (!hasMagic(header, SegmentFormat.MAGIC_OFFSET)) {
            throw new CorruptFileException(path, SegmentFormat.MAGIC_OFFSET, "bad header magic (not a segment)");
        }
        int version = Short.toUnsignedInt(header.getShort(SegmentFormat.VERSION_OFFSET));
        if (version < SegmentFormat.MIN_READ_VERSION || version > SegmentFormat.VERSION) {
            throw new UnsupportedFormatVersionException(path, "segment file", version, SegmentFormat.VERSION);
        }
        int flags = Short.toUnsignedInt(header.getShort(SegmentFormat.FLAGS_OFFSET));
        if ((flags & ~SegmentFormat.KNOWN_FLAGS) != 0) {
            throw new CorruptFileException(path, SegmentFormat.FLAGS_OFFSET, "unknown header flags [flags=" + flags + "]");
        }
        long footerStart = size - SegmentFormat.FOOTER_SIZE;
        ByteBuffer footer = readAt(path, f, footerStart, SegmentFormat.FOOTER_SIZE);
        if (!hasMagic(footer, SegmentFormat.FOOTER_MAGIC_OFFSET)) {
            throw new CorruptFileException(path, footerStart + SegmentFormat.FOOTER_MAGIC_OFFSET, "bad footer magic (truncated or not a segment)");
        }
        long metadataOffset = footer.getLong(SegmentFormat.FOOTER_METADATA_OFFSET);
        long rowGroupCount = Integer.toUnsignedLong(footer.getInt(SegmentFormat.FOOTER_ROW_GROUP_COUNT_OFFSET));
        if (metadataOffset < SegmentFormat.HEADER_SIZE || metadataOffset >= footerStart) {
            throw new CorruptFileException(path, footerStart + SegmentFormat.FOOTER_METADATA_OFFSET,
                    "metadata offset outside the file [metadataOffset=" + metadataOffset + ", footerStart=" + footerStart + "]");
        }
        long metadataLength = footerStart - metadataOffset;
        if (rowGroupCount > metadataLength / SegmentFormat.ROW_GROUP_META_SIZE) {
            throw new CorruptFileException(path, footerStart + SegmentFormat.FOOTER_ROW_GROUP_COUNT_OFFSET,
                    "row group count exceeds what the metadata can hold [rowGroups=" + rowGroupCount + "]");
        }
        if (metadataLength > SegmentFormat.MAX_METADATA_SIZE) {
            throw new CorruptFileException(path, metadataOffset, "metadata larger than 256 MiB [length=" + metadataLength + "]");
        }
        int storedCrc = footer.getInt(SegmentFormat.FOOTER_CRC_OFFSET);
        Path key = path.toAbsolutePath();
        Verified id = identity(key, size, storedCrc);
        int actualCrc;
        if (trustEarlier && id != null && id.equals(VERIFIED.get(key))) {
            actualCrc = storedCrc;
        } else {
            actualCrc = crcOf(path, f, footerStart + SegmentFormat.FOOTER_CRC_COVERED);
            if (storedCrc != actualCrc) {
                VERIFIED.remove(key);
                throw new CorruptFileException(path, footerStart + SegmentFormat.FOOTER_CRC_OFFSET, "checksum mismatch [stored="
                        + Integer.toHexString(storedCrc) + ", computed=" + Integer.toHexString(actualCrc) + "]");
            }
            if (id != null && System.currentTimeMillis() * 1_000_000L - id.mtimeNanos() > SETTLE_NANOS) {
                VERIFIED.put(key, id);
            }
        }
        byte[] metadata = new byte[(int) metadataLength];
        readFully(path, f, metadataOffset, ByteBuffer.wrap(metadata));
        MetadataParser p = new MetadataParser(path, metadata, metadataOffset);
        SegmentMeta.Header h = new SegmentMeta.Header(version, flags, header.getLong(SegmentFormat.MIN_TIME_OFFSET),
                header.getLong(SegmentFormat.MAX_TIME_OFFSET), header.getLong(SegmentFormat.ROW_COUNT_OFFSET),
                header.getInt(SegmentFormat.COLUMN_COUNT_OFFSET), header.getInt(SegmentFormat.SERIES_COUNT_OFFSET),
                header.getLong(SegmentFormat.MAX_WAL_SEQUENCE_OFFSET));
        SegmentMeta meta = p.parse(h, (int) rowGroupCount, size, actualCrc);
        return new SegmentReader(path, f, meta, p.dictionary, metadataOffset);
    }

    private static boolean hasMagic(ByteBuffer b, int at) {
        for (int i = 0; i < SegmentFormat.MAGIC.length; i++) {
            if (b.get(at + i) != SegmentFormat.MAGIC[i]) {
                return false;
            }
        }
        return true;
    }

    private static int crcOf(Path path, FileIO.ReadableFile f, long length) {
        CRC32C crc = new CRC32C();
        ByteBuffer buf = ByteBuffer.allocate((int) Math.min(CRC_CHUNK, Math.max(1, length)));
        long pos = 0;
        while (pos < length) {
            buf.clear();
            buf.limit((int) Math.min(buf.capacity(), length - pos));
            readFully(path, f, pos, buf);
            buf.flip();
            crc.update(buf);
            pos += buf.limit();
        }
        return (int) crc.getValue();
    }

    private static ByteBuffer readAt(Path path, FileIO.ReadableFile f, long pos, int len) {
        ByteBuffer b = ByteBuffer.allocate(len).order(ByteOrder.LITTLE_ENDIAN);
        readFully(path, f, pos, b);
        return b.clear();
    }

    private static void readFully(Path path, FileIO.ReadableFile f, long pos, ByteBuffer dst) {
        long at = pos;
        try {
            while (dst.hasRemaining()) {
                int n = f.read(dst, at);
                if (n < 0) {
                    throw new CorruptFileException(path, at, "file ends early");
                }
                at += n;
            }
        } catch (IOException e) {
            throw new SegmentIoException("read", path, e);
        }
    }

    // ---- accessors ----

    public Path path() {
        return path;
    }

    public SegmentMeta meta() {
        return meta;
    }

    public SegmentMeta.Header header() {
        return meta.header();
    }

    public List<SegmentMeta.Column> columns() {
        return meta.columns();
    }

    public List<SegmentMeta.RowGroup> rowGroups() {
        return meta.rowGroups();
    }

    public List<SegmentMeta.Series> series() {
        return meta.series();
    }

    /** Whether the blocks after the first row group may use the trained Zstd dictionary. */
    public boolean hasZstdDictionary() {
        return dictionary != null;
    }

    /** Indices of the row groups whose time bounds meet {@code [from, to]} (both inclusive), ascending. */
    public int[] rowGroupsOverlapping(long from, long to) {
        List<SegmentMeta.RowGroup> groups = meta.rowGroups();
        int[] out = new int[groups.size()];
        int n = 0;
        if (meta.header().minTime() <= to && meta.header().maxTime() >= from) {
            for (int i = 0; i < groups.size(); i++) {
                if (groups.get(i).overlaps(from, to)) {
                    out[n++] = i;
                }
            }
        }
        return Arrays.copyOf(out, n);
    }

    /**
     * The time column of row group {@code rowGroup} as decoded: eight little-endian bytes a row,
     * from the block cache or decoded (and then cached) — the same image reading the group's rows
     * uses. Within one series' rows the times ascend ({@link #firstTimeAtLeast}).
     */
    public byte[] timeImage(int rowGroup) {
        checkOpen();
        SegmentMeta.RowGroup g = meta.rowGroups().get(java.util.Objects.checkIndex(rowGroup, meta.rowGroups().size()));
        Decoder d = acquire();
        try {
            return image(d, rowGroup, 0, meta.columns().getFirst(), g.blocks().getFirst()).data();
        } finally {
            release(d);
        }
    }

    /**
     * The first row of {@code [lo, hi)} whose time in {@code times} (a {@link #timeImage}, ascending
     * over those rows: one series') is at least {@code t}; {@code hi} if there is none.
     */
    public static int firstTimeAtLeast(byte[] times, int lo, int hi, long t) {
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if ((long) LONG_LE.get(times, mid * 8) < t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The Arrow schema of a projection ({@code null} = every column), canonical order. */
    public Schema schema(List<String> projection) {
        return SegmentArrow.schema(project(projection).stream().map(i -> meta.columns().get(i)).toList());
    }

    /** Column indices for a projection, in canonical order; unknown names are refused. */
    private List<Integer> project(List<String> projection) {
        List<Integer> idx = new ArrayList<>();
        if (projection == null) {
            for (int i = 0; i < meta.columns().size(); i++) {
                idx.add(i);
            }
            return idx;
        }
        boolean[] want = new boolean[meta.columns().size()];
        for (String name : projection) {
            int i = meta.columnIndex(name);
            if (i < 0) {
                throw new IllegalArgumentException("no such column in segment [column=" + name + ", path=" + path + "]");
            }
            want[i] = true;
        }
        for (int i = 0; i < want.length; i++) {
            if (want[i]) {
                idx.add(i);
            }
        }
        return idx;
    }

    /** Visits the row groups meeting {@code [from, to]} in time order of storage (first to last). */
    public void scan(BufferAllocator allocator, List<String> projection, long from, long to, Visitor visitor) {
        for (int rg : rowGroupsOverlapping(from, to)) {
            try (VectorSchemaRoot root = readRowGroup(allocator, rg, projection)) {
                if (!visitor.visit(rg, root)) {
                    return;
                }
            }
        }
    }

    /** Like {@link #scan} but last row group first — the newest rows of a series are at the end of its stretch. */
    public void scanReverse(BufferAllocator allocator, List<String> projection, long from, long to, Visitor visitor) {
        int[] groups = rowGroupsOverlapping(from, to);
        for (int k = groups.length - 1; k >= 0; k--) {
            try (VectorSchemaRoot root = readRowGroup(allocator, groups[k], projection)) {
                if (!visitor.visit(groups[k], root)) {
                    return;
                }
            }
        }
    }

    /**
     * Decodes the projected columns ({@code null} = all) of row group {@code rowGroup}. The caller
     * owns and closes the result.
     */
    public VectorSchemaRoot readRowGroup(BufferAllocator allocator, int rowGroup, List<String> projection) {
        checkOpen();
        SegmentMeta.RowGroup g = meta.rowGroups().get(java.util.Objects.checkIndex(rowGroup, meta.rowGroups().size()));
        return decodeColumns(allocator, projection, g.rowCount(),
                (d, c, column, v) -> load(d, rowGroup, c, column, g.blocks().get(c), v));
    }

    /**
     * Decodes the projected columns ({@code null} = all) of row group {@code rowGroup} but keeps
     * only the rows of {@code ranges} — {@code [start0, count0, start1, count1, …]}, row numbers
     * within the row group, ascending and not overlapping — in that order, as one batch. Rows are
     * stored series by series, so the series table turns "these series" into a few such stretches:
     * a one-host query then materialises its few hundred rows instead of the whole row group
     * (every tag string and field value of it). Each block is still decoded whole (the encodings
     * cannot start mid-block), but only once: its image goes to the block cache, and a hit copies
     * just the stretches. The caller owns and closes the result.
     *
     * @throws IllegalArgumentException for ranges outside the row group, unordered or overlapping
     */
    public VectorSchemaRoot readRowGroupRows(BufferAllocator allocator, int rowGroup, List<String> projection, int[] ranges) {
        checkOpen();
        SegmentMeta.RowGroup g = meta.rowGroups().get(java.util.Objects.checkIndex(rowGroup, meta.rowGroups().size()));
        int rows = BlockImages.checkRanges(ranges, g.rowCount());
        return decodeColumns(allocator, projection, rows,
                (d, c, column, v) -> BlockImages.fillRanges(v, image(d, rowGroup, c, column, g.blocks().get(c)), ranges, rows, d.scratch));
    }

    /**
     * Clears {@code keep[row]} for every row of row group {@code rowGroup} whose value of numeric
     * field {@code field} is NULL or fails {@code test} ({@code INTEGER} and {@code UNSIGNED}
     * values are converted to {@code double}); a segment without the column holds it as NULL, so
     * every row is cleared. The block is decoded whole once (or taken from the block cache) and
     * read from its image, with no vector built: a selective condition on one field then decides
     * which rows of the other columns are materialised ({@link #readRowGroupRows}).
     *
     * @param keep  one entry per row of the row group; entries already false stay false
     * @param scope the rows to test, {@code [start0, count0, …]} ascending; rows outside it are
     *              left as they are (false, as the caller keeps them): a tag predicate's few series
     *              are tested without a pass over the whole row group
     * @return false, leaving {@code keep} alone, if the column is not a numeric field
     */
    public boolean filterRows(int rowGroup, String field, java.util.function.DoublePredicate test,
            boolean[] keep, int[] scope) {
        checkOpen();
        SegmentMeta.RowGroup g = meta.rowGroups().get(java.util.Objects.checkIndex(rowGroup, meta.rowGroups().size()));
        if (keep.length != g.rowCount()) {
            throw new IllegalArgumentException("one flag per row [rows=" + g.rowCount() + ", flags=" + keep.length + "]");
        }
        int c = meta.columnIndex(field);
        if (c < 0) {
            Arrays.fill(keep, false);
            return true;
        }
        SegmentMeta.Column column = meta.columns().get(c);
        FieldType type = column.type();
        if (column.role() != SegmentMeta.Role.FIELD
                || (type != FieldType.FLOAT && type != FieldType.INTEGER && type != FieldType.UNSIGNED)) {
            return false;
        }
        DecodedBlock image;
        Decoder d = acquire();
        try {
            image = image(d, rowGroup, c, column, g.blocks().get(c));
        } finally {
            release(d);
        }
        byte[] data = image.data();
        byte[] validity = image.validity();
        for (int i = 0; i < scope.length; i += 2) {
            for (int row = scope[i], end = row + scope[i + 1]; row < end; row++) {
                filterRow(keep, row, data, validity, type, test);
            }
        }
        return true;
    }

    /** {@link #filterRows} for one row. */
    private static void filterRow(boolean[] keep, int row, byte[] data, byte[] validity, FieldType type,
            java.util.function.DoublePredicate test) {
        if (!keep[row]) {
            return;
        }
        if (validity != null && (validity[row >>> 3] & (1 << (row & 7))) == 0) {
            keep[row] = false;
            return;
        }
        long bits = (long) LONG_LE.get(data, row * 8);
        double v = switch (type) {
            case FLOAT -> Double.longBitsToDouble(bits);
            case INTEGER -> (double) bits;
            default -> FieldType.unsignedToDouble(bits);
        };
        keep[row] = test.test(v);
    }

    private static final java.lang.invoke.VarHandle LONG_LE =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** Fills one projected column's vector of a row group. */
    @FunctionalInterface
    private interface ColumnFill {
        void fill(Decoder d, int columnIndex, SegmentMeta.Column column, FieldVector v);
    }

    /** One vector per projected column, filled by {@code fill} with one pooled decoder; closed again if any fill fails. */
    private VectorSchemaRoot decodeColumns(BufferAllocator allocator, List<String> projection, int rowCount, ColumnFill fill) {
        List<Integer> cols = project(projection);
        List<FieldVector> vectors = new ArrayList<>(cols.size());
        Decoder d = acquire();
        boolean ok = false;
        try {
            for (int c : cols) {
                SegmentMeta.Column column = meta.columns().get(c);
                FieldVector v = SegmentArrow.field(column).createVector(allocator);
                vectors.add(v);
                fill.fill(d, c, column, v);
            }
            VectorSchemaRoot root = new VectorSchemaRoot(vectors);
            root.setRowCount(rowCount);
            ok = true;
            return root;
        } finally {
            release(d);
            if (!ok) {
                vectors.forEach(FieldVector::close);
            }
        }
    }

    /** The decoded image of one block: from the block cache, or decoded (and then cached). */
    private DecodedBlock image(Decoder d, int rowGroup, int columnIndex, SegmentMeta.Column column, SegmentMeta.Block b) {
        BlockCache cache = blockCache;
        BlockCache.Key key = cache == null ? null : new BlockCache.Key(cacheName, rowGroup, columnIndex);
        if (cache != null) {
            DecodedBlock hit = cache.get(key);
            if (hit != null && hit.valueCount() == b.valueCount()) {
                return hit;
            }
        }
        DecodedBlock image = d.image(column, b);
        if (cache != null) {
            cache.put(key, image);
        }
        return image;
    }

    /**
     * Decodes row group {@code rowGroup} into exactly the columns of {@code wanted}, in its order: a
     * column the segment holds is decoded (its Arrow type must be the one {@link SegmentArrow} gives
     * it), a column it lacks — a field added after this segment was written — comes back all NULL.
     * The caller owns and closes the result.
     *
     * @throws IllegalArgumentException if a held column is asked for with another type
     */
    public VectorSchemaRoot readRowGroupAs(BufferAllocator allocator, int rowGroup, Schema wanted) {
        checkOpen();
        SegmentMeta.RowGroup g = meta.rowGroups().get(java.util.Objects.checkIndex(rowGroup, meta.rowGroups().size()));
        List<FieldVector> vectors = new ArrayList<>(wanted.getFields().size());
        Decoder d = acquire();
        boolean ok = false;
        try {
            for (org.apache.arrow.vector.types.pojo.Field f : wanted.getFields()) {
                int c = meta.columnIndex(f.getName());
                if (c < 0) {
                    FieldVector v = f.createVector(allocator);
                    vectors.add(v);
                    v.setInitialCapacity(g.rowCount());
                    v.allocateNew();
                    v.setValueCount(g.rowCount()); // validity stays zero: every row NULL
                    continue;
                }
                SegmentMeta.Column column = meta.columns().get(c);
                org.apache.arrow.vector.types.pojo.Field stored = SegmentArrow.field(column);
                if (!stored.getType().equals(f.getType())) {
                    throw new IllegalArgumentException("column has another type in this segment [column=" + f.getName()
                            + ", stored=" + stored.getType() + ", asked=" + f.getType() + ", path=" + path + "]");
                }
                FieldVector v = stored.createVector(allocator);
                vectors.add(v);
                load(d, rowGroup, c, column, g.blocks().get(c), v);
            }
            VectorSchemaRoot root = new VectorSchemaRoot(vectors);
            root.setRowCount(g.rowCount());
            ok = true;
            return root;
        } finally {
            release(d);
            if (!ok) {
                vectors.forEach(FieldVector::close);
            }
        }
    }

    /**
     * Reads and decodes every block of every row group without producing vectors: the deep check of
     * {@code chronix-tool segment verify}.
     */
    public void verifyBlocks() {
        checkOpen();
        Decoder d = acquire();
        for (SegmentMeta.RowGroup g : meta.rowGroups()) {
            for (int c = 0; c < meta.columns().size(); c++) {
                d.decodeOnly(meta.columns().get(c), g.blocks().get(c));
            }
        }
        release(d);
    }

    /** The series keys, decoded from the tag blocks at each series' first row. */
    public SeriesIndex seriesIndex() {
        checkOpen();
        List<SegmentMeta.Column> tags = meta.tagsInSortOrder();
        List<String> names = tags.stream().map(SegmentMeta.Column::name).toList();
        List<SegmentMeta.Series> series = meta.series();
        List<String[]> values = new ArrayList<>(series.size());
        for (int s = 0; s < series.size(); s++) {
            values.add(new String[tags.size()]);
        }
        Decoder d = acquire();
        int s = 0;
        for (SegmentMeta.RowGroup g : meta.rowGroups()) {
            long end = g.firstRow() + g.rowCount();
            int first = s;
            while (s < series.size() && series.get(s).firstRow() < end) {
                s++;
            }
            if (first == s) {
                continue;
            }
            for (int t = 0; t < tags.size(); t++) {
                int c = meta.columnIndex(names.get(t));
                String[] decoded = d.strings(meta.columns().get(c), g.blocks().get(c));
                for (int k = first; k < s; k++) {
                    values.get(k)[t] = decoded[(int) (series.get(k).firstRow() - g.firstRow())];
                }
            }
        }
        List<SeriesIndex.Key> keys = new ArrayList<>(series.size());
        for (int k = 0; k < series.size(); k++) {
            SegmentMeta.Series x = series.get(k);
            keys.add(new SeriesIndex.Key(Arrays.asList(values.get(k)), x.firstRow(), x.rowCount(), x.minTime(), x.maxTime()));
        }
        return new SeriesIndex(meta.crc(), meta.measurement(), names, keys);
    }

    /**
     * Fills {@code v} with block {@code b} from the block cache, or decodes it (and caches the
     * result). Without a cache (compaction's readers) the block is decoded straight into the
     * vector from the decoder's reused arrays: no image allocated for a block read once.
     */
    private void load(Decoder d, int rowGroup, int columnIndex, SegmentMeta.Column column, SegmentMeta.Block b, FieldVector v) {
        BlockCache cache = blockCache;
        if (cache == null) {
            d.load(column, b, v);
            return;
        }
        BlockImages.fill(v, image(d, rowGroup, columnIndex, column, b), d.scratch);
    }

    private Decoder acquire() {
        Decoder d = decoders.poll();
        if (d == null) {
            return new Decoder();
        }
        pooled.decrementAndGet();
        return d;
    }

    private void release(Decoder d) {
        if (pooled.incrementAndGet() <= POOLED) {
            decoders.offer(d);
        } else {
            pooled.decrementAndGet();
        }
    }

    private void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException("segment reader closed [path=" + path + "]");
        }
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            try {
                file.close();
            } catch (IOException e) {
                throw new SegmentIoException("close", path, e);
            }
        }
    }

    // ---- block decoding; one Decoder per call keeps reads thread-safe ----

    private final class Decoder {
        private byte[] stored = new byte[0];
        private byte[] plain = new byte[0];
        private byte[] validity = new byte[0];
        private long[] longs = new long[0];
        private byte[] strings = new byte[0];
        private byte[] stringOffsets = new byte[0];
        private double[] doubles = new double[0];
        private final Dictionary.Decoded dict = new Dictionary.Decoded();
        private final BlockImages.Scratch scratch = new BlockImages.Scratch();
        private byte[] payload;
        private int payloadLength;
        private boolean hasValidity;

        /** Reads, checks and decompresses a block into {@code payload[0, payloadLength)} (+PAD). */
        private void fetch(SegmentMeta.Block b) {
            int len = b.storedLength();
            if (stored.length < len + Encodings.PAD) {
                stored = new byte[len + Encodings.PAD];
            }
            readFully(path, file, b.offset(), ByteBuffer.wrap(stored, 0, len));
            Arrays.fill(stored, len, len + Encodings.PAD, (byte) 0);
            CRC32C crc = new CRC32C();
            crc.update(stored, 0, len);
            if ((int) crc.getValue() != b.blockCrc()) {
                throw new CorruptFileException(path, b.offset(), "block checksum mismatch");
            }
            if (b.compression() == SegmentFormat.COMPRESSION_NONE) {
                payload = stored;
                payloadLength = len;
            } else {
                int expected = b.uncompressedLength();
                if (plain.length < expected + Encodings.PAD) {
                    plain = new byte[expected + Encodings.PAD];
                }
                try {
                    BlockCompression.decompress(b.compression(), stored, 0, len, plain, expected, dictionary);
                } catch (EncodingException e) {
                    throw new CorruptFileException(path, b.offset(), e.getMessage());
                }
                Arrays.fill(plain, expected, expected + Encodings.PAD, (byte) 0);
                payload = plain;
                payloadLength = expected;
            }
            hasValidity = b.validityLength() > 0;
            if (hasValidity) {
                if (validity.length < b.validityLength()) {
                    validity = new byte[b.validityLength()];
                }
                readFully(path, file, b.validityOffset(), ByteBuffer.wrap(validity, 0, b.validityLength()));
            }
        }

        void load(SegmentMeta.Column column, SegmentMeta.Block b, FieldVector v) {
            fetch(b);
            int n = b.valueCount();
            try {
                decodeInto(column, b, v, n);
            } catch (EncodingException e) {
                throw new CorruptFileException(path, b.offset(), e.getMessage());
            } catch (IndexOutOfBoundsException | NegativeArraySizeException e) {
                throw new CorruptFileException(path, b.offset(), "undecodable block: " + e);
            }
        }

        /**
         * Decodes a block straight into its heap image, no vector in between; a dictionary block
         * stays in dictionary form (its entries once, a code per row or per run).
         */
        DecodedBlock image(SegmentMeta.Column column, SegmentMeta.Block b) {
            fetch(b);
            int n = b.valueCount();
            try {
                decodeValues(column, b, n);
                byte[] valid = hasValidity ? Arrays.copyOf(validity, BooleanBits.bytesFor(n)) : null;
                return switch (b.encoding()) {
                    case Encodings.DELTA_OF_DELTA, Encodings.DELTA_ZIGZAG -> {
                        byte[] data = new byte[8 * n];
                        ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().put(longs, 0, n);
                        yield new DecodedBlock(n, valid, data, null);
                    }
                    case Encodings.GORILLA, Encodings.ALP, Encodings.ALP_RD -> {
                        byte[] data = new byte[8 * n];
                        ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().put(doubles, 0, n);
                        yield new DecodedBlock(n, valid, data, null);
                    }
                    case Encodings.BITS -> new DecodedBlock(n, valid, Arrays.copyOf(payload, BooleanBits.bytesFor(n)), null);
                    case Encodings.DICTIONARY -> dictionaryImage(n, valid);
                    default -> throw new EncodingException("unknown encoding " + b.encoding());
                };
            } catch (EncodingException e) {
                throw new CorruptFileException(path, b.offset(), e.getMessage());
            } catch (IndexOutOfBoundsException | NegativeArraySizeException e) {
                throw new CorruptFileException(path, b.offset(), "undecodable block: " + e);
            }
        }

        /** The decoded dictionary as an image: entries packed once, codes per run when the rows run. */
        private DecodedBlock dictionaryImage(int n, byte[] valid) {
            int size = dict.size;
            long total = 0;
            for (int e = 0; e < size; e++) {
                total += dict.entryLength[e];
            }
            byte[] entries = new byte[Math.toIntExact(total)];
            byte[] offsets = new byte[(size + 1) * Integer.BYTES];
            int at = 0;
            for (int e = 0; e < size; e++) {
                System.arraycopy(payload, dict.entryOffset[e], entries, at, dict.entryLength[e]);
                at += dict.entryLength[e];
                BlockImages.INT_LE.set(offsets, (e + 1) * Integer.BYTES, at);
            }
            int[] codes = dict.codes;
            int runs = 0;
            for (int i = 0; i < n; i++) {
                if (i == 0 || codes[i] != codes[i - 1]) {
                    runs++;
                }
            }
            // per run when that is smaller: two ints a run against one a row
            if (2 * runs >= n) {
                return new DecodedBlock(n, valid, entries, offsets, Arrays.copyOf(codes, n), null);
            }
            int[] runCodes = new int[runs];
            int[] runEnds = new int[runs];
            int r = -1;
            for (int i = 0; i < n; i++) {
                if (i == 0 || codes[i] != codes[i - 1]) {
                    r++;
                    runCodes[r] = codes[i];
                }
                runEnds[r] = i + 1;
            }
            return new DecodedBlock(n, valid, entries, offsets, runCodes, runEnds);
        }

        void decodeOnly(SegmentMeta.Column column, SegmentMeta.Block b) {
            fetch(b);
            try {
                decodeValues(column, b, b.valueCount());
            } catch (EncodingException e) {
                throw new CorruptFileException(path, b.offset(), e.getMessage());
            } catch (IndexOutOfBoundsException | NegativeArraySizeException e) {
                throw new CorruptFileException(path, b.offset(), "undecodable block: " + e);
            }
        }

        String[] strings(SegmentMeta.Column column, SegmentMeta.Block b) {
            fetch(b);
            int n = b.valueCount();
            try {
                endCheck(dict.decode(payload, 0, payloadLength, n), b);
            } catch (EncodingException e) {
                throw new CorruptFileException(path, b.offset(), e.getMessage());
            }
            String[] entries = new String[dict.size];
            for (int i = 0; i < dict.size; i++) {
                entries[i] = dict.entry(payload, i);
            }
            String[] out = new String[n];
            for (int i = 0; i < n; i++) {
                out[i] = present(i) ? entries[dict.codes[i]] : null;
            }
            return out;
        }

        private boolean present(int i) {
            return !hasValidity || (validity[i >>> 3] & (1 << (i & 7))) != 0;
        }

        private void endCheck(int end, SegmentMeta.Block b) {
            if (end != payloadLength) {
                throw new EncodingException("block has " + (payloadLength - end) + " bytes after its values");
            }
        }

        /** Decodes into the scratch arrays; returns nothing, validates everything. */
        private void decodeValues(SegmentMeta.Column column, SegmentMeta.Block b, int n) {
            switch (b.encoding()) {
                case Encodings.DELTA_OF_DELTA -> {
                    growLongs(n);
                    endCheck(DeltaOfDelta.decode(payload, 0, payloadLength, longs, n), b);
                }
                case Encodings.DELTA_ZIGZAG -> {
                    growLongs(n);
                    endCheck(DeltaZigzag.decode(payload, 0, payloadLength, longs, 0, n), b);
                }
                case Encodings.GORILLA -> {
                    growDoubles(n);
                    endCheck(Gorilla.decode(payload, 0, payloadLength, doubles, n), b);
                }
                case Encodings.ALP -> {
                    growDoubles(n);
                    growLongs(n);
                    endCheck(Alp.decode(payload, 0, payloadLength, doubles, n, longs), b);
                }
                case Encodings.ALP_RD -> {
                    growDoubles(n);
                    growLongs(n);
                    endCheck(AlpRd.decode(payload, 0, payloadLength, doubles, n, longs), b);
                }
                case Encodings.DICTIONARY -> endCheck(dict.decode(payload, 0, payloadLength, n), b);
                case Encodings.BITS -> {
                    if (payloadLength != BooleanBits.bytesFor(n)) {
                        throw new EncodingException("boolean block has " + payloadLength + " bytes for " + n + " values");
                    }
                }
                default -> throw new EncodingException("unknown encoding " + b.encoding());
            }
        }

        private void decodeInto(SegmentMeta.Column column, SegmentMeta.Block b, FieldVector v, int n) {
            decodeValues(column, b, n);
            switch (b.encoding()) {
                case Encodings.DELTA_OF_DELTA, Encodings.DELTA_ZIGZAG -> {
                    BaseFixedWidthVector fv = (BaseFixedWidthVector) v;
                    fv.allocateNew(n);
                    ArrowBuf data = fv.getDataBuffer();
                    data.nioBuffer(0, n * 8).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().put(longs, 0, n);
                    setValidity(fv.getValidityBuffer(), n);
                    fv.setValueCount(n);
                }
                case Encodings.GORILLA, Encodings.ALP, Encodings.ALP_RD -> {
                    BaseFixedWidthVector fv = (BaseFixedWidthVector) v;
                    fv.allocateNew(n);
                    fv.getDataBuffer().nioBuffer(0, n * 8).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().put(doubles, 0, n);
                    setValidity(fv.getValidityBuffer(), n);
                    fv.setValueCount(n);
                }
                case Encodings.BITS -> {
                    BitVector bv = (BitVector) v;
                    bv.allocateNew(n);
                    bv.getDataBuffer().setBytes(0, payload, 0, BooleanBits.bytesFor(n));
                    setValidity(bv.getValidityBuffer(), n);
                    bv.setValueCount(n);
                }
                case Encodings.DICTIONARY -> {
                    VarCharVector sv = (VarCharVector) v;
                    long total = 0;
                    for (int i = 0; i < n; i++) {
                        if (present(i)) {
                            total += dict.entryLength[dict.codes[i]];
                        }
                    }
                    if (total > Integer.MAX_VALUE) {
                        throw new EncodingException("strings of one block exceed 2 GiB");
                    }
                    // the strings and offsets are gathered on the heap and copied into the vector
                    // once each: VarCharVector.set per row does one native copy of a few bytes per
                    // row, which was most of a SELECT * scan's CPU over tag columns
                    sv.allocateNew(Math.max(1, total), n);
                    if (strings.length < total) {
                        strings = new byte[(int) Math.max(total, Math.min(Integer.MAX_VALUE - 8, 2L * strings.length))];
                    }
                    if (stringOffsets.length < 4 * (n + 1)) {
                        stringOffsets = new byte[4 * (n + 1)];
                    }
                    int at = 0;
                    BlockImages.INT_LE.set(stringOffsets, 0, 0);
                    for (int i = 0; i < n; i++) {
                        if (present(i)) {
                            int code = dict.codes[i];
                            int len = dict.entryLength[code];
                            System.arraycopy(payload, dict.entryOffset[code], strings, at, len);
                            at += len;
                        }
                        BlockImages.INT_LE.set(stringOffsets, 4 * (i + 1), at);
                    }
                    sv.getOffsetBuffer().setBytes(0, stringOffsets, 0, 4L * (n + 1));
                    sv.getDataBuffer().setBytes(0, strings, 0, at);
                    setValidity(sv.getValidityBuffer(), n);
                    sv.setLastSet(n - 1);
                    sv.setValueCount(n);
                }
                default -> throw new EncodingException("unknown encoding " + b.encoding());
            }
        }

        private void setValidity(ArrowBuf buf, int n) {
            int bytes = BooleanBits.bytesFor(n);
            if (hasValidity) {
                buf.setBytes(0, validity, 0, bytes);
            } else {
                buf.setOne(0, bytes);
            }
        }

        private void growLongs(int n) {
            if (longs.length < n) {
                longs = new long[n];
            }
        }

        private void growDoubles(int n) {
            if (doubles.length < n) {
                doubles = new double[n];
            }
        }
    }

    // ---- metadata parsing: every read bounds-checked, every value validated ----

    private static final class MetadataParser {
        private final Path path;
        private final byte[] m;
        private final ByteBuffer b;
        private final long base;
        byte[] dictionary = new byte[0];
        /** The header's format version: which encodings a block may use. */
        private int version;

        MetadataParser(Path path, byte[] metadata, long base) {
            this.path = path;
            this.m = metadata;
            this.b = ByteBuffer.wrap(metadata).order(ByteOrder.LITTLE_ENDIAN);
            this.base = base;
        }

        private CorruptFileException corrupt(String reason) {
            return new CorruptFileException(path, base + b.position(), reason);
        }

        private void need(int bytes, String what) {
            if (bytes < 0 || b.remaining() < bytes) {
                throw corrupt(what + " runs past the end of the metadata");
            }
        }

        private int u8(String what) {
            need(1, what);
            return Byte.toUnsignedInt(b.get());
        }

        private int u32(String what) {
            need(4, what);
            return b.getInt();
        }

        private long i64(String what) {
            need(8, what);
            return b.getLong();
        }

        private String name(String what) {
            need(2, what);
            int len = Short.toUnsignedInt(b.getShort());
            need(len, what);
            String s = new String(m, b.position(), len, StandardCharsets.UTF_8);
            b.position(b.position() + len);
            return s;
        }

        private int count(String what, long max) {
            int at = b.position();
            long n = Integer.toUnsignedLong(u32(what));
            if (n > max) {
                throw new CorruptFileException(path, base + at, what + " impossible [count=" + n + "]");
            }
            return (int) n;
        }

        SegmentMeta parse(SegmentMeta.Header h, int footerRowGroups, long fileSize, int crc) {
            version = h.version();
            String measurement = name("measurement");
            if (measurement.isEmpty()) {
                throw corrupt("empty measurement name");
            }
            int columnCount = count("column count", b.remaining() / (5 + SegmentFormat.COLUMN_STATS_SIZE));
            if (columnCount < 1 || columnCount != h.columnCount()) {
                throw corrupt("column count disagrees with the header [metadata=" + columnCount + ", header=" + h.columnCount() + "]");
            }
            List<SegmentMeta.Column> columns = new ArrayList<>(columnCount);
            int tagCount = 0;
            for (int i = 0; i < columnCount; i++) {
                columns.add(column(i));
                if (columns.get(i).role() == SegmentMeta.Role.TAG) {
                    tagCount++;
                }
            }
            checkColumnOrder(columns, tagCount);
            int rgCount = count("row group count", footerRowGroups);
            if (rgCount != footerRowGroups) {
                throw corrupt("row group count disagrees with the footer");
            }
            long dataEnd = base; // the metadata starts where the data region ends
            List<SegmentMeta.RowGroup> groups = new ArrayList<>(rgCount);
            long rows = 0;
            long minTime = Long.MAX_VALUE;
            long maxTime = Long.MIN_VALUE;
            for (int g = 0; g < rgCount; g++) {
                need(SegmentFormat.ROW_GROUP_META_SIZE + columnCount * SegmentFormat.BLOCK_META_SIZE, "row group");
                int at = b.position();
                long firstRow = b.getLong();
                int rowCount = b.getInt();
                long min = b.getLong();
                long max = b.getLong();
                if (firstRow != rows || rowCount <= 0 || min > max) {
                    throw new CorruptFileException(path, base + at, "bad row group [index=" + g + ", firstRow=" + firstRow
                            + ", rowCount=" + rowCount + "]");
                }
                List<SegmentMeta.Block> blocks = new ArrayList<>(columnCount);
                for (int c = 0; c < columnCount; c++) {
                    blocks.add(block(columns.get(c), rowCount, dataEnd));
                }
                groups.add(new SegmentMeta.RowGroup(firstRow, rowCount, min, max, blocks));
                rows += rowCount;
                minTime = Math.min(minTime, min);
                maxTime = Math.max(maxTime, max);
            }
            if (rows != h.rowCount() || rows == 0 || minTime != h.minTime() || maxTime != h.maxTime()) {
                throw new CorruptFileException(path, SegmentFormat.ROW_COUNT_OFFSET, "row groups disagree with the header [rows="
                        + rows + ", header rows=" + h.rowCount() + "]");
            }
            int seriesCount = count("series count", b.remaining() / SegmentFormat.SERIES_ENTRY_SIZE);
            if (seriesCount != h.seriesCount() || seriesCount == 0) {
                throw corrupt("series count disagrees with the header");
            }
            List<SegmentMeta.Series> series = new ArrayList<>(seriesCount);
            long next = 0;
            for (int s = 0; s < seriesCount; s++) {
                int at = b.position();
                long firstRow = b.getLong();
                int rowCount = b.getInt();
                long min = b.getLong();
                long max = b.getLong();
                if (firstRow != next || rowCount <= 0 || min > max) {
                    throw new CorruptFileException(path, base + at, "bad series entry [index=" + s + "]");
                }
                next += rowCount;
                series.add(new SegmentMeta.Series(firstRow, rowCount, min, max));
            }
            if (next != rows) {
                throw corrupt("series cover " + next + " rows, segment has " + rows);
            }
            int dictLen = count("zstd dictionary length", b.remaining());
            dictionary = Arrays.copyOfRange(m, b.position(), b.position() + dictLen);
            b.position(b.position() + dictLen);
            if (b.hasRemaining()) {
                throw corrupt("metadata has " + b.remaining() + " bytes after its end");
            }
            return new SegmentMeta(h, measurement, columns, groups, series, fileSize, crc);
        }

        private SegmentMeta.Column column(int index) {
            int at = b.position();
            int role = u8("column role");
            int type = u8("column type");
            int rank = u8("column sort rank");
            String name = name("column name");
            need(SegmentFormat.COLUMN_STATS_SIZE, "column statistics");
            int flags = Byte.toUnsignedInt(b.get());
            ColumnStats.Kind kind = ColumnStats.Kind.ofCode(Byte.toUnsignedInt(b.get()));
            b.getShort();
            long min = b.getLong();
            long max = b.getLong();
            long nulls = b.getLong();
            long values = b.getLong();
            double sum = Double.longBitsToDouble(b.getLong());
            long sumHigh = b.getLong();
            long sumLow = b.getLong();
            long distinct = b.getLong();
            long nans = Integer.toUnsignedLong(b.getInt());
            b.getInt();
            SegmentMeta.Role r = switch (role) {
                case SegmentFormat.ROLE_TIME -> SegmentMeta.Role.TIME;
                case SegmentFormat.ROLE_TAG -> SegmentMeta.Role.TAG;
                case SegmentFormat.ROLE_FIELD -> SegmentMeta.Role.FIELD;
                default -> throw new CorruptFileException(path, base + at, "unknown column role " + role);
            };
            FieldType ft = null;
            if (r == SegmentMeta.Role.FIELD) {
                ft = FieldType.ofCode(type);
                if (ft == null) {
                    throw new CorruptFileException(path, base + at + 1, "unknown field type " + type);
                }
            } else if (type != SegmentFormat.TYPE_NONE) {
                throw new CorruptFileException(path, base + at + 1, "time or tag column with a field type");
            }
            if (kind == null || nulls < 0 || values < 0 || distinct < 0) {
                throw new CorruptFileException(path, base + at, "bad column statistics [column=" + name + "]");
            }
            int sortRank = r == SegmentMeta.Role.TAG ? rank : -1;
            if (r != SegmentMeta.Role.TAG && rank != SegmentFormat.NO_SORT_RANK) {
                throw new CorruptFileException(path, base + at + 2, "sort rank on a column that is not a tag");
            }
            ColumnStats stats = new ColumnStats(kind, (flags & ColumnStats.FLAG_HAS_MIN_MAX) != 0, min, max, nulls, values,
                    sum, sumHigh, sumLow, distinct, (flags & ColumnStats.FLAG_DISTINCT_EXACT) != 0, nans);
            return new SegmentMeta.Column(name, r, ft, sortRank, stats);
        }

        private void checkColumnOrder(List<SegmentMeta.Column> columns, int tagCount) {
            if (columns.getFirst().role() != SegmentMeta.Role.TIME || !columns.getFirst().name().equals(SegmentColumns.TIME)) {
                throw corrupt("first column is not time");
            }
            boolean[] ranks = new boolean[tagCount];
            for (int i = 1; i < columns.size(); i++) {
                SegmentMeta.Column prev = columns.get(i - 1);
                SegmentMeta.Column c = columns.get(i);
                boolean ordered = c.role() != SegmentMeta.Role.TIME && (c.role().ordinal() > prev.role().ordinal()
                        || (c.role() == prev.role() && c.name().compareTo(prev.name()) > 0));
                if (!ordered) {
                    throw corrupt("columns not in canonical order [column=" + c.name() + "]");
                }
                if (c.role() == SegmentMeta.Role.TAG) {
                    if (c.sortRank() >= tagCount || ranks[c.sortRank()]) {
                        throw corrupt("bad tag sort rank [column=" + c.name() + "]");
                    }
                    ranks[c.sortRank()] = true;
                }
            }
        }

        private SegmentMeta.Block block(SegmentMeta.Column column, int rowCount, long dataEnd) {
            int at = b.position();
            long offset = b.getLong();
            long stored = Integer.toUnsignedLong(b.getInt());
            long uncompressed = Integer.toUnsignedLong(b.getInt());
            long validityOffset = b.getLong();
            long validityLength = Integer.toUnsignedLong(b.getInt());
            int valueCount = b.getInt();
            int nullCount = b.getInt();
            int encoding = Byte.toUnsignedInt(b.get());
            int compression = Byte.toUnsignedInt(b.get());
            int crc = b.getInt();
            String why = null;
            if (offset < SegmentFormat.HEADER_SIZE || offset > dataEnd || stored > dataEnd - offset) {
                why = "block outside the data region";
            } else if (valueCount != rowCount || nullCount < 0 || nullCount > valueCount) {
                why = "block counts disagree with the row group";
            } else if ((nullCount > 0) != (validityLength > 0)
                    || (validityLength > 0 && validityLength != BooleanBits.bytesFor(valueCount))) {
                why = "validity bitmap length disagrees with the null count";
            } else if (validityLength > 0 && (validityOffset < SegmentFormat.HEADER_SIZE || validityOffset > dataEnd
                    || validityLength > dataEnd - validityOffset)) {
                why = "validity bitmap outside the data region";
            } else if (compression > SegmentFormat.COMPRESSION_ZSTD_DICT) {
                why = "unknown compression " + compression;
            } else if (compression == SegmentFormat.COMPRESSION_NONE ? uncompressed != stored
                    : uncompressed > SegmentFormat.MAX_UNCOMPRESSED_SIZE) {
                why = "bad uncompressed length " + uncompressed;
            } else if (!encodingFits(column, encoding, version)) {
                why = "encoding " + Encodings.name(encoding) + " does not fit column " + column.name();
            } else if (column.role() == SegmentMeta.Role.TIME && nullCount != 0) {
                why = "time column with nulls";
            }
            if (why != null) {
                throw new CorruptFileException(path, base + at, why);
            }
            return new SegmentMeta.Block(offset, (int) stored, (int) uncompressed, validityOffset, (int) validityLength,
                    valueCount, nullCount, encoding, compression, crc);
        }

        private static boolean encodingFits(SegmentMeta.Column c, int encoding, int version) {
            return switch (c.role()) {
                case TIME -> encoding == Encodings.DELTA_OF_DELTA;
                case TAG -> encoding == Encodings.DICTIONARY;
                case FIELD -> switch (c.type()) {
                    case FLOAT -> encoding == Encodings.GORILLA || encoding == Encodings.ALP
                            || (encoding == Encodings.ALP_RD && version >= SegmentFormat.VERSION_ALP_RD);
                    case INTEGER, UNSIGNED -> encoding == Encodings.DELTA_ZIGZAG;
                    case BOOLEAN -> encoding == Encodings.BITS;
                    case STRING -> encoding == Encodings.DICTIONARY;
                };
            };
        }
    }
}
