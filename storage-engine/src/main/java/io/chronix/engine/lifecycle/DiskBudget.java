package io.chronix.engine.lifecycle;

import io.chronix.engine.catalog.SegmentEntry;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A byte budget for the segments of every engine of a process (seed 003 "Retention": the disk
 * budget is global). When the engines' segments together pass it, the oldest segments go first —
 * oldest by their newest point, across every engine — until usage is back under the budget.
 *
 * <p>Deleting a segment still inside its engine's retention window means the budget and the window
 * are in conflict; it is a WARN and counted ({@link #segmentsDeletedInsideRetention()}). Deletion
 * works in whole segments, so the budget is a soft ceiling: usage may pass it by up to one segment
 * (per flush) before the next pass catches up. Only segment files count (not the WAL, the catalog
 * or sidecars), and only the engines registered at the time of a pass (a service registers the
 * engines it has open).
 *
 * <p>Threading: thread-safe; passes are serialized.
 */
public final class DiskBudget {

    private static final System.Logger LOG = System.getLogger(DiskBudget.class.getName());

    /** One engine under the budget. */
    public interface Member {
        /** For the log: which namespace. */
        String name();

        /** Its live segments. */
        List<SegmentEntry> segments();

        /** The oldest timestamp its retention keeps (points before it are past retention); {@link Long#MIN_VALUE} without retention. */
        long retentionCutoff();

        /** Removes these segments (catalog first, then files); answers what went. */
        RetentionResult dropSegments(List<SegmentEntry> segments);
    }

    private final long budgetBytes;
    private final List<Member> members = new CopyOnWriteArrayList<>();
    private final AtomicLong segmentsDeleted = new AtomicLong();
    private final AtomicLong bytesFreed = new AtomicLong();
    private final AtomicLong insideRetention = new AtomicLong();

    /** @param budgetBytes the most segment bytes all members together may hold; positive */
    public DiskBudget(long budgetBytes) {
        if (budgetBytes <= 0) {
            throw new IllegalArgumentException("disk budget must be positive: " + budgetBytes);
        }
        this.budgetBytes = budgetBytes;
    }

    public long budgetBytes() {
        return budgetBytes;
    }

    /** Puts {@code m} under the budget until the returned handle is closed. */
    public AutoCloseable register(Member m) {
        members.add(m);
        return () -> members.remove(m);
    }

    /** Segment bytes of every member now. */
    public long usedBytes() {
        long n = 0;
        for (Member m : members) {
            for (SegmentEntry e : m.segments()) {
                n += e.sizeBytes();
            }
        }
        return n;
    }

    /** Drops the oldest segments across members until usage is within the budget; answers what went. */
    public synchronized RetentionResult enforce() {
        record Candidate(Member member, SegmentEntry segment) {
        }
        List<Candidate> all = new ArrayList<>();
        long used = 0;
        for (Member m : List.copyOf(members)) {
            for (SegmentEntry e : m.segments()) {
                all.add(new Candidate(m, e));
                used += e.sizeBytes();
            }
        }
        if (used <= budgetBytes) {
            return RetentionResult.NOTHING;
        }
        all.sort(Comparator.comparingLong((Candidate c) -> c.segment().maxTime()).thenComparingLong(c -> c.segment().minTime())
                .thenComparingLong(c -> c.segment().id()));
        Map<Member, List<SegmentEntry>> chosen = new IdentityHashMap<>();
        Map<Member, Long> cutoffs = new IdentityHashMap<>();
        long over = used - budgetBytes;
        int inside = 0;
        for (Candidate c : all) {
            if (over <= 0) {
                break;
            }
            chosen.computeIfAbsent(c.member(), k -> new ArrayList<>()).add(c.segment());
            over -= c.segment().sizeBytes();
            long cutoff = cutoffs.computeIfAbsent(c.member(), Member::retentionCutoff);
            if (c.segment().maxTime() >= cutoff) {
                inside++;
                LOG.log(Level.WARNING, "disk budget deletes a segment inside its retention window: the budget and the window "
                        + "conflict [namespace={0}, segment={1}, maxTime={2}, cutoff={3}, used={4}, budget={5}]",
                        c.member().name(), c.segment().file(), c.segment().maxTime(), cutoff, used, budgetBytes);
            }
        }
        RetentionResult total = RetentionResult.NOTHING;
        for (Map.Entry<Member, List<SegmentEntry>> e : chosen.entrySet()) {
            total = total.plus(e.getKey().dropSegments(e.getValue()));
        }
        insideRetention.addAndGet(inside);
        segmentsDeleted.addAndGet(total.segmentsDeleted());
        bytesFreed.addAndGet(total.bytesFreed());
        LOG.log(Level.INFO, "disk budget enforced [used={0}, budget={1}, segmentsDeleted={2}, bytesFreed={3}, insideRetention={4}]",
                used, budgetBytes, total.segmentsDeleted(), total.bytesFreed(), inside);
        return total;
    }

    /** Segments the budget deleted since this object was created. */
    public long segmentsDeleted() {
        return segmentsDeleted.get();
    }

    public long bytesFreed() {
        return bytesFreed.get();
    }

    /** Of {@link #segmentsDeleted()}, those still inside their engine's retention window (each was a WARN). */
    public long segmentsDeletedInsideRetention() {
        return insideRetention.get();
    }
}
