package io.chronix.engine;

import io.chronix.engine.catalog.CatalogFormat;
import io.chronix.engine.error.CorruptFileException;
import io.chronix.engine.error.StorageIoException;
import io.chronix.engine.error.UnsupportedFormatVersionException;
import io.chronix.engine.io.FileIO;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * The layout of a namespace directory (DESIGN.md §4) and its {@code VERSION} file
 * ({@code docs/format/version.md}):
 *
 * <pre>
 *   VERSION  LOCK  wal/  segments/shard_{id}/  catalog/  tmp/
 * </pre>
 *
 * {@code VERSION} holds the directory format version as ASCII decimal digits and a newline. Open
 * refuses any other version, naming both. A directory with no (or an empty) {@code VERSION} and
 * no catalog is new — or a creation that crashed before anything was recorded — and gets one; a
 * missing {@code VERSION} beside a catalog is refused.
 */
final class DataDirectory {

    static final String VERSION_FILE = "VERSION";
    static final int VERSION = 1;
    static final String WAL = "wal";
    static final String SEGMENTS = "segments";
    static final String TMP = "tmp";

    private DataDirectory() {
    }

    /** Checks (or, for a new directory, writes) {@code VERSION}. */
    static void checkVersion(FileIO io, Path dir) {
        Path file = dir.resolve(VERSION_FILE);
        boolean hasCatalog = io.exists(dir.resolve(CatalogFormat.DIRECTORY).resolve(CatalogFormat.FILE_NAME));
        try {
            if (!io.exists(file) || io.size(file) == 0) {
                if (hasCatalog) {
                    throw new CorruptFileException(file, 0, "VERSION missing beside an existing catalog");
                }
                if (io.exists(file)) {
                    io.delete(file);
                }
                try (FileIO.WritableFile out = io.create(file)) {
                    ByteBuffer b = ByteBuffer.wrap((VERSION + "\n").getBytes(StandardCharsets.US_ASCII));
                    while (b.hasRemaining()) {
                        out.write(b);
                    }
                    out.sync();
                }
                io.syncDirectory(dir);
                return;
            }
            long size = io.size(file);
            if (size > 64) {
                throw new CorruptFileException(file, 0, "VERSION longer than 64 bytes");
            }
            ByteBuffer b = ByteBuffer.allocate((int) size);
            try (FileIO.ReadableFile in = io.openRead(file)) {
                while (b.hasRemaining() && in.read(b, b.position()) >= 0) {
                    // read all
                }
            }
            String text = new String(b.array(), 0, b.position(), StandardCharsets.US_ASCII).strip();
            int found;
            try {
                found = Integer.parseInt(text);
            } catch (NumberFormatException e) {
                throw new CorruptFileException(file, 0, "VERSION is not a number: '" + text + "'");
            }
            if (found != VERSION) {
                throw new UnsupportedFormatVersionException(file, "data directory", found, VERSION);
            }
        } catch (IOException e) {
            throw new StorageIoException("check VERSION", file, -1, e);
        }
    }

    /** Deletes everything in {@code tmp/}: staging left by a crash (a half-written segment, a sidecar). */
    static int emptyTmp(FileIO io, Path dir) {
        Path tmp = dir.resolve(TMP);
        try {
            io.createDirectories(tmp);
            List<Path> files = io.list(tmp);
            for (Path p : files) {
                io.delete(p);
            }
            if (!files.isEmpty()) {
                io.syncDirectory(tmp);
            }
            return files.size();
        } catch (IOException e) {
            throw new StorageIoException("empty tmp", tmp, -1, e);
        }
    }

    /** The shard directories under {@code segments/}, sorted. */
    static List<Path> shardDirectories(FileIO io, Path dir) {
        Path segments = dir.resolve(SEGMENTS);
        try {
            return io.listDirectories(segments).stream().sorted().toList();
        } catch (IOException e) {
            throw new StorageIoException("list segments", segments, -1, e);
        }
    }
}
