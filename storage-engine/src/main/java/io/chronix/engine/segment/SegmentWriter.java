package io.chronix.engine.segment;

import com.github.luben.zstd.ZstdDictCompress;
import com.github.luben.zstd.ZstdDictTrainer;
import io.chronix.engine.io.FileIO;
import io.chronix.engine.model.FieldType;
import io.chronix.engine.segment.SegmentColumns.FieldColumn;
import io.chronix.engine.segment.SegmentColumns.TagColumn;
import io.chronix.engine.segment.encoding.BlockBuffer;
import io.chronix.engine.segment.encoding.BooleanBits;
import io.chronix.engine.segment.encoding.DeltaOfDelta;
import io.chronix.engine.segment.encoding.DeltaZigzag;
import io.chronix.engine.segment.encoding.Dictionary;
import io.chronix.engine.segment.encoding.Encodings;
import io.chronix.engine.segment.encoding.FloatEncoder;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * The one writer of {@code .csx} segments (and, beside each, its {@code .series} sidecar).
 *
 * <h2>Streaming</h2>
 * Rows arrive part by part ({@link #open} and {@link Appender#append}; {@link #write} is the same
 * with every part at hand); the file is never in memory. Each part's row groups are encoded one at
 * a time into reused buffers and handed to the file through a 256 KiB buffer, the CRC-32C updated as
 * bytes go out; the series table and the header's counts accumulate as parts arrive. The header is
 * written as zeros first and patched at the end (positional write), its CRC combined in front of
 * the streamed one ({@link Crc32cCombine}). Only the metadata (a few bytes per block and per
 * series) is held until the end.
 *
 * <h2>Publishing</h2>
 * The file is written as {@code tmpDir/shard_{id}-seg_{nanos}_{counter}.csx.tmp}, fsynced, closed,
 * renamed to {@code segmentsDir/shard_{id}/seg_{nanos}_{counter}.csx} and the shard directory
 * fsynced. {@code tmpDir} must be on the same file system as {@code segmentsDir}. A name is never
 * reused: the rename refuses an existing target. On any failure the temporary file is deleted and
 * nothing is published. The sidecar follows the same steps after the segment is published; failing
 * to write it is logged, not thrown, because it is derived data the reader rebuilds.
 *
 * <p>Threading: each call is independent; the method is thread-safe for distinct segment files.
 */
public final class SegmentWriter {

    private static final System.Logger LOG = System.getLogger(SegmentWriter.class.getName());
    private static final int OUT_BUFFER = 256 * 1024;
    private static final int MAX_ZERO_WRITES = 16;
    private static final int TRAINING_PIECE = 1024;

    /** What a write produced: the metadata for the catalog and the series keys for its indexes. */
    public record Written(SegmentFile file, SegmentMeta meta, SeriesIndex series) {
    }

    private final FileIO io;
    private final SegmentWriterConfig config;
    private final Plan plan = new Plan();
    private final SegmentFile file;
    private final Path segmentsDir;
    private final Path tmpDir;
    private final Path target;
    private final long maxWalSequence;
    private FileIO.WritableFile out;
    private Path outPath;
    private final ByteBuffer buffer = ByteBuffer.allocate(OUT_BUFFER).order(ByteOrder.LITTLE_ENDIAN);
    private final CRC32C crc = new CRC32C();
    private long position;
    private final List<SegmentMeta.RowGroup> groups = new ArrayList<>();
    private long nextRow;
    private boolean done;

    // reused per block
    private final BlockBuffer encoded = new BlockBuffer(64 * 1024);
    private final FloatEncoder floatEncoder;
    private final Dictionary.Encoder dictionary = new Dictionary.Encoder();
    private long[] longScratch = new long[1024];
    private long[] longFill = new long[1024];
    private double[] doubleFill = new double[1024];
    private boolean[] boolFill = new boolean[1024];
    private byte[] compressed = new byte[1024];
    private byte[] bitmap = new byte[128];
    private final int[] histogram = new int[65];

    // zstd dictionary training
    private final List<byte[]> samples = new ArrayList<>();
    private long sampleBytes;
    private byte[] zstdDictionary;
    private ZstdDictCompress dictCompress;
    private boolean dictionaryUsed;

    private SegmentWriter(FileIO io, SegmentWriterConfig config, Path tmpDir, Path segmentsDir, SegmentFile file, long maxWalSequence) {
        this.io = io;
        this.config = config;
        this.file = file;
        this.tmpDir = tmpDir;
        this.segmentsDir = segmentsDir;
        this.target = file.resolve(segmentsDir);
        this.outPath = tmpDir.resolve(file.shardDirectory() + "-" + file.fileName() + ".tmp");
        this.maxWalSequence = maxWalSequence;
        this.floatEncoder = new FloatEncoder(config.floatPolicy());
    }

    /** Writes one part; see {@link #write(FileIO, Path, Path, SegmentFile, List, SegmentWriterConfig, long)}. */
    public static Written write(FileIO io, Path tmpDir, Path segmentsDir, SegmentFile file, SegmentColumns columns,
                                SegmentWriterConfig config, long maxWalSequence) {
        return write(io, tmpDir, segmentsDir, file, List.of(columns), config, maxWalSequence);
    }

    /**
     * Writes and publishes a segment of the given parts: the same measurement and columns in each,
     * the sort order continuing from one part into the next. Each part is cut into row groups of
     * {@link SegmentWriterConfig#rowGroupRows()} rows (the last of a part may be shorter).
     *
     * @param maxWalSequence the highest WAL sequence whose points this segment holds (0 if none), so
     *                       replay can skip what is already durable here
     * @throws IllegalArgumentException if the parts are empty, disagree, or are out of order
     * @throws SegmentIoException       if the file cannot be written; nothing is published then
     */
    public static Written write(FileIO io, Path tmpDir, Path segmentsDir, SegmentFile file, List<SegmentColumns> parts,
                                SegmentWriterConfig config, long maxWalSequence) {
        if (parts == null || parts.isEmpty()) {
            throw new IllegalArgumentException("a segment needs at least one part");
        }
        try (Appender a = open(io, tmpDir, segmentsDir, file, config, maxWalSequence)) {
            for (SegmentColumns part : parts) {
                a.append(part);
            }
            return a.finish();
        }
    }

    /**
     * Starts a segment whose parts arrive one at a time (compaction's streaming output): each
     * {@link Appender#append} encodes and writes its row groups before returning, so only one part
     * is ever in memory. The header's counts are patched in by {@link Appender#finish()}, which
     * needs {@link FileIO.WritableFile#writeAt}.
     */
    public static Appender open(FileIO io, Path tmpDir, Path segmentsDir, SegmentFile file, SegmentWriterConfig config,
                                long maxWalSequence) {
        Objects.requireNonNull(io, "io");
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(config, "config");
        SegmentWriter w = new SegmentWriter(io, config, tmpDir, segmentsDir, file, maxWalSequence);
        w.begin();
        return w.new Appender();
    }

    /**
     * A segment being written part by part. Not published until {@link #finish()}; {@link #close()}
     * without it deletes the temporary file. Parts are borrowed only during {@link #append}.
     */
    public final class Appender implements AutoCloseable {

        private Appender() {
        }

        /**
         * Encodes and writes {@code part}'s row groups.
         *
         * @throws IllegalArgumentException if the part disagrees with the first one or continues out of order
         */
        public void append(SegmentColumns part) {
            checkNotDone();
            plan.add(part);
            try {
                writeRowGroups(part);
            } catch (IOException e) {
                throw new SegmentIoException("write", outPath, e);
            }
        }

        /** Rows appended so far. */
        public long rows() {
            return plan.rows;
        }

        /**
         * Writes metadata and footer, patches the header, fsyncs and publishes.
         *
         * @throws IllegalArgumentException if no row was appended (nothing is published)
         */
        public Written finish() {
            checkNotDone();
            if (plan.rows == 0) {
                throw new IllegalArgumentException("a segment needs at least one row [file=" + file + "]");
            }
            SegmentMeta meta = end();
            SeriesIndex index = plan.seriesIndex(meta.crc());
            try {
                SeriesWriter.write(io, tmpDir, file.resolveSidecar(segmentsDir), index);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "series sidecar not written; it is rebuilt on first use [segment="
                        + target + ", cause=" + e + "]");
            }
            return new Written(file, meta, index);
        }

        /** Abandons an unfinished segment: its temporary file is deleted. Idempotent. */
        @Override
        public void close() {
            if (!done) {
                done = true;
                abandon();
            }
        }
    }

    private void checkNotDone() {
        if (done) {
            throw new IllegalStateException("segment already finished or abandoned [file=" + file + "]");
        }
    }

    private void begin() {
        try {
            io.createDirectories(outPath.getParent());
            if (io.exists(outPath)) {
                io.delete(outPath); // left by a crash mid-write; the name is ours
            }
            out = io.create(outPath);
            // the header's counts are known at the end: a placeholder now, outside the running CRC,
            // patched (and its CRC combined in front of the rest) by end()
            buffer.put(new byte[SegmentFormat.HEADER_SIZE]);
            flushBuffer(false);
        } catch (IOException e) {
            done = true;
            abandon();
            throw new SegmentIoException("write", outPath, e);
        }
    }

    private SegmentMeta end() {
        boolean published = false;
        plan.seal();
        try {
            long metadataOffset = position + buffer.position();
            List<SegmentMeta.Column> columns = plan.columns();
            BlockBuffer meta = encodeMetadata(columns, groups);
            putBytes(meta.array(), 0, meta.size());
            ensure(SegmentFormat.FOOTER_SIZE);
            buffer.putLong(metadataOffset);
            buffer.putInt(groups.size());
            flushBuffer(true);
            ByteBuffer header = header(plan.flags());
            CRC32C headerCrc = new CRC32C();
            headerCrc.update(header.duplicate());
            int fileCrc = (int) Crc32cCombine.combine(headerCrc.getValue(), crc.getValue(), position - SegmentFormat.HEADER_SIZE);
            buffer.putInt(fileCrc);
            buffer.put(SegmentFormat.MAGIC);
            flushBuffer(false);
            while (header.hasRemaining()) {
                if (out.writeAt(header, header.position()) <= 0) {
                    throw new IOException("file accepts no header bytes [path=" + outPath + "]");
                }
            }
            out.sync();
            out.close();
            out = null;
            io.createDirectories(target.getParent());
            io.rename(outPath, target);
            published = true;
            done = true;
            io.syncDirectory(target.getParent());
            SegmentMeta.Header h = new SegmentMeta.Header(SegmentFormat.VERSION, plan.flags(), plan.minTime, plan.maxTime,
                    plan.rows, columns.size(), plan.series.size(), maxWalSequence);
            return new SegmentMeta(h, plan.measurement, columns, groups, plan.seriesMeta(), position, fileCrc);
        } catch (IOException e) {
            throw new SegmentIoException(published ? "sync directory" : "write", published ? target : outPath, e);
        } finally {
            if (!published) {
                done = true;
                abandon();
            }
        }
    }

    private void abandon() {
        if (out != null) {
            try {
                out.close();
            } catch (IOException ignored) {
                // the write already failed or was abandoned; the temp file goes below
            }
            out = null;
        }
        try {
            io.delete(outPath);
        } catch (IOException ignored) {
            // a stale temp file is removed with tmp/ at the next open
        }
    }

    private ByteBuffer header(int flags) {
        ByteBuffer h = ByteBuffer.allocate(SegmentFormat.HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        h.put(SegmentFormat.MAGIC);
        h.putShort((short) SegmentFormat.VERSION);
        h.putShort((short) flags);
        h.putLong(plan.minTime);
        h.putLong(plan.maxTime);
        h.putLong(plan.rows);
        h.putInt(plan.columns().size());
        h.putInt(plan.series.size());
        h.putLong(maxWalSequence);
        return h.flip();
    }

    private void writeRowGroups(SegmentColumns part) throws IOException {
        for (int from = 0; from < part.rowCount(); from += config.rowGroupRows()) {
            int n = Math.min(config.rowGroupRows(), part.rowCount() - from);
            List<SegmentMeta.Block> blocks = new ArrayList<>(plan.columnPlans.size());
            long min = Long.MAX_VALUE;
            long max = Long.MIN_VALUE;
            long[] time = part.time();
            for (int i = from; i < from + n; i++) {
                min = Math.min(min, time[i]);
                max = Math.max(max, time[i]);
            }
            for (ColumnPlan c : plan.columnPlans) {
                blocks.add(writeBlock(c, part, from, n, groups.isEmpty()));
            }
            groups.add(new SegmentMeta.RowGroup(nextRow, n, min, max, blocks));
            nextRow += n;
            if (groups.size() == 1 && config.zstdDictTraining()) {
                trainDictionary();
            }
        }
    }

    private void trainDictionary() {
        if (samples.size() >= SegmentFormat.DICT_MIN_SAMPLES && sampleBytes >= SegmentFormat.DICT_MIN_SAMPLE_BYTES) {
            try {
                ZstdDictTrainer trainer = new ZstdDictTrainer((int) Math.min(Integer.MAX_VALUE - 64, sampleBytes),
                        SegmentFormat.DICT_MAX_SIZE);
                // ZDICT wants many samples: a handful of large blocks makes it refuse ("nb of
                // samples too low"), so each block is offered in pieces of TRAINING_PIECE bytes
                for (byte[] s : samples) {
                    for (int at = 0; at < s.length; at += TRAINING_PIECE) {
                        trainer.addSample(Arrays.copyOfRange(s, at, Math.min(s.length, at + TRAINING_PIECE)));
                    }
                }
                byte[] dict = trainer.trainSamples();
                if (dict.length > 0) {
                    zstdDictionary = dict;
                    dictCompress = new ZstdDictCompress(dict, config.zstdLevel());
                }
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, "zstd dictionary training failed; blocks use plain zstd: " + e);
            }
        }
        samples.clear();
    }

    private SegmentMeta.Block writeBlock(ColumnPlan c, SegmentColumns part, int from, int n, boolean firstGroup) throws IOException {
        encoded.reset();
        int nulls = 0;
        int encoding;
        long plainSize;
        StatsAccumulator stats = c.stats;
        switch (c.role) {
            case TIME -> {
                long[] t = part.time();
                for (int i = from; i < from + n; i++) {
                    stats.addTime(t[i]);
                }
                growLongs(n);
                DeltaOfDelta.encode(t, from, n, encoded, longScratch, histogram);
                encoding = Encodings.DELTA_OF_DELTA;
                plainSize = 8L * n;
            }
            case TAG -> {
                String[] v = part.tags().get(c.partIndex).values();
                nulls = stringStats(v, from, n, stats);
                dictionary.encode(v, from, n, encoded);
                encoding = Encodings.DICTIONARY;
                plainSize = stringPlainSize(v, from, n);
            }
            default -> {
                FieldColumn f = part.fields().get(c.partIndex);
                switch (f.type()) {
                    case FLOAT -> {
                        growDoubles(n);
                        double prev = 0;
                        for (int i = 0; i < n; i++) {
                            if (f.isPresent(from + i)) {
                                prev = f.doubles()[from + i];
                                stats.addFloat(prev);
                            } else {
                                nulls++;
                                stats.addNull();
                            }
                            doubleFill[i] = prev;
                        }
                        encoding = floatEncoder.encode(doubleFill, 0, n, encoded);
                        plainSize = 8L * n;
                    }
                    case INTEGER, UNSIGNED -> {
                        growLongs(n);
                        long prev = 0;
                        boolean unsigned = f.type() == FieldType.UNSIGNED;
                        for (int i = 0; i < n; i++) {
                            if (f.isPresent(from + i)) {
                                prev = f.longs()[from + i];
                                if (unsigned) {
                                    stats.addUnsigned(prev);
                                } else {
                                    stats.addSigned(prev);
                                }
                            } else {
                                nulls++;
                                stats.addNull();
                            }
                            longFill[i] = prev;
                        }
                        DeltaZigzag.encode(longFill, 0, n, encoded, longScratch, histogram);
                        encoding = Encodings.DELTA_ZIGZAG;
                        plainSize = 8L * n;
                    }
                    case BOOLEAN -> {
                        if (boolFill.length < n) {
                            boolFill = new boolean[Math.max(n, boolFill.length * 2)];
                        }
                        for (int i = 0; i < n; i++) {
                            boolean present = f.isPresent(from + i);
                            boolean v = present && f.booleans()[from + i];
                            if (present) {
                                stats.addBoolean(v);
                            } else {
                                nulls++;
                                stats.addNull();
                            }
                            boolFill[i] = v;
                        }
                        BooleanBits.encode(boolFill, 0, n, encoded);
                        encoding = Encodings.BITS;
                        plainSize = BooleanBits.bytesFor(n);
                    }
                    case STRING -> {
                        String[] v = f.strings();
                        nulls = stringStats(v, from, n, stats);
                        dictionary.encode(v, from, n, encoded);
                        encoding = Encodings.DICTIONARY;
                        plainSize = stringPlainSize(v, from, n);
                    }
                    default -> throw new IllegalStateException("unknown type " + f.type());
                }
            }
        }
        int encodedLength = encoded.size();
        byte[] payload = encoded.array();
        int storedLength = encodedLength;
        int compression = SegmentFormat.COMPRESSION_NONE;
        if (firstGroup && config.zstdDictTraining() && encodedLength > 0) {
            samples.add(Arrays.copyOf(payload, encodedLength));
            sampleBytes += encodedLength;
        }
        if (config.compression() != SegmentFormat.COMPRESSION_NONE && encodedLength > 0
                && plainSize < (long) SegmentFormat.SKIP_COMPRESSION_RATIO * encodedLength) {
            int codec = config.compression();
            if (codec == SegmentFormat.COMPRESSION_ZSTD && dictCompress != null) {
                codec = SegmentFormat.COMPRESSION_ZSTD_DICT;
            }
            int bound = BlockCompression.maxCompressedLength(codec, encodedLength);
            if (compressed.length < bound) {
                compressed = new byte[Math.max(bound, compressed.length * 2)];
            }
            int len = BlockCompression.compress(codec, payload, encodedLength, compressed, config.zstdLevel(), dictCompress);
            if (len < encodedLength) {
                dictionaryUsed |= codec == SegmentFormat.COMPRESSION_ZSTD_DICT;
                payload = compressed;
                storedLength = len;
                compression = codec;
            }
        }
        long offset = position + buffer.position();
        CRC32C blockCrc = new CRC32C();
        blockCrc.update(payload, 0, storedLength);
        putBytes(payload, 0, storedLength);
        long validityOffset = 0;
        int validityLength = 0;
        if (nulls > 0) {
            validityOffset = position + buffer.position();
            validityLength = BooleanBits.bytesFor(n);
            buildBitmap(c, part, from, n, validityLength);
            putBytes(bitmap, 0, validityLength);
        }
        return new SegmentMeta.Block(offset, storedLength, encodedLength, validityOffset, validityLength, n, nulls,
                encoding, compression, (int) blockCrc.getValue());
    }

    private void buildBitmap(ColumnPlan c, SegmentColumns part, int from, int n, int bytes) {
        if (bitmap.length < bytes) {
            bitmap = new byte[Math.max(bytes, bitmap.length * 2)];
        }
        Arrays.fill(bitmap, 0, bytes, (byte) 0);
        if (c.role == SegmentMeta.Role.TAG) {
            String[] v = part.tags().get(c.partIndex).values();
            for (int i = 0; i < n; i++) {
                if (v[from + i] != null) {
                    bitmap[i >>> 3] |= (byte) (1 << (i & 7));
                }
            }
        } else {
            FieldColumn f = part.fields().get(c.partIndex);
            for (int i = 0; i < n; i++) {
                if (f.isPresent(from + i)) {
                    bitmap[i >>> 3] |= (byte) (1 << (i & 7));
                }
            }
        }
    }

    private static int stringStats(String[] v, int from, int n, StatsAccumulator stats) {
        int nulls = 0;
        for (int i = from; i < from + n; i++) {
            if (v[i] == null) {
                nulls++;
                stats.addNull();
            } else {
                stats.addString(v[i]);
            }
        }
        return nulls;
    }

    /** Arrow's layout for the same strings: 4-byte offsets plus the bytes (chars as a cheap floor). */
    private static long stringPlainSize(String[] v, int from, int n) {
        long size = 4L * n;
        for (int i = from; i < from + n; i++) {
            if (v[i] != null) {
                size += v[i].length();
            }
        }
        return size;
    }

    private void growLongs(int n) {
        if (longScratch.length < n) {
            longScratch = new long[Math.max(n, longScratch.length * 2)];
            longFill = new long[longScratch.length];
        }
    }

    private void growDoubles(int n) {
        if (doubleFill.length < n) {
            doubleFill = new double[Math.max(n, doubleFill.length * 2)];
        }
    }

    private BlockBuffer encodeMetadata(List<SegmentMeta.Column> columns, List<SegmentMeta.RowGroup> rowGroups) {
        BlockBuffer m = new BlockBuffer(1024 + rowGroups.size() * (SegmentFormat.ROW_GROUP_META_SIZE
                + columns.size() * SegmentFormat.BLOCK_META_SIZE) + plan.series.size() * SegmentFormat.SERIES_ENTRY_SIZE);
        putName(m, plan.measurement);
        m.putInt(columns.size());
        for (SegmentMeta.Column c : columns) {
            m.putByte(switch (c.role()) {
                case TIME -> SegmentFormat.ROLE_TIME;
                case TAG -> SegmentFormat.ROLE_TAG;
                case FIELD -> SegmentFormat.ROLE_FIELD;
            });
            m.putByte(c.type() == null ? SegmentFormat.TYPE_NONE : c.type().code());
            m.putByte(c.sortRank() < 0 ? SegmentFormat.NO_SORT_RANK : c.sortRank());
            putName(m, c.name());
            ColumnStats s = c.stats();
            m.putByte((s.hasMinMax() ? ColumnStats.FLAG_HAS_MIN_MAX : 0) | (s.distinctExact() ? ColumnStats.FLAG_DISTINCT_EXACT : 0));
            m.putByte(s.kind().code);
            m.putByte(0);
            m.putByte(0);
            m.putLong(s.min());
            m.putLong(s.max());
            m.putLong(s.nullCount());
            m.putLong(s.valueCount());
            m.putLong(Double.doubleToRawLongBits(s.sum()));
            m.putLong(s.sumHigh());
            m.putLong(s.sumLow());
            m.putLong(s.distinct());
            m.putInt((int) Math.min(Integer.MAX_VALUE, s.nanCount()));
            m.putInt(0);
        }
        m.putInt(rowGroups.size());
        for (SegmentMeta.RowGroup g : rowGroups) {
            m.putLong(g.firstRow());
            m.putInt(g.rowCount());
            m.putLong(g.minTime());
            m.putLong(g.maxTime());
            for (SegmentMeta.Block b : g.blocks()) {
                m.putLong(b.offset());
                m.putInt(b.storedLength());
                m.putInt(b.uncompressedLength());
                m.putLong(b.validityOffset());
                m.putInt(b.validityLength());
                m.putInt(b.valueCount());
                m.putInt(b.nullCount());
                m.putByte(b.encoding());
                m.putByte(b.compression());
                m.putInt(b.blockCrc());
            }
        }
        m.putInt(plan.series.size());
        for (SeriesIndex.Key s : plan.series) {
            m.putLong(s.firstRow());
            m.putInt(s.rowCount());
            m.putLong(s.minTime());
            m.putLong(s.maxTime());
        }
        // a dictionary no block was compressed with is not worth its bytes
        byte[] dict = zstdDictionary == null || !dictionaryUsed ? new byte[0] : zstdDictionary;
        m.putInt(dict.length);
        m.putBytes(dict, 0, dict.length);
        return m;
    }

    static void putName(BlockBuffer m, String name) {
        byte[] b = name.getBytes(StandardCharsets.UTF_8);
        if (b.length > SegmentFormat.MAX_NAME_BYTES) {
            throw new IllegalArgumentException("name longer than 65,535 UTF-8 bytes");
        }
        m.putByte(b.length & 0xFF);
        m.putByte(b.length >>> 8);
        m.putBytes(b, 0, b.length);
    }

    // ---- output: buffer, CRC, short writes ----

    private void ensure(int bytes) throws IOException {
        if (buffer.remaining() < bytes) {
            flushBuffer(true);
        }
    }

    private void putBytes(byte[] src, int off, int len) throws IOException {
        while (len > 0) {
            if (!buffer.hasRemaining()) {
                flushBuffer(true);
            }
            int n = Math.min(len, buffer.remaining());
            buffer.put(src, off, n);
            off += n;
            len -= n;
        }
    }

    private void flushBuffer(boolean updateCrc) throws IOException {
        buffer.flip();
        if (updateCrc) {
            crc.update(buffer.array(), 0, buffer.limit());
        }
        int zeroWrites = 0;
        while (buffer.hasRemaining()) {
            int n = out.write(buffer);
            if (n == 0 && ++zeroWrites > MAX_ZERO_WRITES) {
                throw new IOException("file accepts no more bytes [path=" + outPath + "]");
            }
            position += n;
        }
        buffer.clear();
    }

    // ---- the plan: validated parts, canonical column order, series table ----

    private static final class ColumnPlan {
        final String name;
        final SegmentMeta.Role role;
        final FieldType type;
        final int sortRank;
        final int partIndex;
        final StatsAccumulator stats;

        ColumnPlan(String name, SegmentMeta.Role role, FieldType type, int sortRank, int partIndex) {
            this.name = name;
            this.role = role;
            this.type = type;
            this.sortRank = sortRank;
            this.partIndex = partIndex;
            ColumnStats.Kind kind = switch (role) {
                case TIME -> ColumnStats.Kind.SIGNED;
                case TAG -> ColumnStats.Kind.NONE;
                case FIELD -> switch (type) {
                    case FLOAT -> ColumnStats.Kind.FLOAT;
                    case INTEGER -> ColumnStats.Kind.SIGNED;
                    case UNSIGNED -> ColumnStats.Kind.UNSIGNED;
                    case BOOLEAN -> ColumnStats.Kind.BOOLEAN;
                    case STRING -> ColumnStats.Kind.NONE;
                };
            };
            this.stats = new StatsAccumulator(kind, role == SegmentMeta.Role.TAG || type == FieldType.STRING);
        }
    }

    /**
     * What the parts add up to, gathered as they arrive: the shape (from the first part; later parts
     * must match it), the series table and the header's counts. Holds no part after its append.
     */
    private static final class Plan {
        String measurement;
        List<ColumnPlan> columnPlans;
        List<String> tagNames;
        List<String> fieldNames;
        List<FieldType> fieldTypes;
        final List<SeriesIndex.Key> series = new ArrayList<>();
        long rows;
        long minTime = Long.MAX_VALUE;
        long maxTime = Long.MIN_VALUE;
        // the open series: its key, where it started, its bounds; and the previous row's tags and time
        private String[] key;
        private long firstRow;
        private long seriesMin;
        private long seriesMax;
        private boolean closed;

        int flags() {
            return SegmentFormat.FLAG_SERIES_ORDER;
        }

        void add(SegmentColumns part) {
            Objects.requireNonNull(part, "part");
            if (columnPlans == null) {
                shapeFrom(part);
            } else {
                checkSameShape(part);
            }
            scanSeries(part);
        }

        private void shapeFrom(SegmentColumns first) {
            measurement = first.measurement();
            List<ColumnPlan> plans = new ArrayList<>();
            plans.add(new ColumnPlan(SegmentColumns.TIME, SegmentMeta.Role.TIME, null, -1, -1));
            List<ColumnPlan> tags = new ArrayList<>();
            for (int i = 0; i < first.tags().size(); i++) {
                tags.add(new ColumnPlan(first.tags().get(i).name(), SegmentMeta.Role.TAG, null, i, i));
            }
            tags.sort(Comparator.comparing(c -> c.name));
            plans.addAll(tags);
            List<ColumnPlan> fields = new ArrayList<>();
            for (int i = 0; i < first.fields().size(); i++) {
                FieldColumn f = first.fields().get(i);
                fields.add(new ColumnPlan(f.name(), SegmentMeta.Role.FIELD, f.type(), -1, i));
            }
            fields.sort(Comparator.comparing(c -> c.name));
            plans.addAll(fields);
            if (plans.size() > 0xFFFF) {
                throw new IllegalArgumentException("too many columns [columns=" + plans.size() + "]");
            }
            columnPlans = plans;
            tagNames = first.tags().stream().map(TagColumn::name).toList();
            fieldNames = first.fields().stream().map(FieldColumn::name).toList();
            fieldTypes = first.fields().stream().map(FieldColumn::type).toList();
        }

        private void checkSameShape(SegmentColumns b) {
            boolean same = measurement.equals(b.measurement()) && tagNames.size() == b.tags().size()
                    && fieldNames.size() == b.fields().size();
            for (int i = 0; same && i < tagNames.size(); i++) {
                same = tagNames.get(i).equals(b.tags().get(i).name());
            }
            for (int i = 0; same && i < fieldNames.size(); i++) {
                same = fieldNames.get(i).equals(b.fields().get(i).name()) && fieldTypes.get(i) == b.fields().get(i).type();
            }
            if (!same) {
                throw new IllegalArgumentException("segment parts disagree on measurement or columns [measurement=" + measurement + "]");
            }
        }

        private void scanSeries(SegmentColumns part) {
            List<TagColumn> tags = part.tags();
            long[] time = part.time();
            for (int i = 0; i < part.rowCount(); i++, rows++) {
                long t = time[i];
                minTime = Math.min(minTime, t);
                maxTime = Math.max(maxTime, t);
                boolean newSeries;
                if (key == null) {
                    newSeries = true;
                } else if (i > 0) {
                    newSeries = SegmentColumns.compareSeries(tags, i - 1, i) != 0;
                } else {
                    int c = compareToKey(part, i);
                    if (c > 0 || (c == 0 && t <= seriesMax)) {
                        throw new IllegalArgumentException("segment parts out of order [measurement=" + measurement + ", row=" + rows + "]");
                    }
                    newSeries = c != 0;
                }
                if (newSeries) {
                    closeSeries();
                    key = new String[tags.size()];
                    for (int k = 0; k < key.length; k++) {
                        key[k] = tags.get(k).values()[i];
                    }
                    firstRow = rows;
                    seriesMin = t;
                }
                seriesMax = t; // strictly increasing within a series
            }
        }

        private void closeSeries() {
            if (key != null) {
                series.add(new SeriesIndex.Key(Arrays.asList(key), firstRow, (int) (rows - firstRow), seriesMin, seriesMax));
            }
        }

        /** The open series' key against row {@code r} of the next part. */
        private int compareToKey(SegmentColumns part, int r) {
            for (int k = 0; k < key.length; k++) {
                int c = SegmentColumns.compareTag(key[k], part.tags().get(k).values()[r]);
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        }

        /** Closes the last series; the series table is complete afterwards. */
        void seal() {
            if (!closed) {
                closed = true;
                closeSeries();
            }
        }

        List<SegmentMeta.Column> columns() {
            List<SegmentMeta.Column> out = new ArrayList<>(columnPlans.size());
            for (ColumnPlan c : columnPlans) {
                out.add(new SegmentMeta.Column(c.name, c.role, c.type, c.sortRank, c.stats.build()));
            }
            return out;
        }

        List<SegmentMeta.Series> seriesMeta() {
            List<SegmentMeta.Series> out = new ArrayList<>(series.size());
            for (SeriesIndex.Key k : series) {
                out.add(new SegmentMeta.Series(k.firstRow(), k.rowCount(), k.minTime(), k.maxTime()));
            }
            return out;
        }

        SeriesIndex seriesIndex(int segmentCrc) {
            return new SeriesIndex(segmentCrc, measurement, tagNames, series);
        }
    }
}
