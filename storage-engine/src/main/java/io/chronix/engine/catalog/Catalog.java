package io.chronix.engine.catalog;

import io.chronix.engine.catalog.ArchivedSegment;
import io.chronix.engine.error.CorruptFileException;
import io.chronix.engine.error.StorageIoException;
import io.chronix.engine.error.UnsupportedFormatVersionException;
import io.chronix.engine.io.FileIO;
import io.chronix.engine.schema.SchemaRegistry.CatalogDeclaration;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * The catalog of one namespace: reader at open, writer afterwards (seed 001 "catalog manifest";
 * format {@code docs/format/catalog.md}, constants {@link CatalogFormat}).
 *
 * <p>Every append is one framed record written whole and fsynced before the call returns: a flush's
 * segments are one {@code ADD_SEGMENTS} record, so they become part of the namespace together or
 * not at all. A crash mid-append leaves a torn last record, which open cuts off (logged at WARN);
 * damage anywhere before the last record is a {@link CorruptFileException} naming file and offset.
 * A failed write is rolled back to the record's first byte; a failed fsync poisons the catalog
 * (every later append fails) until the namespace is reopened, for the reason the WAL gives.
 *
 * <p>The live state (settings, segments, schema declarations, tombstones) is rebuilt from the records in file
 * order. There is no checkpoint rewrite yet: the file grows by one record per flush (and, later,
 * per compaction); a rewrite through {@code tmp/} + rename is the planned bound.
 *
 * <p>Threading: thread-safe; appends and state reads take this object's monitor.
 */
public final class Catalog implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(Catalog.class.getName());

    private final FileIO io;
    private final Path file;
    private FileIO.WritableFile out;
    private long position;
    private volatile IOException poison;
    /** {@link #discardUnsynced} cut the poisoned file back. */
    private boolean discarded;
    private CatalogFormat.Settings settings;
    private final Map<String, SegmentEntry> segments = new LinkedHashMap<>();
    private final List<CatalogDeclaration> declarations = new ArrayList<>();
    private final Map<String, ArchivedSegment> archived = new LinkedHashMap<>();
    private long nextSegmentId = 1;
    private long walFloor;
    private final Map<Long, TombstoneEntry> tombstones = new LinkedHashMap<>();
    private long nextTombstoneId = 1;
    private final Map<String, RollupEntry> rollups = new LinkedHashMap<>();
    private final CRC32C crc = new CRC32C();

    /** Opened by {@link #read}: nothing is ever written, not even the cut of a torn tail. */
    private boolean readOnly;

    private Catalog(FileIO io, Path file) {
        this.io = io;
        this.file = file;
    }

    /**
     * Reads the catalog in {@code namespaceDir/catalog/} without changing it — for tools that inspect
     * a namespace, perhaps beside a running engine: a torn last record is left where it is (reading
     * stops before it) and every append fails. Returns empty if the namespace has no catalog.
     *
     * @throws CorruptFileException for damage before the last record, or a foreign magic
     * @throws UnsupportedFormatVersionException for another catalog version
     */
    public static Optional<Catalog> read(FileIO io, Path namespaceDir) {
        Path file = namespaceDir.resolve(CatalogFormat.DIRECTORY).resolve(CatalogFormat.FILE_NAME);
        Catalog c = new Catalog(io, file);
        c.readOnly = true;
        try {
            if (!io.exists(file) || io.size(file) < CatalogFormat.HEADER_SIZE) {
                return Optional.empty();
            }
            c.replay();
        } catch (IOException e) {
            throw new StorageIoException("read catalog", file, -1, e);
        }
        return Optional.of(c);
    }

    /**
     * Opens (creating if absent) the catalog in {@code namespaceDir/catalog/} and replays it.
     *
     * @throws CorruptFileException for damage before the last record, or a foreign magic
     * @throws UnsupportedFormatVersionException for another catalog version
     */
    public static Catalog open(FileIO io, Path namespaceDir) {
        Path dir = namespaceDir.resolve(CatalogFormat.DIRECTORY);
        Path file = dir.resolve(CatalogFormat.FILE_NAME);
        Catalog c = new Catalog(io, file);
        try {
            io.createDirectories(dir);
            if (io.exists(file) && io.size(file) >= CatalogFormat.HEADER_SIZE) {
                c.replay();
                c.out = io.openAppend(file);
                c.position = c.out.position();
            } else {
                if (io.exists(file)) {
                    // a crash while creating it: nothing was ever recorded in it
                    LOG.log(Level.WARNING, "catalog header torn, recreating: file={0}", file);
                    io.delete(file);
                }
                c.out = io.create(file);
                ByteBuffer h = ByteBuffer.allocate(CatalogFormat.HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
                h.put(CatalogFormat.MAGIC).putShort((short) CatalogFormat.VERSION).flip();
                writeFully(c.out, h);
                c.out.sync();
                io.syncDirectory(dir);
                c.position = CatalogFormat.HEADER_SIZE;
            }
        } catch (IOException e) {
            throw new StorageIoException("open catalog", file, -1, e);
        }
        return c;
    }

    private void replay() throws IOException {
        byte[] all;
        try (FileIO.ReadableFile in = io.openRead(file)) {
            long size = in.size();
            if (size > Integer.MAX_VALUE) {
                throw new CorruptFileException(file, 0, "catalog larger than 2 GiB");
            }
            all = new byte[(int) size];
            ByteBuffer dst = ByteBuffer.wrap(all);
            while (dst.hasRemaining()) {
                if (in.read(dst, dst.position()) < 0) {
                    break;
                }
            }
        }
        ByteBuffer b = ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN);
        if (!Arrays.equals(Arrays.copyOfRange(all, 0, 4), CatalogFormat.MAGIC)) {
            throw new CorruptFileException(file, CatalogFormat.MAGIC_OFFSET, "not a catalog (bad magic)");
        }
        int version = b.getShort(CatalogFormat.VERSION_OFFSET) & 0xFFFF;
        if (version != CatalogFormat.VERSION) {
            throw new UnsupportedFormatVersionException(file, "catalog", version, CatalogFormat.VERSION);
        }
        long pos = CatalogFormat.HEADER_SIZE;
        while (pos < all.length) {
            long remaining = all.length - pos;
            if (remaining < CatalogFormat.FRAME_OVERHEAD) {
                cutTail(pos, "torn record header");
                return;
            }
            int storedCrc = b.getInt((int) pos + CatalogFormat.CRC_OFFSET);
            int length = b.getInt((int) pos + CatalogFormat.LENGTH_OFFSET);
            if (b.getInt((int) pos + CatalogFormat.LENGTH_CHECK_OFFSET) != ~length) {
                damaged(all, pos, "record length and its complement disagree");
                return;
            }
            byte type = b.get((int) pos + CatalogFormat.TYPE_OFFSET);
            if (length < 0 || length > CatalogFormat.MAX_BODY) {
                damaged(all, pos, "record length " + Integer.toUnsignedString(length) + " impossible");
                return;
            }
            long end = pos + CatalogFormat.FRAME_OVERHEAD + length;
            if (end > all.length) {
                cutTail(pos, "torn record body");
                return;
            }
            if (!checksumOk(all, (int) pos, length, storedCrc)) {
                if (end == all.length) {
                    cutTail(pos, "checksum mismatch in the last record");
                    return;
                }
                damaged(all, pos, "record checksum mismatch");
                return;
            }
            ByteBuffer body = ByteBuffer.wrap(all, (int) pos + CatalogFormat.FRAME_OVERHEAD, length).slice();
            try {
                apply(type, body);
            } catch (CatalogFormat.BadBody e) {
                throw new CorruptFileException(file, pos, "record body: " + e.getMessage());
            }
            pos = end;
        }
    }

    private void apply(byte type, ByteBuffer body) throws CatalogFormat.BadBody {
        switch (type) {
            case CatalogFormat.TYPE_SETTINGS -> settings = CatalogFormat.decodeSettings(body);
            case CatalogFormat.TYPE_ADD_SEGMENTS -> {
                for (SegmentEntry e : CatalogFormat.decodeAdd(body)) {
                    segments.put(e.file(), e);
                    nextSegmentId = Math.max(nextSegmentId, e.id() + 1);
                }
            }
            case CatalogFormat.TYPE_REMOVE_SEGMENTS -> {
                for (String f : CatalogFormat.decodeRemove(body)) {
                    segments.remove(f);
                }
            }
            case CatalogFormat.TYPE_REPLACE_SEGMENTS -> applyReplace(CatalogFormat.decodeReplace(body));
            case CatalogFormat.TYPE_SCHEMA -> declarations.addAll(CatalogFormat.decodeSchema(body));
            case CatalogFormat.TYPE_WAL_FLOOR -> walFloor = Math.max(walFloor, CatalogFormat.decodeWalFloor(body));
            case CatalogFormat.TYPE_ARCHIVED -> {
                for (ArchivedSegment a : ArchiveRecords.decodeArchived(body)) {
                    segments.remove(a.segment().file());
                    archived.put(a.key(), a);
                    nextSegmentId = Math.max(nextSegmentId, a.segment().id() + 1);
                }
            }
            case CatalogFormat.TYPE_COLD_REMOVED -> {
                for (String k : ArchiveRecords.decodeKeys(body)) {
                    archived.remove(k);
                }
            }
            case CatalogFormat.TYPE_TOMBSTONES -> {
                for (TombstoneEntry t : CatalogFormat.decodeTombstones(body)) {
                    tombstones.put(t.id(), t);
                    nextTombstoneId = Math.max(nextTombstoneId, t.id() + 1);
                }
            }
            case CatalogFormat.TYPE_DROP_TOMBSTONES -> CatalogFormat.decodeDropTombstones(body).forEach(tombstones::remove);
            case CatalogFormat.TYPE_ROLLUP_DEFINED -> {
                RollupEntry e = RollupRecords.decodeDefined(body);
                rollups.put(e.name(), e);
            }
            case CatalogFormat.TYPE_ROLLUP_REMOVED -> rollups.remove(RollupRecords.decodeRemoved(body));
            case CatalogFormat.TYPE_ROLLUP_STATE -> {
                RollupRecords.State st = RollupRecords.decodeState(body);
                rollups.computeIfPresent(st.name(), (k, e) -> e.withState(st.materialisedUntil(), st.invalid()));
            }
            default -> throw new CatalogFormat.BadBody("unknown record type " + type);
        }
    }

    private static boolean checksumOk(byte[] all, int pos, int length, int storedCrc) {
        CRC32C check = new CRC32C();
        check.update(all, pos + CatalogFormat.LENGTH_OFFSET, CatalogFormat.FRAME_OVERHEAD - CatalogFormat.LENGTH_OFFSET + length);
        return (int) check.getValue() == storedCrc;
    }

    /**
     * A frame that does not check out at {@code pos}. Records are fsynced one at a time, so only
     * the last can be caught by a crash — and a power loss may leave its unsynced bytes garbled,
     * length included, not merely cut short. So if no intact frame follows, it is that torn last
     * record, never acknowledged, and is cut; if one does, this is corruption.
     */
    private void damaged(byte[] all, long pos, String reason) throws IOException {
        if (intactFrameAfter(all, (int) pos)) {
            throw new CorruptFileException(file, pos, reason + "; intact records follow it");
        }
        cutTail(pos, reason + " in the last record");
    }

    /** Whether any byte position after {@code pos} starts a frame that checks out; run only on damage. */
    private static boolean intactFrameAfter(byte[] all, int pos) {
        ByteBuffer b = ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN);
        for (int p = pos + 1; p + CatalogFormat.FRAME_OVERHEAD <= all.length; p++) {
            int length = b.getInt(p + CatalogFormat.LENGTH_OFFSET);
            if (length < 0 || length > all.length - p - CatalogFormat.FRAME_OVERHEAD
                    || b.getInt(p + CatalogFormat.LENGTH_CHECK_OFFSET) != ~length) {
                continue;
            }
            if (checksumOk(all, p, length, b.getInt(p + CatalogFormat.CRC_OFFSET))) {
                return true;
            }
        }
        return false;
    }

    private void cutTail(long pos, String reason) throws IOException {
        if (readOnly) {
            return; // the records before it are all read
        }
        long size = io.size(file);
        LOG.log(Level.WARNING, "catalog torn tail truncated: file={0} offset={1} droppedBytes={2} reason={3}", file, pos,
                size - pos, reason);
        io.truncate(file, pos);
    }

    // ---------------------------------------------------------------- appends

    /** Records the namespace's fixed settings (once, at creation). */
    public synchronized void writeSettings(CatalogFormat.Settings s) {
        append(CatalogFormat.TYPE_SETTINGS, CatalogFormat.encodeSettings(s));
        settings = s;
    }

    /** Reserves {@code n} segment ids, increasing in publish order. */
    public synchronized long reserveIds(int n) {
        long first = nextSegmentId;
        nextSegmentId += n;
        return first;
    }

    /** Makes {@code entries} part of the namespace, all or none, durably, before returning. */
    public synchronized void addSegments(List<SegmentEntry> entries) {
        if (entries.isEmpty()) {
            return;
        }
        append(CatalogFormat.TYPE_ADD_SEGMENTS, CatalogFormat.encodeAdd(entries));
        for (SegmentEntry e : entries) {
            segments.put(e.file(), e);
        }
    }

    /** Removes segments from the namespace, durably; the caller deletes their files afterwards. */
    public synchronized void removeSegments(Collection<String> files) {
        if (files.isEmpty()) {
            return;
        }
        append(CatalogFormat.TYPE_REMOVE_SEGMENTS, CatalogFormat.encodeRemove(List.copyOf(files)));
        for (String f : files) {
            segments.remove(f);
        }
    }

    /**
     * Moves a hot segment to the archived set, durably, in one record — unless the segment is no
     * longer live (compacted or removed meanwhile), in which case nothing is written.
     *
     * @return whether the move was recorded; the caller deletes the hot files only if it was, and
     *     the just-written object if it was not
     */
    public synchronized boolean archiveSegment(ArchivedSegment a) {
        if (!segments.containsKey(a.segment().file())) {
            return false;
        }
        append(CatalogFormat.TYPE_ARCHIVED, ArchiveRecords.encodeArchived(List.of(a)));
        segments.remove(a.segment().file());
        archived.put(a.key(), a);
        return true;
    }

    /** Forgets archived segments by object key, durably; the caller deletes the objects afterwards. */
    public synchronized void removeArchived(Collection<String> keys) {
        List<String> known = keys.stream().filter(archived::containsKey).distinct().toList();
        if (known.isEmpty()) {
            return;
        }
        append(CatalogFormat.TYPE_COLD_REMOVED, ArchiveRecords.encodeKeys(known));
        for (String k : known) {
            archived.remove(k);
        }
    }

    /** Archived segments in archive order. */
    public synchronized List<ArchivedSegment> archived() {
        return List.copyOf(archived.values());
    }

    /**
     * Compaction's swap: {@code added} join and {@code removed} leave the namespace in one durable
     * record, so a crash leaves either the inputs or the outputs, never both and never neither. The
     * caller deletes the removed files afterwards (a crash first leaves orphans, deleted at open).
     */
    public synchronized void replaceSegments(Collection<String> removed, List<SegmentEntry> added) {
        if (removed.isEmpty() && added.isEmpty()) {
            return;
        }
        CatalogFormat.Replace r = new CatalogFormat.Replace(List.copyOf(removed), added);
        append(CatalogFormat.TYPE_REPLACE_SEGMENTS, CatalogFormat.encodeReplace(r));
        applyReplace(r);
    }

    private void applyReplace(CatalogFormat.Replace r) {
        for (String f : r.removed()) {
            segments.remove(f);
        }
        for (SegmentEntry e : r.added()) {
            segments.put(e.file(), e);
            nextSegmentId = Math.max(nextSegmentId, e.id() + 1);
        }
    }

    /** Reserves {@code n} tombstone ids, increasing in issue order. */
    public synchronized long reserveTombstoneIds(int n) {
        long first = nextTombstoneId;
        nextTombstoneId += n;
        return first;
    }

    /**
     * Records the tombstones of one delete, all or none, durably (fsynced) before returning — the
     * only durable record a tombstone has.
     */
    public synchronized void addTombstones(List<TombstoneEntry> entries) {
        if (entries.isEmpty()) {
            return;
        }
        append(CatalogFormat.TYPE_TOMBSTONES, CatalogFormat.encodeTombstones(entries));
        for (TombstoneEntry t : entries) {
            tombstones.put(t.id(), t);
        }
    }

    /** Forgets collected tombstones, durably. */
    public synchronized void dropTombstones(Collection<Long> ids) {
        if (ids.isEmpty()) {
            return;
        }
        append(CatalogFormat.TYPE_DROP_TOMBSTONES, CatalogFormat.encodeDropTombstones(List.copyOf(ids)));
        ids.forEach(tombstones::remove);
    }

    /** Live tombstones in issue order. */
    public synchronized List<TombstoneEntry> tombstones() {
        return List.copyOf(tombstones.values());
    }

    /** Records a rollup definition, durably; its state starts at no watermark and no pending range. */
    public synchronized void defineRollup(RollupEntry definition) {
        RollupEntry fresh = definition.withState(Long.MIN_VALUE, new long[0]);
        append(CatalogFormat.TYPE_ROLLUP_DEFINED, RollupRecords.encodeDefined(fresh));
        rollups.put(fresh.name(), fresh);
    }

    /** Forgets a rollup, durably (nothing is written for an unknown name). */
    public synchronized void removeRollup(String name) {
        if (!rollups.containsKey(name)) {
            return;
        }
        append(CatalogFormat.TYPE_ROLLUP_REMOVED, RollupRecords.encodeRemoved(name));
        rollups.remove(name);
    }

    /**
     * Records a rollup's state, durably: watermark and pending invalid ranges ({@code [from0, to0,
     * …]}, ascending, disjoint, at most 64).
     *
     * @throws IllegalArgumentException for an unknown rollup or ranges a reader would refuse
     */
    public synchronized void rollupState(String name, long materialisedUntil, long[] invalid) {
        RollupEntry e = rollups.get(name);
        if (e == null) {
            throw new IllegalArgumentException("no such rollup in the catalog [name=" + name + "]");
        }
        if (invalid.length % 2 != 0 || invalid.length / 2 > RollupRecords.MAX_RANGES) {
            throw new IllegalArgumentException("rollup ranges malformed [name=" + name + ", values=" + invalid.length + "]");
        }
        for (int i = 0; i < invalid.length; i += 2) {
            if (invalid[i] >= invalid[i + 1] || i > 0 && invalid[i] <= invalid[i - 1]) {
                throw new IllegalArgumentException("rollup ranges not ascending and disjoint [name=" + name + "]");
            }
        }
        append(CatalogFormat.TYPE_ROLLUP_STATE, RollupRecords.encodeState(name, materialisedUntil, invalid));
        rollups.put(name, e.withState(materialisedUntil, invalid));
    }

    /** Rollups in definition order, each with its latest state. */
    public synchronized List<RollupEntry> rollups() {
        return List.copyOf(rollups.values());
    }

    /** Records schema declarations, durably. */
    public synchronized void addDeclarations(List<CatalogDeclaration> decls) {
        if (decls.isEmpty()) {
            return;
        }
        append(CatalogFormat.TYPE_SCHEMA, CatalogFormat.encodeSchema(decls));
        declarations.addAll(decls);
    }

    private void append(byte type, byte[] body) {
        if (readOnly) {
            throw new IllegalStateException("catalog read without the right to change it [file=" + file + "]");
        }
        if (poison != null) {
            throw new StorageIoException("append to catalog poisoned by an earlier fsync failure", file, position, poison);
        }
        ByteBuffer frame = ByteBuffer.allocate(CatalogFormat.FRAME_OVERHEAD + body.length).order(ByteOrder.LITTLE_ENDIAN);
        frame.putInt(0).putInt(body.length).putInt(~body.length).put(type).put(body);
        crc.reset();
        crc.update(frame.array(), CatalogFormat.LENGTH_OFFSET, frame.capacity() - CatalogFormat.LENGTH_OFFSET);
        frame.putInt(CatalogFormat.CRC_OFFSET, (int) crc.getValue());
        frame.flip();
        long start = position;
        try {
            writeFully(out, frame);
        } catch (IOException e) {
            try {
                out.truncate(start);
            } catch (IOException ignored) {
                // the torn record is cut at the next open
            }
            throw new StorageIoException("append to catalog", file, start, e);
        }
        try {
            out.sync();
        } catch (IOException e) {
            poison = e;
            throw new StorageIoException("fsync catalog", file, start, e);
        }
        position = start + frame.capacity();
    }

    private static void writeFully(FileIO.WritableFile f, ByteBuffer b) throws IOException {
        int zero = 0;
        while (b.hasRemaining()) {
            if (f.write(b) == 0 && ++zero > 16) {
                throw new IOException("no progress writing");
            }
        }
    }

    /**
     * Records that every WAL record up to {@code floor} is held by segments (the WAL is about to
     * be truncated there), so replay can skip those records without decoding them. Ignored unless
     * it raises the floor.
     */
    public synchronized void raiseWalFloor(long floor) {
        if (floor <= walFloor) {
            return;
        }
        append(CatalogFormat.TYPE_WAL_FLOOR, CatalogFormat.encodeWalFloor(floor));
        walFloor = floor;
    }

    /** The highest WAL sequence known to be held by segments, 0 if none. */
    public synchronized long walFloor() {
        return walFloor;
    }

    // ---------------------------------------------------------------- state

    /** The settings recorded at creation, or {@code null} for a catalog that has none yet. */
    public synchronized CatalogFormat.Settings settings() {
        return settings;
    }

    /**
     * Live segments by ascending id — the order of their writes, which last write wins goes by. (A
     * compaction's output takes an id reserved when its inputs were chosen, so it sorts before any
     * segment flushed while it ran, although its record comes later in the file.)
     */
    public synchronized List<SegmentEntry> segments() {
        return segments.values().stream().sorted(java.util.Comparator.comparingLong(SegmentEntry::id)).toList();
    }

    public synchronized List<CatalogDeclaration> declarations() {
        return List.copyOf(declarations);
    }

    public Path file() {
        return file;
    }

    /** The failed fsync that makes every append fail, if one failed (until the namespace is reopened). */
    public java.util.Optional<IOException> failure() {
        return java.util.Optional.ofNullable(poison);
    }

    /**
     * After a failed fsync: cuts the file back to the end of the last record whose fsync succeeded,
     * and makes the cut durable, so a reopen reads neither the record whose fsync failed (the page
     * cache may show it though the device does not hold it) nor, after a later crash, a damaged
     * record in front of newer ones. The catalog stays poisoned; reopen the namespace to append.
     *
     * @return true if the file now ends at its last synced record (also when nothing failed);
     *     false if the cut could not be made durable (the device still fails)
     */
    public synchronized boolean discardUnsynced() {
        if (poison == null || discarded) {
            return true; // appends are refused once poisoned: a cut made stays made
        }
        try {
            out.truncate(position);
            out.sync();
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "catalog: cannot cut back to its last synced record yet [file={0}, offset={1}]: {2}",
                    file, position, e.toString());
            return false;
        }
        discarded = true;
        LOG.log(System.Logger.Level.WARNING, "catalog cut back to its last synced record after a failed fsync [file={0}, offset={1}]",
                file, position);
        return true;
    }

    /** Bytes in the catalog file. */
    public synchronized long size() {
        return position;
    }

    @Override
    public synchronized void close() {
        if (out == null) {
            return; // read-only
        }
        try {
            out.close();
        } catch (IOException ignored) {
            // every record was fsynced when appended
        }
    }
}
