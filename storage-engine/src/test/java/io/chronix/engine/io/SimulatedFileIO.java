package io.chronix.engine.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An in-memory {@link FileIO} that models what a disk promises and no more, and injects faults.
 *
 * <p>Durability model. Every write and truncation since a file's last successful sync is
 * <em>unsynced</em>; a directory's creations and deletions since its last sync are unsynced too. On
 * {@link #powerLoss} each file goes back to its synced content, then a prefix of its unsynced
 * operations is re-applied as chosen by the {@link PowerLoss} mode: none (dropped), all (kept), a
 * random prefix with the next operation torn part-way, or a random prefix with the next operation's
 * bytes garbled. This is a page cache writing a file's dirty pages back in offset order — the
 * behaviour a log relies on; holes in the middle of synced data are the corruption tests' business.
 * An unsynced directory entry survives, or an unsynced delete is undone, at random.
 *
 * <p>A rename moves the file to its new name at once; the new name is durable only after a sync of
 * its directory, and the old one is forgotten (a power loss before that sync may lose the file
 * under both names — harsher than a journalling file system, which keeps one of them, and what a
 * writer that publishes by rename and then syncs the directory does not mind).
 *
 * <p>{@link #halt} stands for the moment the power goes: from then on every change (write, sync,
 * create, rename, delete, truncate) fails, so threads of the process still running cannot touch
 * the "disk" any more, until {@link #powerLoss} applies the loss to what was there at the halt.
 *
 * <p>Faults: failing fsync (files, directories, or both), a device capacity (writes past it are
 * short and then fail with ENOSPC's message), random short writes, and a hook run before each sync
 * (to block a sync). Counters let a test prove its fault fired.
 *
 * <p>Threading: thread-safe; all state under this object's monitor, except the sync hook, which
 * runs outside it so a blocked sync does not block writes.
 */
public final class SimulatedFileIO implements FileIO {

    public enum PowerLoss { DROP, KEEP, TEAR, GARBLE }

    private final Map<Path, Node> live = new HashMap<>();
    private final Map<Path, Node> unlinked = new HashMap<>();
    private final Set<Path> durableNames = new HashSet<>();
    private final Set<Path> directories = new HashSet<>();
    private int generation;

    private volatile boolean failFileSync;
    private volatile boolean failDirectorySync;
    private volatile long capacity = Long.MAX_VALUE;
    private volatile Random shortWrites;
    private volatile Runnable syncHook = () -> { };
    private volatile boolean halted;

    public final AtomicInteger syncs = new AtomicInteger();
    public final AtomicInteger failedSyncs = new AtomicInteger();
    public final AtomicInteger shortWriteCount = new AtomicInteger();
    public final AtomicInteger noSpaceErrors = new AtomicInteger();
    public final AtomicInteger directorySyncs = new AtomicInteger();
    public final AtomicInteger listings = new AtomicInteger();
    public final AtomicInteger preallocations = new AtomicInteger();

    private record Op(boolean truncate, long offset, byte[] bytes, long oldLength, byte[] oldBytes) {
    }

    private static final class Node {
        byte[] data = new byte[0];
        int length;
        final List<Op> unsynced = new ArrayList<>();

        void apply(long offset, byte[] bytes, int n) {
            int end = (int) offset + n;
            if (end > data.length) {
                data = Arrays.copyOf(data, Math.max(end, data.length * 2));
            }
            if (offset > length) {
                Arrays.fill(data, length, (int) offset, (byte) 0);
            }
            System.arraycopy(bytes, 0, data, (int) offset, n);
            length = Math.max(length, end);
        }

        void write(long offset, byte[] bytes) {
            int oldEnd = (int) Math.min(length, offset + bytes.length);
            byte[] old = offset < length ? Arrays.copyOfRange(data, (int) offset, oldEnd) : new byte[0];
            unsynced.add(new Op(false, offset, bytes, length, old));
            apply(offset, bytes, bytes.length);
        }

        void truncate(long size) {
            if (size >= length) {
                return;
            }
            unsynced.add(new Op(true, size, null, length, Arrays.copyOfRange(data, (int) size, length)));
            length = (int) size;
        }

        /** Back to the content of the last sync. */
        void rollBack() {
            for (int i = unsynced.size() - 1; i >= 0; i--) {
                Op op = unsynced.get(i);
                if (op.truncate) {
                    apply(op.offset, op.oldBytes, op.oldBytes.length);
                } else {
                    System.arraycopy(op.oldBytes, 0, data, (int) op.offset, op.oldBytes.length);
                }
                length = (int) op.oldLength;
            }
        }

        void crash(PowerLoss mode, Random rnd) {
            List<Op> ops = List.copyOf(unsynced);
            rollBack();
            unsynced.clear();
            int keep = switch (mode) {
                case DROP -> 0;
                case KEEP -> ops.size();
                case TEAR, GARBLE -> rnd.nextInt(ops.size() + 1);
            };
            for (int i = 0; i < keep; i++) {
                redo(ops.get(i));
            }
            if (keep < ops.size() && (mode == PowerLoss.TEAR || mode == PowerLoss.GARBLE)) {
                Op next = ops.get(keep);
                if (next.truncate) {
                    length = (int) Math.min(length, next.offset);
                } else {
                    byte[] part = Arrays.copyOf(next.bytes, rnd.nextInt(next.bytes.length + 1));
                    if (mode == PowerLoss.GARBLE && part.length > 0) {
                        int from = rnd.nextInt(part.length);
                        for (int j = from; j < part.length; j++) {
                            part[j] = (byte) rnd.nextInt(256);
                        }
                    }
                    apply(next.offset, part, part.length);
                }
            }
        }

        void redo(Op op) {
            if (op.truncate) {
                length = (int) Math.min(length, op.offset);
            } else {
                apply(op.offset, op.bytes, op.bytes.length);
            }
        }
    }

    // ------------------------------------------------------------- faults

    public SimulatedFileIO failFileSyncs(boolean on) {
        failFileSync = on;
        return this;
    }

    public SimulatedFileIO failDirectorySyncs(boolean on) {
        failDirectorySync = on;
        return this;
    }

    /** Total bytes all files may hold; {@code Long.MAX_VALUE} for no limit. */
    public SimulatedFileIO capacity(long bytes) {
        capacity = bytes;
        return this;
    }

    /** Every write writes a random number of bytes (at least one); null turns it off. */
    public SimulatedFileIO shortWrites(Random rnd) {
        shortWrites = rnd;
        return this;
    }

    /** Runs before each file sync, outside the simulator's lock. */
    public SimulatedFileIO syncHook(Runnable hook) {
        syncHook = hook;
        return this;
    }

    /** Bytes left under the capacity; without one, no file is summed (an engine's many files made every write slow). */
    private long free() {
        long c = capacity;
        return c == Long.MAX_VALUE ? Long.MAX_VALUE : c - usedBytes();
    }

    public synchronized long usedBytes() {
        long sum = 0;
        for (Node n : live.values()) {
            sum += n.length;
        }
        return sum;
    }

    /** The power goes: every change fails from now on, until {@link #powerLoss} (see the class comment). */
    public synchronized void halt() {
        halted = true;
    }

    public boolean halted() {
        return halted;
    }

    private void running() throws IOException {
        if (halted) {
            throw new IOException("Input/output error (simulated power off)");
        }
    }

    /**
     * Simulates a power loss: every unsynced write and directory change is dropped, kept, torn or
     * garbled as {@code mode} and {@code rnd} choose. Every open handle becomes unusable. Ends a
     * {@link #halt}.
     */
    public synchronized void powerLoss(PowerLoss mode, Random rnd) {
        halted = false;
        generation++;
        Map<Path, Node> survivors = new HashMap<>();
        for (Map.Entry<Path, Node> e : live.entrySet()) {
            if (durableNames.contains(e.getKey()) || rnd.nextBoolean()) {
                survivors.put(e.getKey(), e.getValue());
            }
        }
        for (Map.Entry<Path, Node> e : unlinked.entrySet()) {
            if (durableNames.contains(e.getKey()) && rnd.nextBoolean()) {
                survivors.put(e.getKey(), e.getValue());
            }
        }
        for (Node n : survivors.values()) {
            n.crash(mode, rnd);
        }
        live.clear();
        live.putAll(survivors);
        unlinked.clear();
        durableNames.clear();
        durableNames.addAll(live.keySet());
        failFileSync = false;
        failDirectorySync = false;
        capacity = Long.MAX_VALUE;
        shortWrites = null;
        syncHook = () -> { };
    }

    /** A copy of a file's current content; for tests that inspect or damage bytes. */
    public synchronized byte[] contents(Path path) {
        Node n = live.get(path);
        if (n == null) {
            throw new IllegalArgumentException("no such file " + path);
        }
        return Arrays.copyOf(n.data, n.length);
    }

    /** Replaces a file's content, durably; for tests that damage bytes. */
    public synchronized void overwrite(Path path, byte[] content) {
        Node n = live.computeIfAbsent(path, p -> new Node());
        n.data = content.clone();
        n.length = content.length;
        n.unsynced.clear();
        durableNames.add(path);
    }

    // ------------------------------------------------------------- FileIO

    @Override
    public synchronized WritableFile create(Path path) throws IOException {
        running();
        requireDirectory(path.getParent());
        if (live.containsKey(path)) {
            throw new FileAlreadyExistsException(path.toString());
        }
        Node n = new Node();
        live.put(path, n);
        unlinked.remove(path);
        return new Handle(path, n, 0, generation);
    }

    @Override
    public synchronized WritableFile openAppend(Path path) throws IOException {
        running();
        Node n = node(path);
        return new Handle(path, n, n.length, generation);
    }

    @Override
    public synchronized ReadableFile openRead(Path path) throws IOException {
        Node n = node(path);
        int gen = generation;
        return new ReadableFile() {
            @Override
            public int read(ByteBuffer dst, long position) throws IOException {
                synchronized (SimulatedFileIO.this) {
                    if (gen != generation) {
                        throw new IOException("stale handle after power loss");
                    }
                    if (position >= n.length) {
                        return -1;
                    }
                    int k = (int) Math.min(dst.remaining(), n.length - position);
                    dst.put(n.data, (int) position, k);
                    return k;
                }
            }

            @Override
            public long size() {
                synchronized (SimulatedFileIO.this) {
                    return n.length;
                }
            }

            @Override
            public void close() {
            }
        };
    }

    @Override
    public void truncate(Path path, long size) throws IOException {
        syncHook.run();
        synchronized (this) {
            running();
            Node n = node(path);
            n.truncate(size);
            checkSync(false);
            n.unsynced.clear();
            syncs.incrementAndGet();
        }
    }

    @Override
    public synchronized void delete(Path path) throws IOException {
        running();
        Node n = live.remove(path);
        if (n != null) {
            unlinked.put(path, n);
        }
    }

    /**
     * Moves {@code source} to {@code target}, which must not exist, at once; see the class comment
     * for what a power loss does to it before the target's directory is synced.
     */
    @Override
    public synchronized void rename(Path source, Path target) throws IOException {
        running();
        requireDirectory(target.getParent());
        Node n = node(source);
        if (live.containsKey(target)) {
            throw new FileAlreadyExistsException(target.toString());
        }
        live.remove(source);
        durableNames.remove(source);
        unlinked.remove(target);
        live.put(target, n);
    }

    @Override
    public synchronized List<Path> listDirectories(Path dir) {
        List<Path> out = new ArrayList<>();
        for (Path p : directories) {
            if (dir.equals(p.getParent())) {
                out.add(p);
            }
        }
        return out;
    }

    @Override
    public synchronized List<Path> list(Path dir) {
        listings.incrementAndGet();
        List<Path> out = new ArrayList<>();
        for (Path p : live.keySet()) {
            if (dir.equals(p.getParent())) {
                out.add(p);
            }
        }
        return out;
    }

    @Override
    public synchronized boolean exists(Path path) {
        return live.containsKey(path) || directories.contains(path);
    }

    @Override
    public synchronized long size(Path path) throws IOException {
        return node(path).length;
    }

    @Override
    public synchronized void createDirectories(Path dir) {
        // not refused after a halt: directories are never lost in this model, and an empty one changes nothing a test sees
        for (Path p = dir; p != null; p = p.getParent()) {
            directories.add(p);
        }
    }

    @Override
    public synchronized void syncDirectory(Path dir) throws IOException {
        running();
        requireDirectory(dir);
        if (failDirectorySync) {
            failedSyncs.incrementAndGet();
            throw new IOException("Input/output error (simulated directory fsync failure)");
        }
        directorySyncs.incrementAndGet();
        durableNames.removeIf(p -> dir.equals(p.getParent()));
        for (Path p : live.keySet()) {
            if (dir.equals(p.getParent())) {
                durableNames.add(p);
            }
        }
        unlinked.keySet().removeIf(p -> dir.equals(p.getParent()));
    }

    private void checkSync(boolean directory) throws IOException {
        if (directory ? failDirectorySync : failFileSync) {
            failedSyncs.incrementAndGet();
            throw new IOException("Input/output error (simulated fsync failure)");
        }
    }

    private Node node(Path path) throws IOException {
        Node n = live.get(path);
        if (n == null) {
            throw new NoSuchFileException(path.toString());
        }
        return n;
    }

    private void requireDirectory(Path dir) throws IOException {
        if (!directories.contains(dir)) {
            throw new NoSuchFileException(String.valueOf(dir));
        }
    }

    private final class Handle implements WritableFile {
        private final Path path;
        private final Node node;
        private final int gen;
        private long position;
        private boolean closed;

        Handle(Path path, Node node, long position, int gen) {
            this.path = path;
            this.node = node;
            this.position = position;
            this.gen = gen;
        }

        private void check() throws IOException {
            if (closed) {
                throw new ClosedChannelException();
            }
            running();
            if (gen != generation) {
                throw new IOException("stale handle after power loss");
            }
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            synchronized (SimulatedFileIO.this) {
                check();
                int n = src.remaining();
                Random sw = shortWrites;
                if (sw != null && n > 1) {
                    int k = 1 + sw.nextInt(n);
                    if (k < n) {
                        shortWriteCount.incrementAndGet();
                    }
                    n = k;
                }
                long grows = Math.max(0, position + n - node.length);
                long free = free();
                if (grows > free) {
                    if (free <= 0) {
                        noSpaceErrors.incrementAndGet();
                        throw new IOException("No space left on device");
                    }
                    n = (int) (n - (grows - free));
                }
                byte[] bytes = new byte[n];
                src.get(bytes);
                node.write(position, bytes);
                position += n;
                return n;
            }
        }

        @Override
        public int writeAt(ByteBuffer src, long at) throws IOException {
            synchronized (SimulatedFileIO.this) {
                check();
                if (at + src.remaining() > node.length) {
                    throw new IOException("positional write past the end [path=" + path + "]"); // only patches are modelled
                }
                byte[] bytes = new byte[src.remaining()];
                src.get(bytes);
                node.write(at, bytes);
                return bytes.length;
            }
        }

        @Override
        public boolean preallocate(long size) throws IOException {
            synchronized (SimulatedFileIO.this) {
                check();
                long grows = size - node.length;
                if (grows <= 0) {
                    return true;
                }
                long free = free();
                int n = (int) Math.min(grows, Math.max(0, free));
                if (n > 0) {
                    // one unsynced write of zeros at the end: a power loss may drop, keep or tear it
                    node.write(node.length, new byte[n]);
                }
                if (n < grows) {
                    noSpaceErrors.incrementAndGet();
                    throw new IOException("No space left on device");
                }
                preallocations.incrementAndGet();
                return true;
            }
        }

        @Override
        public void sync() throws IOException {
            syncHook.run();
            synchronized (SimulatedFileIO.this) {
                check();
                checkSync(false);
                node.unsynced.clear();
                syncs.incrementAndGet();
            }
        }

        @Override
        public void truncate(long size) throws IOException {
            synchronized (SimulatedFileIO.this) {
                check();
                node.truncate(size);
                position = size;
            }
        }

        @Override
        public long position() throws IOException {
            synchronized (SimulatedFileIO.this) {
                check();
                return position;
            }
        }

        @Override
        public Path path() {
            return path;
        }

        @Override
        public void close() {
            synchronized (SimulatedFileIO.this) {
                closed = true;
            }
        }
    }
}
