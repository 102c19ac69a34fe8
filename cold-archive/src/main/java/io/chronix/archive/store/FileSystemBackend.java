package io.chronix.archive.store;

import io.chronix.engine.error.SegmentNotFoundException;
import io.chronix.engine.error.StorageBackendException;
import io.chronix.engine.storage.NamespaceId;
import io.chronix.engine.storage.ObjectInfo;
import io.chronix.engine.storage.SegmentPath;
import io.chronix.engine.storage.StorageBackend;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * Objects as files under a root directory: key {@code ns_1/shard_2/x} is file {@code root/ns_1/shard_2/x}.
 * A put writes a temporary file under {@code root/.tmp}, fsyncs it, renames it into place and fsyncs
 * the parent, so an object is visible whole or not at all, as with S3.
 */
public final class FileSystemBackend implements StorageBackend {

    private static final String TMP = ".tmp";

    private final Path root;

    public FileSystemBackend(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    public Path root() {
        return root;
    }

    @Override
    public void put(SegmentPath path, byte[] data) {
        Path target = resolve(path);
        Path tmpDir = root.resolve(TMP);
        Path tmp = tmpDir.resolve(UUID.randomUUID() + ".part");
        try {
            Files.createDirectories(tmpDir);
            Files.createDirectories(target.getParent());
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ByteBuffer buf = ByteBuffer.wrap(data);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                ch.force(true);
            }
            // the temporary directory is under the root, on the same file system: a rename there is
            // atomic, and a store where it is not refuses the put rather than expose a torn object
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            fsyncDirectory(target.getParent());
        } catch (IOException e) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // the failure that matters is reported below
            }
            throw new StorageBackendException("put", path.key(), e);
        }
    }

    @Override
    public byte[] get(SegmentPath path) {
        try {
            return Files.readAllBytes(resolve(path));
        } catch (NoSuchFileException e) {
            throw new SegmentNotFoundException(path.key());
        } catch (IOException e) {
            throw new StorageBackendException("get", path.key(), e);
        }
    }

    @Override
    public byte[] getRange(SegmentPath path, long offset, long length) {
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("offset and length must be non-negative [offset=" + offset + ", length=" + length + "]");
        }
        try (FileChannel ch = FileChannel.open(resolve(path), StandardOpenOption.READ)) {
            long size = ch.size();
            int n = (int) Math.max(0, Math.min(length, size - offset));
            ByteBuffer buf = ByteBuffer.allocate(n);
            while (buf.hasRemaining()) {
                if (ch.read(buf, offset + buf.position()) < 0) {
                    break;
                }
            }
            return buf.array();
        } catch (NoSuchFileException e) {
            throw new SegmentNotFoundException(path.key());
        } catch (IOException e) {
            throw new StorageBackendException("getRange", path.key(), e);
        }
    }

    @Override
    public void delete(SegmentPath path) {
        try {
            Files.deleteIfExists(resolve(path));
        } catch (IOException e) {
            throw new StorageBackendException("delete", path.key(), e);
        }
    }

    @Override
    public List<SegmentPath> list(NamespaceId namespace) {
        Path nsDir = root.resolve("ns_" + namespace.value());
        if (!Files.isDirectory(nsDir)) {
            return List.of();
        }
        List<SegmentPath> result = new ArrayList<>();
        try (Stream<Path> files = Files.walk(nsDir, 2)) {
            files.filter(Files::isRegularFile)
                    .map(f -> root.relativize(f).toString().replace('\\', '/'))
                    .map(SegmentPath::parse)
                    .flatMap(java.util.Optional::stream)
                    .forEach(result::add);
        } catch (IOException e) {
            throw new StorageBackendException("list", namespace.keyPrefix(), e);
        }
        result.sort(Comparator.comparing(SegmentPath::key));
        return result;
    }

    @Override
    public boolean exists(SegmentPath path) {
        return Files.isRegularFile(resolve(path));
    }

    /**
     * The tag is the file's size and modification time in nanoseconds; every put writes a new file
     * (temporary file + rename), so a replaced object gets a new tag.
     */
    @Override
    public ObjectInfo stat(SegmentPath path) {
        try {
            java.nio.file.attribute.BasicFileAttributes a = Files.readAttributes(resolve(path), java.nio.file.attribute.BasicFileAttributes.class);
            long mtime = a.lastModifiedTime().to(java.util.concurrent.TimeUnit.NANOSECONDS);
            Object inode = a.fileKey();
            String tag = Long.toHexString(a.size()) + "-" + Long.toHexString(mtime)
                    + (inode == null ? "" : "-" + Integer.toHexString(inode.hashCode()));
            return new ObjectInfo(a.size(), tag);
        } catch (NoSuchFileException e) {
            throw new SegmentNotFoundException(path.key());
        } catch (IOException e) {
            throw new StorageBackendException("stat", path.key(), e);
        }
    }

    @Override
    public void checkAvailable() {
        try {
            Files.createDirectories(root);
        } catch (IOException e) {
            throw new StorageBackendException("check", root.toString(), e);
        }
        if (!Files.isDirectory(root) || !Files.isWritable(root)) {
            throw new StorageBackendException("check", root.toString(), "cold directory is not a writable directory");
        }
    }

    @Override
    public String describe() {
        return "filesystem " + root;
    }

    private Path resolve(SegmentPath path) {
        // SegmentPath admits no separators or dot components, so the key stays under root; the
        // check below is a second line of defence, not the first.
        Path p = root.resolve(path.key()).normalize();
        if (!p.startsWith(root)) {
            throw new StorageBackendException("resolve", path.key(), "key escapes the store root");
        }
        return p;
    }

    private static void fsyncDirectory(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }
}
