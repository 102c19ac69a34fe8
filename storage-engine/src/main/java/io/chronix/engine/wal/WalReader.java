package io.chronix.engine.wal;

import io.chronix.engine.error.CorruptFileException;
import io.chronix.engine.error.UnsupportedFormatVersionException;
import io.chronix.engine.error.WalIoException;
import io.chronix.engine.io.FileIO;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The one reader of WAL files: lists a log's files in sequence order, checks every header and every
 * record's CRC, hands intact records to a visitor and classifies the first damage it meets.
 *
 * <p>Classification, the heart of recovery:
 * <ul>
 *   <li>An all-zero frame header at a record boundary with zeros to the end of the file is the
 *       writer's preallocated tail: the file's records end there, and that is not damage.
 *   <li>A bad frame (short, over-long, failing its CRC, or zeros followed by a non-zero byte) in
 *       the <em>last</em> file, with no intact
 *       record anywhere after it, is a <b>torn tail</b>: what a crash mid-append leaves. Records
 *       before it are complete and returned; the tail is reported, and recovery cuts it off.
 *   <li>A bad frame in any earlier file, or one followed by an intact record, is <b>corruption</b>:
 *       a crash cannot produce it, because a file is fsynced before the next one is created and a
 *       crash only loses bytes at the end. The scan stops there.
 *   <li>A file with a foreign version is refused outright ({@link UnsupportedFormatVersionException});
 *       so is a record with a foreign payload version.
 * </ul>
 * Reading never changes a file; cutting is {@link WalLoader}'s and {@link WalRepair}'s job.
 *
 * <p>Lengths are checked against {@link WalFormat#MAX_PAYLOAD_LENGTH} and the file size before any
 * buffer is sized from them.
 *
 * <p>Threading: a scan runs on the calling thread; concurrent scans are independent.
 */
public final class WalReader {

    private static final int INITIAL_WINDOW = 1 << 20;

    /** What kind of damage a scan stopped at. */
    public enum DamageKind {
        /** A partial last record in the last file: a crash artefact, cut and reported. */
        TORN_TAIL,
        /** Anything else: open refuses; {@code chronix-tool wal repair} cuts it. */
        CORRUPT
    }

    /**
     * The first damage found: file, offset where the bad bytes start, the file's size, and why.
     * Everything from {@code offset} on (and, for corruption, every later file) is unreadable.
     */
    public record Damage(DamageKind kind, Path file, long offset, long fileSize, String reason) {
        public long droppedBytes() {
            return fileSize - offset;
        }
    }

    /** One file as scanned. Sequences are -1 when the file holds no intact record. */
    public record FileSummary(Path file, long startSequence, long firstSequence, long lastSequence, long records,
            long validLength, long size) {
    }

    /** A whole log as scanned. {@code damage} is null when every byte read back intact. */
    public record Scan(List<FileSummary> files, Damage damage, long lastSequence, long records) {
        public boolean clean() {
            return damage == null;
        }
    }

    private WalReader() {
    }

    /**
     * The log's files ({@code wal_*.cxwl}) sorted by starting sequence. Other files are ignored.
     *
     * @throws CorruptFileException for a name that looks like a WAL file but carries no sequence
     */
    public static List<Path> walFiles(FileIO io, Path dir) {
        List<Path> all;
        try {
            all = io.list(dir);
        } catch (IOException e) {
            throw new WalIoException("list", dir, -1, e);
        }
        List<Path> files = new ArrayList<>();
        for (Path p : all) {
            String name = p.getFileName().toString();
            if (!WalFormat.isWalFileName(name)) {
                continue;
            }
            if (WalFormat.startSequenceOf(name) < 0) {
                throw new CorruptFileException(p, 0, "WAL file name carries no sequence number");
            }
            files.add(p);
        }
        files.sort(Comparator.comparingLong(p -> WalFormat.startSequenceOf(p.getFileName().toString())));
        return files;
    }

    /**
     * Replays every intact record of the log in {@code dir} in sequence order, checking every CRC,
     * without changing any file. A torn tail ends the replay and is reported in the result; any other
     * damage is refused. (Opening a {@link WalWriter} does the same and also cuts the tail.)
     *
     * @throws CorruptFileException naming file and offset, for damage before the tail
     * @throws UnsupportedFormatVersionException for a file or record of another version
     */
    public static Scan replayAll(FileIO io, Path dir, WalRecord.Visitor visitor) {
        Scan scan = scan(io, dir, visitor);
        Damage d = scan.damage();
        if (d != null && d.kind() == DamageKind.CORRUPT) {
            throw new CorruptFileException(d.file(), d.offset(), d.reason());
        }
        return scan;
    }

    /** Scans every file of the log in {@code dir}; see the class comment for what stops it. */
    public static Scan scan(FileIO io, Path dir, WalRecord.Visitor visitor) {
        return scanFiles(io, walFiles(io, dir), 0, visitor);
    }

    /**
     * Scans {@code files} in order as one log whose records must all be above {@code previousSequence};
     * the last of them is the one that may have a torn tail.
     */
    public static Scan scanFiles(FileIO io, List<Path> files, long previousSequence, WalRecord.Visitor visitor) {
        List<FileSummary> summaries = new ArrayList<>(files.size());
        long last = previousSequence;
        long records = 0;
        for (int i = 0; i < files.size(); i++) {
            Path file = files.get(i);
            try (FileScanner scanner = new FileScanner(io, file, i == files.size() - 1, last, visitor)) {
                scanner.run();
                summaries.add(scanner.summary());
                records += scanner.records;
                if (scanner.records > 0) {
                    last = scanner.lastSequence;
                }
                if (scanner.damage != null) {
                    return new Scan(List.copyOf(summaries), scanner.damage, last, records);
                }
            } catch (IOException e) {
                throw new WalIoException("read", file, -1, e);
            }
        }
        return new Scan(List.copyOf(summaries), null, last, records);
    }

    /** Reads one file; stops at the first damage. */
    private static final class FileScanner implements AutoCloseable {

        private final Path file;
        private final boolean lastFile;
        private final WalRecord.Visitor visitor;
        private final FileIO.ReadableFile in;
        private final long size;
        private final long startSequence;
        private final CRC32C crc = new CRC32C();

        private ByteBuffer window = ByteBuffer.allocate(INITIAL_WINDOW).order(ByteOrder.LITTLE_ENDIAN).limit(0);
        private long windowStart;
        private byte[] inflated = new byte[0];

        private long previousSequence;
        private long firstSequence = -1;
        private long lastSequence = -1;
        private long records;
        private long validLength;
        private Damage damage;

        FileScanner(FileIO io, Path file, boolean lastFile, long previousSequence, WalRecord.Visitor visitor) throws IOException {
            this.file = file;
            this.lastFile = lastFile;
            this.previousSequence = previousSequence;
            this.visitor = visitor;
            this.in = io.openRead(file);
            this.size = in.size();
            this.startSequence = WalFormat.startSequenceOf(file.getFileName().toString());
        }

        FileSummary summary() {
            return new FileSummary(file, startSequence, firstSequence, lastSequence, records, validLength, size);
        }

        void run() throws IOException {
            if (size < WalFormat.HEADER_SIZE) {
                // A file is created, given its header and fsynced before any record goes in, so a
                // short header means a crash during creation: nothing in it was ever acknowledged.
                damage = new Damage(lastFile ? DamageKind.TORN_TAIL : DamageKind.CORRUPT, file, 0, size, "partial file header");
                return;
            }
            fill(0, WalFormat.HEADER_SIZE);
            boolean magic = true;
            for (int i = 0; i < WalFormat.MAGIC.length; i++) {
                magic &= window.get(WalFormat.MAGIC_OFFSET + i) == WalFormat.MAGIC[i];
            }
            int version = Short.toUnsignedInt(window.getShort(WalFormat.VERSION_OFFSET));
            if (!magic || version != WalFormat.VERSION) {
                if (lastFile && firstNonZero(WalFormat.HEADER_SIZE) < 0) {
                    // For the same reason, a last file holding nothing but a header that is not as
                    // written (a power loss before its fsync may leave its bytes garbled, on file
                    // systems that do not zero a new block) is a crash during creation too: it holds
                    // no record, so removing it loses nothing, whatever wrote it.
                    damage = new Damage(DamageKind.TORN_TAIL, file, 0, size, "file header not as written ("
                            + (magic ? "version " + version : "bad magic") + ") and nothing after it");
                    return;
                }
                if (!magic) {
                    damage = new Damage(DamageKind.CORRUPT, file, 0, size, "not a WAL file: bad magic");
                    return;
                }
                throw new UnsupportedFormatVersionException(file, "WAL file", version, WalFormat.VERSION);
            }
            long offset = WalFormat.HEADER_SIZE;
            validLength = offset;
            while (offset < size && damage == null) {
                offset = readFrame(offset);
            }
        }

        /** Reads the frame at {@code offset}; returns the next frame's offset (or sets damage). */
        private long readFrame(long offset) throws IOException {
            if (zeroFrameAt(offset)) {
                // no record has sequence 0, so an all-zero frame header is never a record: it is the
                // preallocated tail, which must be zeros to the end of the file
                long nonZero = firstNonZero(offset);
                if (nonZero < 0) {
                    return size;
                }
                return bad(offset, "zeroed frame header, but a non-zero byte at offset " + nonZero);
            }
            if (size - offset < WalFormat.FRAME_OVERHEAD) {
                return bad(offset, "partial frame header");
            }
            fill(offset, WalFormat.FRAME_OVERHEAD);
            int at = (int) (offset - windowStart);
            long length = Integer.toUnsignedLong(window.getInt(at + WalFormat.LENGTH_OFFSET));
            if (length > WalFormat.MAX_PAYLOAD_LENGTH) {
                return bad(offset, "record length " + length + " exceeds the maximum " + WalFormat.MAX_PAYLOAD_LENGTH);
            }
            long end = offset + WalFormat.FRAME_OVERHEAD + length;
            if (end > size) {
                return bad(offset, "record of " + length + " bytes runs past the end of the file");
            }
            fill(offset, (int) (end - offset));
            at = (int) (offset - windowStart);
            int stored = window.getInt(at + WalFormat.CRC_OFFSET);
            crc.reset();
            crc.update(window.array(), at + WalFormat.CRC_COVERAGE_OFFSET, (int) (end - offset) - WalFormat.CRC_COVERAGE_OFFSET);
            if ((int) crc.getValue() != stored) {
                return bad(offset, "CRC mismatch");
            }
            long sequence = window.getLong(at + WalFormat.SEQUENCE_OFFSET);
            int typeByte = window.get(at + WalFormat.RECORD_TYPE_OFFSET) & 0xFF;
            int payloadVersion = window.get(at + WalFormat.PAYLOAD_VERSION_OFFSET) & 0xFF;
            WalRecordType type = WalRecordType.ofCode(typeByte & WalFormat.RECORD_TYPE_MASK);
            if (type == null) {
                return corrupt(offset, "unknown record type " + (typeByte & WalFormat.RECORD_TYPE_MASK));
            }
            if (payloadVersion != WalFormat.PAYLOAD_VERSION) {
                throw new UnsupportedFormatVersionException(file, "WAL payload (record at offset " + offset + ")", payloadVersion,
                        WalFormat.PAYLOAD_VERSION);
            }
            if (sequence <= previousSequence || sequence < startSequence) {
                return corrupt(offset, "sequence " + sequence + " does not follow " + Math.max(previousSequence, startSequence - 1));
            }
            boolean compressed = (typeByte & WalFormat.COMPRESSED_FLAG) != 0;
            ByteBuffer payload;
            if (compressed) {
                payload = inflate(at + WalFormat.PAYLOAD_OFFSET, (int) length);
                if (payload == null) {
                    return corrupt(offset, "LZ4 payload does not decompress");
                }
            } else {
                payload = window.slice(at + WalFormat.PAYLOAD_OFFSET, (int) length).asReadOnlyBuffer();
            }
            visitor.accept(new WalRecord(sequence, type, payload, file, offset, (int) length, compressed));
            if (firstSequence < 0) {
                firstSequence = sequence;
            }
            lastSequence = sequence;
            previousSequence = sequence;
            records++;
            validLength = end;
            return end;
        }

        private ByteBuffer inflate(int at, int length) {
            if (length < WalFormat.COMPRESSED_LENGTH_SIZE) {
                return null;
            }
            long raw = Integer.toUnsignedLong(window.getInt(at));
            if (raw > WalFormat.MAX_PAYLOAD_LENGTH) {
                return null;
            }
            if (inflated.length < raw) {
                inflated = new byte[(int) Math.max(raw, inflated.length * 2L)];
            }
            try {
                int n = Lz4.DECOMPRESSOR.decompress(window.array(), at + WalFormat.COMPRESSED_LENGTH_SIZE,
                        length - WalFormat.COMPRESSED_LENGTH_SIZE, inflated, 0, (int) raw);
                return n == raw ? ByteBuffer.wrap(inflated, 0, n).asReadOnlyBuffer() : null;
            } catch (RuntimeException e) {
                return null;
            }
        }

        /** Whether the frame header at {@code offset} (or what is left of the file, if less) is all zeros. */
        private boolean zeroFrameAt(long offset) throws IOException {
            int n = (int) Math.min(WalFormat.FRAME_OVERHEAD, size - offset);
            fill(offset, n);
            int at = (int) (offset - windowStart);
            for (int i = 0; i < n; i++) {
                if (window.get(at + i) != 0) {
                    return false;
                }
            }
            return true;
        }

        /** The offset of the first non-zero byte at or after {@code from}, or -1; reads in window-sized pieces. */
        private long firstNonZero(long from) throws IOException {
            for (long at = from; at < size; ) {
                int n = (int) Math.min(INITIAL_WINDOW, size - at);
                fill(at, n);
                byte[] a = window.array();
                int base = (int) (at - windowStart);
                for (int i = 0; i < n; i++) {
                    if (a[base + i] != 0) {
                        return at + i;
                    }
                }
                at += n;
            }
            return -1;
        }

        private long corrupt(long offset, String reason) {
            damage = new Damage(DamageKind.CORRUPT, file, offset, size, reason);
            return offset;
        }

        private long bad(long offset, String reason) throws IOException {
            if (!lastFile) {
                return corrupt(offset, reason);
            }
            if (intactFrameAfter(offset)) {
                return corrupt(offset, reason + "; intact records follow it");
            }
            damage = new Damage(DamageKind.TORN_TAIL, file, offset, size, reason);
            return offset;
        }

        /**
         * Whether any byte position after {@code offset} starts a frame that checks out. Only run on
         * damage, so its cost (a pass over the rest of the file) is paid once, at recovery.
         */
        private boolean intactFrameAfter(long offset) throws IOException {
            long from = offset + 1;
            if (size - from < WalFormat.FRAME_OVERHEAD) {
                return false;
            }
            fill(from, (int) (size - from));
            byte[] a = window.array();
            int base = (int) (from - windowStart);
            int n = (int) (size - from);
            ByteBuffer le = ByteBuffer.wrap(a).order(ByteOrder.LITTLE_ENDIAN);
            for (int p = 0; p + WalFormat.FRAME_OVERHEAD <= n; p++) {
                int i = base + p;
                long length = Integer.toUnsignedLong(le.getInt(i + WalFormat.LENGTH_OFFSET));
                if (length > n - p - WalFormat.FRAME_OVERHEAD
                        || WalRecordType.ofCode(a[i + WalFormat.RECORD_TYPE_OFFSET] & WalFormat.RECORD_TYPE_MASK) == null
                        || (a[i + WalFormat.PAYLOAD_VERSION_OFFSET] & 0xFF) != WalFormat.PAYLOAD_VERSION
                        || le.getLong(i + WalFormat.SEQUENCE_OFFSET) <= previousSequence) {
                    continue;
                }
                crc.reset();
                crc.update(a, i + WalFormat.CRC_COVERAGE_OFFSET, (int) length + WalFormat.FRAME_OVERHEAD - WalFormat.CRC_COVERAGE_OFFSET);
                if ((int) crc.getValue() == le.getInt(i + WalFormat.CRC_OFFSET)) {
                    return true;
                }
            }
            return false;
        }

        /** Makes bytes {@code [offset, offset + n)} of the file available in the window. */
        private void fill(long offset, int n) throws IOException {
            if (offset >= windowStart && offset + n <= windowStart + window.limit()) {
                return;
            }
            if (window.capacity() < n) {
                window = ByteBuffer.allocate(Math.max(n, window.capacity() * 2)).order(ByteOrder.LITTLE_ENDIAN);
            }
            window.clear();
            int want = (int) Math.min(window.capacity(), size - offset);
            while (window.position() < want) {
                int r = in.read(window, offset + window.position());
                if (r < 0) {
                    break;
                }
            }
            window.flip();
            windowStart = offset;
            if (window.limit() < n) {
                throw new IOException("file shrank while being read: wanted " + n + " bytes at " + offset);
            }
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
