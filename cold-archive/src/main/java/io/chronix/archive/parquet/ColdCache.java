package io.chronix.archive.parquet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * A bounded local copy of cold objects, one file per (object key, ETag) under one directory
 * (the namespace's {@code cold-cache/}): an object replaced under its key gets a new ETag and so a
 * new file, never a stale hit. Least recently used files go first once the total passes the
 * bound; a file in use (a lease is open) is never evicted. Files appear by rename from
 * {@code .tmp/}, so a crash leaves whole files or nothing usable; the next start empties
 * {@code .tmp/} and adopts the whole files already there.
 *
 * <p>Threading: thread-safe; the index is guarded by this object's monitor, fetches run outside it
 * (two readers missing the same object may both fetch it; the second rename wins, same bytes).
 */
public final class ColdCache {

    /** Writes the object's bytes to the given file (which does not exist yet). */
    @FunctionalInterface
    public interface Fetcher {
        void fetchTo(Path file) throws IOException;
    }

    private static final String TMP = ".tmp";

    private final Path dir;
    private final long maxBytes;
    private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
    private long bytes;
    private long hits;
    private long misses;

    private static final class Entry {
        final long size;
        int users;

        Entry(long size) {
            this.size = size;
        }
    }

    /** A cached file held open; close to let eviction have it again. */
    public final class Lease implements AutoCloseable {
        private final String name;
        private final Path file;
        private boolean closed;

        private Lease(String name, Path file) {
            this.name = name;
            this.file = file;
        }

        public Path file() {
            return file;
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                release(name);
            }
        }
    }

    public ColdCache(Path dir, long maxBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("cache bound must not be negative [maxBytes=" + maxBytes + "]");
        }
        this.dir = dir;
        this.maxBytes = maxBytes;
        try {
            Files.createDirectories(dir.resolve(TMP));
            try (Stream<Path> tmp = Files.list(dir.resolve(TMP))) {
                for (Path p : tmp.toList()) {
                    Files.deleteIfExists(p);
                }
            }
            List<Path> files;
            try (Stream<Path> s = Files.list(dir)) {
                files = new ArrayList<>(s.filter(Files::isRegularFile).toList());
            }
            files.sort(Comparator.comparingLong(ColdCache::mtime));
            for (Path p : files) {
                long size = Files.size(p);
                entries.put(p.getFileName().toString(), new Entry(size));
                bytes += size;
            }
            synchronized (this) {
                evict();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the cold cache [dir=" + dir + "]", e);
        }
    }

    /** The file name of an object version: the key with {@code /} as {@code +}, then {@code @} and the ETag's safe characters. */
    static String fileName(String key, String etag) {
        String k = key.replace('/', '+');
        String e = etag.replaceAll("[^A-Za-z0-9-]", "");
        String name = k + "@" + e;
        if (k.startsWith(".") || name.length() > 240) {
            throw new IllegalArgumentException("object key not cacheable [key=" + key + "]");
        }
        return name;
    }

    /** The cached file of {@code key}@{@code etag}, fetched first on a miss. */
    public Lease get(String key, String etag, Fetcher fetcher) throws IOException {
        String name = fileName(key, etag);
        synchronized (this) {
            Entry e = entries.get(name);
            if (e != null && Files.exists(dir.resolve(name))) {
                e.users++;
                hits++;
                return new Lease(name, dir.resolve(name));
            }
            if (e != null) {
                entries.remove(name); // deleted behind our back
                bytes -= e.size;
            }
            misses++;
        }
        Path tmp = dir.resolve(TMP).resolve(UUID.randomUUID() + ".part");
        try {
            fetcher.fetchTo(tmp);
            return adopt(name, tmp);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** Moves {@code file} (a complete copy of {@code key}@{@code etag}) into the cache, e.g. right after an upload. */
    public void put(String key, String etag, Path file) throws IOException {
        adopt(fileName(key, etag), file).close();
    }

    private Lease adopt(String name, Path file) throws IOException {
        long size = Files.size(file);
        Path target = dir.resolve(name);
        Files.move(file, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        synchronized (this) {
            Entry old = entries.remove(name);
            if (old != null) {
                bytes -= old.size;
            }
            Entry e = new Entry(size);
            e.users = 1 + (old == null ? 0 : old.users);
            entries.put(name, e);
            bytes += size;
            evict();
        }
        return new Lease(name, target);
    }

    private synchronized void release(String name) {
        Entry e = entries.get(name);
        if (e != null) {
            e.users--;
        }
        evict();
    }

    /** Forgets and deletes every cached version of {@code key}. */
    public synchronized void invalidate(String key) {
        String prefix = fileName(key, "") ;
        Iterator<Map.Entry<String, Entry>> it = entries.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<String, Entry> e = it.next();
            if (e.getKey().startsWith(prefix) && e.getValue().users == 0) {
                it.remove();
                bytes -= e.getValue().size;
                deleteQuietly(dir.resolve(e.getKey()));
            }
        }
    }

    private void evict() {
        assert Thread.holdsLock(this);
        Iterator<Map.Entry<String, Entry>> it = entries.entrySet().iterator();
        while (bytes > maxBytes && it.hasNext()) {
            Map.Entry<String, Entry> e = it.next();
            if (e.getValue().users > 0) {
                continue;
            }
            it.remove();
            bytes -= e.getValue().size;
            deleteQuietly(dir.resolve(e.getKey()));
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // a leftover file is adopted (and evicted) at the next start
        }
    }

    private static long mtime(Path p) {
        try {
            return Files.getLastModifiedTime(p).toMillis();
        } catch (IOException e) {
            return 0;
        }
    }

    public Path directory() {
        return dir;
    }

    public synchronized long bytes() {
        return bytes;
    }

    public synchronized long hits() {
        return hits;
    }

    public synchronized long misses() {
        return misses;
    }

    /** Cached files and their sizes (for tests and reports). */
    public synchronized Map<String, Long> contents() {
        Map<String, Long> m = new HashMap<>();
        entries.forEach((k, v) -> m.put(k, v.size));
        return m;
    }
}
