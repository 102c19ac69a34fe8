package io.chronix.engine.wal;

import io.chronix.engine.error.DiskFullException;
import io.chronix.engine.error.WalIoException;
import io.chronix.engine.error.WalPoisonedException;
import io.chronix.engine.io.FileIO;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.zip.CRC32C;

/**
 * The one writer of WAL files: frames records, assigns sequence numbers, rotates files, and makes
 * records durable under the configured {@link FsyncPolicy}, sharing fsyncs between concurrent
 * callers (group commit).
 *
 * <h2>Write path</h2>
 * LZ4 compression, when enabled, runs on the caller's thread before the lock. Under the write lock
 * the writer assigns sequences, frames each record into a direct 64 KiB buffer computing the CRC-32C
 * incrementally over the frame fields and the payload as they sit (no per-record allocation), and
 * hands the buffer to the kernel before releasing the lock: one write per call, or per buffer-full
 * in a large batch. So under every policy an acknowledged record has reached the kernel, and a
 * process crash loses nothing acknowledged.
 *
 * <h2>Group commit</h2>
 * A durable append, after writing, waits for {@link #durableSequence()} to reach its sequence. If no
 * sync is running it becomes the leader: it notes the highest written sequence, forces the file
 * <em>outside</em> the write lock (so others keep appending and form the next group) and publishes
 * the new durable sequence. Every other caller queues a {@link Waiter} and parks. When the fsync
 * returns, the leader, in one short critical section, takes every waiter it covered off the queue
 * and, if anyone is left (they appended during the fsync), hands leadership straight to the oldest
 * of them; outside the lock it unparks the new leader first and then each covered waiter exactly
 * once. So the next fsync starts as soon as the new leader runs, and no follower has to re-acquire a
 * lock to learn that it is done (a {@code Condition.signalAll} would move every waiter through the
 * lock's queue one at a time: a convoy of context switches on a busy machine). A waiter parks for at
 * most {@link WalConfig#groupCommitTimeout()}; one whose wait times out syncs for itself, so a stuck
 * leader cannot hang the log.
 *
 * <h2>Faults</h2>
 * <ul>
 *   <li>A failed fsync <b>poisons</b> the writer: waiting and later appends fail with {@link
 *       WalPoisonedException}, {@link #isHealthy()} turns false, and only a reopen (which replays what
 *       is really on disk) clears it. After a failed fsync the kernel may have dropped the dirty pages
 *       and cleared the error, so no later success would prove anything. Before that reopen, {@link
 *       #discardUnsynced} cuts the active file back to the end of what fsyncs covered, so the reopen
 *       replays neither unacknowledged records the page cache still shows nor a tail a crash would
 *       later tear in front of newer records.
 *   <li>A failed write (a full disk, an I/O error) fails only the call that made it: the file is cut
 *       back to the call's first byte and the sequences are reused, so the log stays a clean run of
 *       whole records and accepts appends again once space returns.
 *   <li>Short writes are continued until the bytes are all written.
 * </ul>
 *
 * <h2>Preallocation</h2>
 * The active file is kept extended past the records by written zeros, each extension as large as
 * the file already is (at least 16 KiB, at most {@link WalConfig#preallocation()}), so most fsyncs
 * write data only and commit no size change while a quiet namespace's log stays small; rotation and
 * a clean close trim the zeros, recovery trims a crash's. See {@code docs/format/wal.md}.
 *
 * <h2>Rotation</h2>
 * Before a call whose records would take the active file past {@link WalConfig#maxFileSize()}, the
 * active file is fsynced (so only the last file of a log can ever have a torn tail), then a new file
 * named after the next sequence is created, given its header, fsynced, and the directory fsynced;
 * creation fails if that directory fsync does. A call's records never straddle two files.
 *
 * <p>Threading: all methods are thread-safe. Lock order: write lock, then sync lock.
 */
public final class WalWriter implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(WalWriter.class.getName());
    private static final int MAX_ZERO_WRITES = 16;
    /** Pacing waits for writers that are about to append, which takes microseconds, not a stalled device's seconds. */
    private static final long MAX_PACING_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    private final WalConfig config;
    private final FileIO io;
    private final Path dir;
    private final FsyncPolicy policy;
    private final WalMetrics metrics;
    private final long groupCommitTimeoutNanos;

    // guarded by writeLock
    private final ReentrantLock writeLock = new ReentrantLock();
    private final ByteBuffer buffer;
    private final CRC32C crc = new CRC32C();
    private final List<FileEntry> files = new ArrayList<>();
    private ActiveFile active;
    private long position;
    /** The active file's length as this writer made it: {@code position} plus the zeros ahead of it. */
    private long preallocatedEnd;
    private boolean preallocationSupported = true;
    private long nextSequence;
    // written under writeLock; volatile so a leader can read them without queueing behind appenders
    private volatile ActiveFile activeView;
    private volatile long writtenSequence;
    private volatile boolean closed;

    // guarded by syncLock (the volatile fields are written under it and read without it)
    private final ReentrantLock syncLock = new ReentrantLock();
    private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
    /** Threads running a group-commit fsync: normally 0 or 1, more only after a timed-out promotion. */
    private int leaders;
    /** Callers the last group released (its leader and the waiters it covered): who will be back soon. */
    private int released;
    /** Callers queued since the last hand-off; volatile so a pacing leader can poll it. */
    private volatile int arrivals;
    /** A handed-off leader waiting for the released callers to append again, or null. */
    private Thread pacer;
    private volatile long lastSyncNanos;
    private volatile long syncedSequence;
    private volatile WalPoisonedException poison;
    /** {@link #discardUnsynced} cut the poisoned log back (guarded by writeLock). */
    private boolean discarded;
    private volatile ScheduledFuture<?> periodicSync;

    private record FileEntry(Path path, long startSequence) {
    }

    /**
     * A caller parked until its sequence is durable. The thread that changes {@code state} (under
     * syncLock) unparks it afterwards; the waiter itself only reads it.
     */
    private static final class Waiter {
        static final int WAITING = 0;
        static final int DONE = 1;
        static final int LEAD = 2;

        final long sequence;
        final Thread thread = Thread.currentThread();
        volatile int state = WAITING;

        Waiter(long sequence) {
            this.sequence = sequence;
        }
    }

    /**
     * The file appends go to. {@code syncedAndClosed} lets a leader whose file was rotated away tell
     * success from failure. {@code writtenEnd} is the end of the last whole call written to it (set
     * before {@link #writtenSequence}, so a leader that reads the sequence first and then this finds
     * the records it syncs below it); {@code durableEnd} is the end of what a successful fsync
     * covered — after a failed one, {@link #discardUnsynced} cuts the file back to it.
     */
    private static final class ActiveFile {
        final FileIO.WritableFile file;
        volatile boolean syncedAndClosed;
        volatile long writtenEnd;
        final java.util.concurrent.atomic.AtomicLong durableEnd = new java.util.concurrent.atomic.AtomicLong();

        ActiveFile(FileIO.WritableFile file) {
            this.file = file;
        }

        /** Bytes up to {@code end} are on the device. */
        void durableTo(long end) {
            durableEnd.accumulateAndGet(end, Math::max);
        }
    }

    private WalWriter(WalConfig config, WalMetrics metrics, WalLoader.Recovered recovered) {
        this.config = config;
        this.io = config.io();
        this.dir = config.directory();
        this.policy = config.fsyncPolicy();
        this.metrics = metrics;
        this.groupCommitTimeoutNanos = config.groupCommitTimeout().toNanos();
        this.buffer = ByteBuffer.allocateDirect(config.bufferSize()).order(ByteOrder.LITTLE_ENDIAN);
        for (Path p : recovered.files()) {
            files.add(new FileEntry(p, WalFormat.startSequenceOf(p.getFileName().toString())));
        }
        long last = recovered.lastSequence();
        if (files.isEmpty()) {
            nextSequence = Math.max(last + 1, WalFormat.FIRST_SEQUENCE);
            active = createFile(nextSequence);
            activeView = active;
            position = WalFormat.HEADER_SIZE;
            preallocatedEnd = position;
        } else {
            FileEntry tail = files.getLast();
            nextSequence = Math.max(last + 1, tail.startSequence());
            try {
                FileIO.WritableFile f = io.openAppend(tail.path());
                active = new ActiveFile(f);
                activeView = active;
                position = f.position();
                // recovery cut any zero tail, so the file ends at its last record
                preallocatedEnd = position;
                // what recovery found may sit only in the page cache of a process that crashed;
                // make it as durable as anything this writer will acknowledge
                f.sync();
                active.writtenEnd = position;
                active.durableTo(position);
            } catch (IOException e) {
                closeQuietly(active);
                throw new WalIoException("open for append", tail.path(), -1, e);
            }
        }
        writtenSequence = nextSequence - 1;
        syncedSequence = writtenSequence;
    }

    /**
     * Recovers the log (see {@link WalLoader#load}), replaying records above {@code replayAfter} to
     * {@code visitor}, and opens it for appending after the last intact record.
     */
    public static WalWriter open(WalConfig config, WalMetrics metrics, long replayAfter, WalRecord.Visitor visitor) {
        WalLoader.Recovered recovered = WalLoader.load(config, metrics, replayAfter, visitor);
        return new WalWriter(config, metrics, recovered);
    }

    /** Recovers (verifying every record, replaying none) and opens the log. */
    public static WalWriter open(WalConfig config, WalMetrics metrics) {
        return open(config, metrics, Long.MAX_VALUE, r -> { });
    }

    // ---------------------------------------------------------------- appends

    /**
     * Appends one record and returns its sequence once its bytes are in the kernel; under {@code
     * PER_WRITE} also fsynced. Under the other policies it is not yet durable against power loss:
     * callers that acknowledge use {@link #appendDurable}.
     */
    public long append(WalRecordType type, ByteBuffer payload) {
        int code = typeCode(type);
        ByteBuffer body = prepare(payload);
        int flag = body == payload ? 0 : WalFormat.COMPRESSED_FLAG;
        writeLock.lock();
        try {
            ensureUsable();
            long frameBytes = WalFormat.FRAME_OVERHEAD + (long) body.remaining();
            rotateIfFull(frameBytes);
            preallocate(frameBytes);
            long startPosition = position;
            long firstSequence = nextSequence;
            long seq = nextSequence++;
            try {
                frame(code | flag, seq, body);
                flush();
            } catch (IOException e) {
                throw rollback(startPosition, firstSequence, e);
            }
            active.writtenEnd = position;
            writtenSequence = seq;
            metrics.appended(1, frameBytes);
            if (policy == FsyncPolicy.PER_WRITE) {
                syncActiveLocked(seq);
            }
            return seq;
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * Appends one record and returns once it is durable as the policy promises: fsynced under {@code
     * PER_WRITE} and {@code PER_BATCH} (sharing the fsync with concurrent callers), in the kernel
     * under {@code PERIODIC}.
     *
     * @throws WalPoisonedException if an fsync failed, now or earlier; the record is not acknowledged
     * @throws DiskFullException if the device is full; nothing of the record remains
     */
    public long appendDurable(WalRecordType type, ByteBuffer payload) {
        long seq = append(type, payload);
        if (policy == FsyncPolicy.PER_BATCH) {
            awaitDurable(seq);
        }
        return seq;
    }

    /**
     * Appends {@code payloads} as consecutive records of one type, all in one file, and makes them
     * durable as {@link #appendDurable} does: one shared fsync for the whole batch under {@code
     * PER_BATCH}, one per record under {@code PER_WRITE}. Either every record of the batch is
     * written or none is.
     *
     * @return the sequence of the last record; the first is {@code last - payloads.size() + 1}
     */
    public long appendBatch(WalRecordType type, List<ByteBuffer> payloads) {
        int n = payloads.size();
        if (n == 0) {
            throw new IllegalArgumentException("empty batch");
        }
        int code = typeCode(type);
        ByteBuffer[] bodies = new ByteBuffer[n];
        long totalBytes = 0;
        for (int i = 0; i < n; i++) {
            bodies[i] = prepare(payloads.get(i));
            totalBytes += WalFormat.FRAME_OVERHEAD + (long) bodies[i].remaining();
        }
        long last;
        writeLock.lock();
        try {
            ensureUsable();
            rotateIfFull(totalBytes);
            preallocate(totalBytes);
            long startPosition = position;
            long firstSequence = nextSequence;
            try {
                for (int i = 0; i < n; i++) {
                    long seq = nextSequence++;
                    frame(code | (bodies[i] == payloads.get(i) ? 0 : WalFormat.COMPRESSED_FLAG), seq, bodies[i]);
                    if (policy == FsyncPolicy.PER_WRITE) {
                        flush();
                        active.writtenEnd = position;
                        syncActiveLocked(seq);
                    }
                }
                flush();
            } catch (IOException e) {
                throw rollback(startPosition, firstSequence, e);
            }
            last = nextSequence - 1;
            active.writtenEnd = position;
            writtenSequence = last;
            metrics.appended(n, totalBytes);
        } finally {
            writeLock.unlock();
        }
        if (policy == FsyncPolicy.PER_BATCH) {
            awaitDurable(last);
        }
        return last;
    }

    /** Makes every record written so far durable, sharing the fsync with concurrent callers. */
    public void sync() {
        long target;
        writeLock.lock();
        try {
            ensureUsable();
            target = writtenSequence;
        } finally {
            writeLock.unlock();
        }
        awaitDurable(target);
    }

    /**
     * Starts the background sync of {@link FsyncPolicy#PERIODIC} on a scheduler the caller owns (the
     * engine owns no thread). Each run syncs whatever was written since the last one. Cancelled by
     * {@link #close()}.
     */
    public ScheduledFuture<?> startPeriodicSync(ScheduledExecutorService scheduler) {
        long nanos = config.fsyncInterval().toNanos();
        ScheduledFuture<?> f = scheduler.scheduleWithFixedDelay(this::periodicSync, nanos, nanos, TimeUnit.NANOSECONDS);
        periodicSync = f;
        return f;
    }

    private void periodicSync() {
        if (poison != null || closed || syncedSequence >= writtenSequence) {
            return;
        }
        try {
            sync();
        } catch (RuntimeException e) {
            // poisoned or closed: the failure is recorded on the writer; a scheduled task that threw
            // would silently stop being scheduled, so never let it escape
            LOG.log(Level.DEBUG, "periodic WAL sync skipped", e);
        }
    }

    // ---------------------------------------------------------------- group commit

    private void awaitDurable(long seq) {
        while (true) {
            Waiter me = null;
            Thread wakePacer = null;
            syncLock.lock();
            try {
                if (poison != null) {
                    throw new WalPoisonedException(dir, poison.getCause());
                }
                if (syncedSequence >= seq) {
                    return;
                }
                if (leaders == 0) {
                    leaders++;
                } else {
                    me = new Waiter(seq);
                    waiters.addLast(me);
                    arrivals++;
                    if (pacer != null && arrivals >= released) {
                        wakePacer = pacer;
                        pacer = null;
                    }
                }
            } finally {
                syncLock.unlock();
            }
            if (wakePacer != null) {
                LockSupport.unpark(wakePacer);
            }
            if (me == null) {
                lead();
            } else if (park(me)) {
                if (me.state == Waiter.LEAD) {
                    pace(me);
                }
                lead();
            }
            // a leader or a woken waiter re-checks: poison, or (after close or promotion races) not yet
            // covered, in which case it takes another turn
        }
    }

    /**
     * Parks until a leader covered {@code me} or handed it the lead, or the group-commit timeout
     * passed. Returns true when the caller must now lead (counted in {@link #leaders}).
     */
    private boolean park(Waiter me) {
        long deadline = System.nanoTime() + groupCommitTimeoutNanos;
        while (me.state == Waiter.WAITING) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            LockSupport.parkNanos(this, left);
            if (Thread.interrupted()) {
                abandon(me);
            }
        }
        if (me.state != Waiter.WAITING) {
            return me.state == Waiter.LEAD;
        }
        syncLock.lock();
        try {
            if (me.state != Waiter.WAITING) {
                return me.state == Waiter.LEAD;
            }
            waiters.remove(me);
            if (syncedSequence >= me.sequence || poison != null) {
                return false;
            }
            leaders++;
        } finally {
            syncLock.unlock();
        }
        LOG.log(Level.WARNING, "WAL group commit: no sync within {0} ms, syncing without the leader [dir={1}]",
                TimeUnit.NANOSECONDS.toMillis(groupCommitTimeoutNanos), dir);
        return true;
    }

    /**
     * Leaves the queue on interrupt. A lead already handed to {@code me} is passed on rather than
     * taken: a channel operation on an interrupted thread would close the log's file.
     */
    private void abandon(Waiter me) {
        Waiter next = null;
        syncLock.lock();
        try {
            if (!waiters.remove(me) && me.state == Waiter.LEAD) {
                leaders--;
                next = handOffLocked();
            }
        } finally {
            syncLock.unlock();
        }
        if (next != null) {
            LockSupport.unpark(next.thread);
        }
        Thread.currentThread().interrupt();
        throw new WalIoException("wait for group commit (interrupted)", dir, -1, new InterruptedException());
    }

    /**
     * A handed-off leader's short wait before its fsync, so the group it syncs includes the callers
     * the previous group just released. Without it, the writers split into two cohorts that take
     * turns, each half the size: those released by one fsync append while the next (already
     * started) fsync runs, and so wait for the one after it. Waits until as many callers have queued
     * since the hand-off as the last group released, or half the last fsync's duration, whichever
     * comes first, and never more than {@link #MAX_PACING_NANOS}: so it costs at most half an fsync
     * of latency, and nothing when the writers are few (the count is reached at once) or gone (the
     * bound). The cap keeps one stalled fsync from making the next group wait as long.
     */
    private void pace(Waiter me) {
        long bound = Math.min(lastSyncNanos / 2, MAX_PACING_NANOS);
        if (bound <= 0 || arrivals >= released) {
            return;
        }
        long deadline = System.nanoTime() + bound;
        syncLock.lock();
        try {
            if (arrivals >= released) {
                return;
            }
            pacer = me.thread;
        } finally {
            syncLock.unlock();
        }
        boolean interrupted = false;
        while (arrivals < released && poison == null) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            LockSupport.parkNanos(this, left);
            if (Thread.interrupted()) {
                interrupted = true;
                break;
            }
        }
        syncLock.lock();
        try {
            if (pacer == me.thread) {
                pacer = null;
            }
        } finally {
            syncLock.unlock();
        }
        if (interrupted) {
            abandon(me);
        }
    }

    /** One group's fsync by a thread counted in {@link #leaders}; always gives the lead back or on. */
    private void lead() {
        long target = -1;
        try {
            target = leaderSync();
        } finally {
            finishGroup(target);
        }
    }

    /**
     * Forces the active file and returns the sequence now durable, or -1 if there was nothing to do
     * (poisoned, or already covered). Throws, having poisoned the log, if the fsync failed.
     */
    private long leaderSync() {
        if (poison != null) {
            return -1;
        }
        // target before file: records up to target are in this file or in one rotated away before it,
        // which rotation fsynced before making the next file active
        long target = writtenSequence;
        ActiveFile file = activeView;
        long end = file.writtenEnd; // after target: covers target's records if they are in this file
        if (target <= syncedSequence) {
            return -1;
        }
        if (closed) {
            // close() syncs everything written; wait for it rather than race it
            writeLock.lock();
            try {
                if (poison == null && syncedSequence < target) {
                    throw new IllegalStateException("WAL closed [dir=" + dir + "]");
                }
            } finally {
                writeLock.unlock();
            }
            return -1;
        }
        try {
            // outside the write lock: appends continue and gather behind the next leader
            long began = System.nanoTime();
            file.file.sync();
            file.durableTo(end);
            long took = System.nanoTime() - began;
            lastSyncNanos = took;
            metrics.groupSynced(took);
        } catch (IOException e) {
            if (!file.syncedAndClosed) {
                throw poison(e);
            }
            // rotated or closed meanwhile, and fsynced before that, so target is durable
        }
        return target;
    }

    /**
     * The end of a leader's turn: publishes {@code target} (if positive), takes every covered waiter
     * off the queue, hands the lead to the oldest one left, and then unparks them, the new leader
     * first. One lock acquisition and one unpark per waiter per group.
     */
    private void finishGroup(long target) {
        Waiter[] wake;
        Waiter next;
        syncLock.lock();
        try {
            leaders--;
            if (target > syncedSequence) {
                syncedSequence = target;
            }
            wake = takeCoveredLocked();
            next = handOffLocked();
            if (next != null) {
                released = wake.length + 1;
                arrivals = 0;
            }
        } finally {
            syncLock.unlock();
        }
        if (next != null) {
            // first, so the next fsync starts while the covered writers wake and append again
            LockSupport.unpark(next.thread);
        }
        unpark(wake);
    }

    /**
     * Gives the lead to the oldest waiter if no one leads and someone waits; returns it (to unpark
     * once the lock is released) or null.
     */
    private Waiter handOffLocked() {
        assert syncLock.isHeldByCurrentThread();
        if (leaders != 0 || poison != null || waiters.isEmpty()) {
            return null;
        }
        Waiter next = waiters.pollFirst();
        leaders++;
        next.state = Waiter.LEAD;
        return next;
    }

    /** Removes and marks done every waiter at or below the durable sequence (all of them when poisoned or closed). */
    private Waiter[] takeCoveredLocked() {
        assert syncLock.isHeldByCurrentThread();
        if (waiters.isEmpty()) {
            return NO_WAITERS;
        }
        boolean all = poison != null || closed;
        long synced = syncedSequence;
        int n = 0;
        for (Waiter w : waiters) {
            if (all || w.sequence <= synced) {
                n++;
            }
        }
        if (n == 0) {
            return NO_WAITERS;
        }
        Waiter[] done = new Waiter[n];
        int i = 0;
        for (var it = waiters.iterator(); it.hasNext(); ) {
            Waiter w = it.next();
            if (all || w.sequence <= synced) {
                it.remove();
                w.state = Waiter.DONE;
                done[i++] = w;
            }
        }
        return done;
    }

    private static final Waiter[] NO_WAITERS = new Waiter[0];

    private static void unpark(Waiter[] wake) {
        for (Waiter w : wake) {
            LockSupport.unpark(w.thread);
        }
    }

    /** Publishes a durable sequence reached outside group commit (PER_WRITE, rotation, close) and wakes whom it covers. */
    private void markSynced(long target) {
        Waiter[] wake;
        syncLock.lock();
        try {
            if (target > syncedSequence) {
                syncedSequence = target;
            }
            wake = takeCoveredLocked();
        } finally {
            syncLock.unlock();
        }
        unpark(wake);
    }

    private WalPoisonedException poison(Throwable cause) {
        Waiter[] wake;
        syncLock.lock();
        try {
            if (poison == null) {
                poison = new WalPoisonedException(dir, cause);
                metrics.syncFailed();
                LOG.log(Level.ERROR, "WAL fsync failed; refusing all appends until reopened [dir=" + dir + "]", cause);
            }
            wake = takeCoveredLocked();
        } finally {
            syncLock.unlock();
        }
        unpark(wake);
        return new WalPoisonedException(dir, cause);
    }

    // ---------------------------------------------------------------- framing (under writeLock)

    private void frame(int typeByte, long seq, ByteBuffer body) throws IOException {
        assert writeLock.isHeldByCurrentThread();
        int length = body.remaining();
        if (buffer.remaining() < WalFormat.FRAME_OVERHEAD) {
            flush();
        }
        int start = buffer.position();
        buffer.putInt(0)
                .putInt(length)
                .putLong(seq)
                .put((byte) typeByte)
                .put((byte) WalFormat.PAYLOAD_VERSION);
        crc.reset();
        int limit = buffer.limit();
        buffer.limit(start + WalFormat.FRAME_OVERHEAD).position(start + WalFormat.CRC_COVERAGE_OFFSET);
        crc.update(buffer);
        buffer.limit(limit);
        int bodyStart = body.position();
        crc.update(body);
        body.position(bodyStart);
        buffer.putInt(start + WalFormat.CRC_OFFSET, (int) crc.getValue());
        if (length <= buffer.remaining()) {
            buffer.put(buffer.position(), body, bodyStart, length);
            buffer.position(buffer.position() + length);
        } else {
            flush();
            try {
                writeFully(body);
            } finally {
                body.position(bodyStart);
            }
        }
    }

    private void flush() throws IOException {
        buffer.flip();
        try {
            writeFully(buffer);
        } finally {
            buffer.clear();
        }
    }

    private void writeFully(ByteBuffer src) throws IOException {
        int zeroWrites = 0;
        while (src.hasRemaining()) {
            int n = active.file.write(src);
            position += n;
            if (n == 0 && ++zeroWrites > MAX_ZERO_WRITES) {
                throw new IOException("write makes no progress");
            }
        }
    }

    /** Undoes a call whose write failed; returns the exception to throw. */
    private RuntimeException rollback(long startPosition, long firstSequence, IOException cause) {
        buffer.clear();
        nextSequence = firstSequence;
        metrics.writeFailed();
        Path path = active.file.path();
        try {
            active.file.truncate(startPosition);
            position = startPosition;
            preallocatedEnd = startPosition;
            // durable, so a power loss cannot bring back half of what this call wrote next to what
            // the next call writes at the same offsets
            active.file.sync();
            // the file now ends here, all of it synced (a PER_WRITE batch may have marked more before it failed)
            active.writtenEnd = startPosition;
            active.durableEnd.set(startPosition);
        } catch (IOException e) {
            cause.addSuppressed(e);
            return poison(e);
        }
        // a PER_WRITE batch may have marked some of its own records synced before failing; those
        // sequences are about to be reused, and everything below them was just fsynced
        syncLock.lock();
        try {
            syncedSequence = firstSequence - 1;
        } finally {
            syncLock.unlock();
        }
        if (isNoSpace(cause)) {
            LOG.log(Level.WARNING, "WAL append failed: no space left on device [path={0}, offset={1}]", path, startPosition);
            return new DiskFullException(path, startPosition, cause);
        }
        return new WalIoException("write", path, startPosition, cause);
    }

    private static boolean isNoSpace(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String m = t.getMessage();
            if (m != null && (m.contains("No space left on device") || m.contains("ENOSPC"))) {
                return true;
            }
        }
        return false;
    }

    private void syncActiveLocked(long target) {
        assert writeLock.isHeldByCurrentThread();
        try {
            active.file.sync();
            metrics.synced();
        } catch (IOException e) {
            throw poison(e);
        }
        active.durableTo(position);
        markSynced(target);
    }

    // ---------------------------------------------------------------- files (under writeLock)

    private void rotateIfFull(long callBytes) {
        if (position > WalFormat.HEADER_SIZE && position + callBytes > config.maxFileSize()) {
            rotate();
        }
    }

    private void rotate() {
        assert writeLock.isHeldByCurrentThread();
        trimPreallocation();
        syncActiveLocked(writtenSequence);
        ActiveFile next = createFile(nextSequence);
        ActiveFile old = active;
        old.syncedAndClosed = true;
        closeQuietly(old);
        active = next;
        activeView = next;
        position = WalFormat.HEADER_SIZE;
        preallocatedEnd = position;
    }

    /**
     * Makes sure the bytes of a call starting at {@code position} land on zeros written earlier, by
     * extending the file {@link #extent} bytes past the call's end (never past
     * {@code maxFileSize}). The zeros' own size change is committed by the next fsync, once per
     * extent; every other fsync then only writes data. A failure (a full disk) is not the call's:
     * the partial zeros are cut and the call appends as it would without preallocation, failing or
     * not on its own bytes. A reader takes zeros at a record boundary as the end of the records.
     */
    private void preallocate(long callBytes) {
        assert writeLock.isHeldByCurrentThread();
        long needed = position + callBytes;
        if (config.preallocation() == 0 || !preallocationSupported || needed <= preallocatedEnd) {
            return;
        }
        long extent = extent(needed, config.preallocation());
        long target = Math.min(config.maxFileSize(), needed + extent);
        if (target < needed) {
            return; // a single call larger than a file: it grows the file itself
        }
        try {
            if (!active.file.preallocate(target)) {
                preallocationSupported = false;
                return;
            }
            preallocatedEnd = target;
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "WAL preallocation failed; appending without it [path={0}, size={1}]", active.file.path(), target);
            try {
                active.file.truncate(position);
            } catch (IOException cut) {
                // zeros past the records are read as the end of the log; the next extension overwrites them
                e.addSuppressed(cut);
            }
            preallocatedEnd = position;
        }
    }

    /** The smallest extension, and all a file of a few records is given ({@link #extent}). */
    static final long MIN_EXTENT = 16 * 1024;

    /**
     * The zeros to add past a file that will hold {@code fileBytes}: as many as the file already
     * holds, at least {@link #MIN_EXTENT}, at most {@code max} — the file doubles, as a growing
     * array does. So a namespace that writes a few points keeps a WAL of kilobytes, not an extent
     * of {@code max} (issue 47), while a busy one reaches whole extents after a few of them and
     * commits a size change once per extent as before; the zeros never exceed the records by more
     * than {@code MIN_EXTENT}.
     */
    static long extent(long fileBytes, long max) {
        return Math.min(max, Math.max(MIN_EXTENT, fileBytes));
    }

    /** Zeros past the last record of the active file: disk the records do not use yet. */
    public long preallocatedBytes() {
        writeLock.lock();
        try {
            return Math.max(0, preallocatedEnd - position);
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * Cuts the zeros past the last record of a file about to be rotated away, before its final fsync:
     * a finished file is exactly its records. If the cut is lost, the zeros are still read as the end.
     */
    private void trimPreallocation() {
        if (preallocatedEnd <= position) {
            return;
        }
        try {
            active.file.truncate(position);
            preallocatedEnd = position;
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "WAL: could not trim the preallocated tail [path={0}]", active.file.path());
        }
    }

    private ActiveFile createFile(long startSequence) {
        Path path = dir.resolve(WalFormat.fileName(startSequence));
        FileIO.WritableFile f;
        try {
            f = io.create(path);
        } catch (IOException e) {
            throw isNoSpace(e) ? new DiskFullException(path, 0, e) : new WalIoException("create", path, 0, e);
        }
        ActiveFile created = new ActiveFile(f);
        try {
            ByteBuffer header = ByteBuffer.allocate(WalFormat.HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
            header.put(WalFormat.MAGIC).putShort((short) WalFormat.VERSION).flip();
            int zeroWrites = 0;
            while (header.hasRemaining()) {
                if (f.write(header) == 0 && ++zeroWrites > MAX_ZERO_WRITES) {
                    throw new IOException("write makes no progress");
                }
            }
        } catch (IOException e) {
            discard(created, path);
            throw isNoSpace(e) ? new DiskFullException(path, 0, e) : new WalIoException("write header", path, 0, e);
        }
        try {
            f.sync();
            io.syncDirectory(dir);
        } catch (IOException e) {
            discard(created, path);
            throw poison(e);
        }
        created.writtenEnd = WalFormat.HEADER_SIZE;
        created.durableTo(WalFormat.HEADER_SIZE);
        files.add(new FileEntry(path, startSequence));
        return created;
    }

    private void discard(ActiveFile file, Path path) {
        closeQuietly(file);
        try {
            io.delete(path);
        } catch (IOException ignored) {
            // a header-only or partial file is removed by the next open's recovery anyway
        }
    }

    /**
     * Deletes the files whose every record has a sequence at or below {@code seq}, oldest first. The
     * active file is never deleted. Idempotent; safe at any time. The caller's invariant: only call
     * it once everything up to {@code seq} is durable elsewhere (every shard flushed).
     *
     * <p>When {@code seq} covers every record written and the active file holds any, the log first
     * rolls over to a new, empty file, so that the old one can go now rather than when it fills: a
     * flush that leaves nothing in memory would otherwise keep up to {@code maxFileSize} of records
     * that replay would skip, on disk until the next rotation (51 MB of log beside 3.6 MB of
     * segments, measured after loading a day of 100 hosts).
     *
     * @return how many files were deleted
     */
    public int truncateBefore(long seq) {
        writeLock.lock();
        try {
            if (seq >= writtenSequence && position > WalFormat.HEADER_SIZE && poison == null && !closed) {
                rotate();
            }
            int removed = 0;
            // a file's highest sequence is one below the next file's first
            while (files.size() > 1 && files.get(1).startSequence() - 1 <= seq) {
                Path doomed = files.getFirst().path();
                try {
                    io.delete(doomed);
                } catch (IOException e) {
                    throw new WalIoException("delete", doomed, -1, e);
                }
                files.removeFirst();
                removed++;
            }
            if (removed > 0) {
                try {
                    io.syncDirectory(dir);
                } catch (IOException e) {
                    // the deletes may come back after a power loss; replay skips what they hold
                    throw new WalIoException("sync directory after truncation", dir, -1, e);
                }
            }
            return removed;
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * After a failed fsync: cuts the active file back to the end of the last record a successful
     * fsync covered, and makes the cut durable. The records after it were never acknowledged under
     * {@code PER_WRITE} and {@code PER_BATCH}; under {@code PERIODIC} some were (they are in the
     * engine's memtables: flush those first). Their bytes may be in the page cache and not on the
     * device — after a failed fsync the kernel may have marked them clean — so a reopen that
     * replayed the file as read back could bring back records nobody was told were stored, and,
     * worse, put acknowledged records behind a tail that a crash later turns into a hole. Once cut,
     * the file holds exactly what was synced, on the device and in the cache alike. The log stays
     * poisoned: close it and open it again (which replays the file) to append.
     *
     * @return true if the log now holds only what fsyncs covered (also when it was never poisoned);
     *     false if the cut or its fsync failed (the device still fails: try again later) or the log is closed
     */
    public boolean discardUnsynced() {
        writeLock.lock();
        try {
            if (poison == null || discarded) {
                return true; // appends are refused once poisoned: a cut made stays made
            }
            if (closed) {
                return false;
            }
            long keep = active.durableEnd.get();
            long dropped = position - keep;
            try {
                active.file.truncate(keep);
                active.file.sync();
            } catch (IOException e) {
                LOG.log(Level.WARNING, "WAL: cannot cut the log back to its last synced record yet [path={0}, offset={1}]: {2}",
                        active.file.path(), keep, e.toString());
                return false;
            }
            position = keep;
            preallocatedEnd = keep;
            active.writtenEnd = keep;
            discarded = true;
            LOG.log(Level.WARNING, "WAL cut back to its last synced record after a failed fsync [path={0}, offset={1}, droppedBytes={2}]",
                    active.file.path(), keep, dropped);
            return true;
        } finally {
            writeLock.unlock();
        }
    }

    // ---------------------------------------------------------------- state

    /** The highest sequence written (handed to the kernel); 0 if none ever was. */
    public long lastSequence() {
        writeLock.lock();
        try {
            return writtenSequence;
        } finally {
            writeLock.unlock();
        }
    }

    /** The highest sequence known to be fsynced. */
    public long durableSequence() {
        return syncedSequence;
    }

    /** False once an fsync failed (until reopened) or after close. */
    public boolean isHealthy() {
        return poison == null && !closed;
    }

    /** The fsync failure that poisoned the log, if one did. */
    public Optional<WalPoisonedException> failure() {
        return Optional.ofNullable(poison);
    }

    /** Files of the log, from the writer's cache (no directory listing). */
    public int fileCount() {
        writeLock.lock();
        try {
            return files.size();
        } finally {
            writeLock.unlock();
        }
    }

    public Path activeFile() {
        writeLock.lock();
        try {
            return active.file.path();
        } finally {
            writeLock.unlock();
        }
    }

    public WalMetrics metrics() {
        return metrics;
    }

    public WalConfig config() {
        return config;
    }

    /**
     * Syncs what was written (unless poisoned) and closes the active file. Idempotent. Callers still
     * waiting on a group commit are released: their records were covered by the final sync.
     */
    @Override
    public void close() {
        writeLock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            ScheduledFuture<?> p = periodicSync;
            if (p != null) {
                p.cancel(false);
            }
            if (poison == null) {
                // a cleanly closed file is exactly its records; only a crash leaves a zero tail
                trimPreallocation();
                try {
                    active.file.sync();
                    metrics.synced();
                    active.durableTo(position);
                    active.syncedAndClosed = true;
                    markSynced(writtenSequence);
                } catch (IOException e) {
                    poison(e);
                }
            }
            closeQuietly(active);
        } finally {
            writeLock.unlock();
        }
        markSynced(-1);
    }

    private void ensureUsable() {
        if (poison != null) {
            throw new WalPoisonedException(dir, poison.getCause());
        }
        if (closed) {
            throw new IllegalStateException("WAL closed [dir=" + dir + "]");
        }
    }

    private static int typeCode(WalRecordType type) {
        return type.code();
    }

    /** The body to store: the payload itself, or (compression on, and it pays) its LZ4 envelope. */
    private ByteBuffer prepare(ByteBuffer payload) {
        int length = payload.remaining();
        if (length > WalFormat.MAX_PAYLOAD_LENGTH) {
            throw new IllegalArgumentException("payload of " + length + " bytes exceeds " + WalFormat.MAX_PAYLOAD_LENGTH);
        }
        if (!config.compression() || length < 64) {
            return payload;
        }
        int bound = Lz4.COMPRESSOR.maxCompressedLength(length);
        ByteBuffer out = ByteBuffer.allocate(WalFormat.COMPRESSED_LENGTH_SIZE + bound).order(ByteOrder.LITTLE_ENDIAN);
        out.putInt(length);
        int n = Lz4.COMPRESSOR.compress(payload, payload.position(), length, out, WalFormat.COMPRESSED_LENGTH_SIZE, bound);
        if (WalFormat.COMPRESSED_LENGTH_SIZE + n >= length) {
            return payload;
        }
        return out.position(0).limit(WalFormat.COMPRESSED_LENGTH_SIZE + n);
    }

    private static void closeQuietly(ActiveFile f) {
        if (f == null) {
            return;
        }
        try {
            f.file.close();
        } catch (IOException ignored) {
            // the bytes were synced or the log is poisoned; nothing to add
        }
    }
}
