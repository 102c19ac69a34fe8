package io.chronix.engine.compaction;

import io.chronix.engine.segment.SegmentFile;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Deletes the files of segments that left the catalog once no scan that might still read them is
 * running. A scan takes its list of segments from the metadata cache and opens each file only when
 * it gets to it, so a file removed between the two would break it; an already open reader is safe
 * (on Linux an unlinked file stays readable through its descriptor).
 *
 * <p>Epochs: {@link #enter()} hands a scan the current epoch before it looks at the metadata cache;
 * {@link #retire} is called after the cache no longer lists the files, records them under the
 * current epoch and starts the next. Files retired at epoch E are deleted when no scan holding a
 * ticket ≤ E is left — at once if none is running, else by the last such scan's {@link #exit}.
 * A crash before that leaves orphan files, which the next open deletes.
 *
 * <p>Threading: thread-safe; deletion runs outside the monitor on the thread that made it due.
 */
public final class SegmentReclaimer {

    private static final System.Logger LOG = System.getLogger(SegmentReclaimer.class.getName());

    private final Consumer<SegmentFile> delete;
    private final TreeMap<Long, Integer> running = new TreeMap<>();
    private final List<Pending> pending = new ArrayList<>();
    private long epoch;

    private record Pending(long epoch, List<SegmentFile> files) {
    }

    /** @param delete deletes one segment's files (segment and sidecar) */
    public SegmentReclaimer(Consumer<SegmentFile> delete) {
        this.delete = delete;
    }

    /** A scan begins; pass the ticket to {@link #exit} when it ends (in a {@code finally}). */
    public synchronized long enter() {
        running.merge(epoch, 1, Integer::sum);
        return epoch;
    }

    /** A scan ended. */
    public void exit(long ticket) {
        List<SegmentFile> due;
        synchronized (this) {
            Integer n = running.get(ticket);
            assert n != null : "exit without enter";
            if (n == 1) {
                running.remove(ticket);
            } else {
                running.put(ticket, n - 1);
            }
            due = takeDue();
        }
        deleteAll(due);
    }

    /** The files of segments the metadata cache no longer lists: deleted as soon as no earlier scan runs. */
    public void retire(List<SegmentFile> files) {
        List<SegmentFile> due;
        synchronized (this) {
            pending.add(new Pending(epoch, List.copyOf(files)));
            epoch++;
            due = takeDue();
        }
        deleteAll(due);
    }

    /** Files retired but not deleted yet. */
    public synchronized int pendingFiles() {
        return pending.stream().mapToInt(p -> p.files().size()).sum();
    }

    /** Deletes everything pending regardless of scans (the engine is closing). */
    public void drain() {
        List<SegmentFile> all = new ArrayList<>();
        synchronized (this) {
            pending.forEach(p -> all.addAll(p.files()));
            pending.clear();
        }
        deleteAll(all);
    }

    private List<SegmentFile> takeDue() {
        long oldest = running.isEmpty() ? Long.MAX_VALUE : running.firstKey();
        List<SegmentFile> due = new ArrayList<>();
        for (Iterator<Pending> it = pending.iterator(); it.hasNext(); ) {
            Pending p = it.next();
            if (p.epoch() < oldest) {
                due.addAll(p.files());
                it.remove();
            }
        }
        return due;
    }

    private void deleteAll(List<SegmentFile> files) {
        for (SegmentFile f : files) {
            try {
                delete.accept(f);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "could not delete a replaced segment; the next open removes it [file=" + f + "]", e);
            }
        }
    }
}
