package io.chronix.engine.rollup;

import java.util.ArrayList;
import java.util.List;

/**
 * The pending invalid ranges of one rollup, as values: coalesced (touching or overlapping ranges
 * merge), disjoint, ascending, and capped at {@link #CAP} ranges — past that, the two ranges with
 * the smallest gap between them merge into their hull until {@code CAP} remain, so a writer
 * scattering single late points cannot grow the catalog without limit and the repair stays
 * close to what was touched.
 */
public final class InvalidationLog {

    public static final int CAP = 64;

    private InvalidationLog() {
    }

    /** {@code log} with {@code added} folded in. */
    public static List<TimeRange> add(List<TimeRange> log, TimeRange added) {
        List<TimeRange> out = new ArrayList<>(log.size() + 1);
        TimeRange pending = added;
        boolean placed = false;
        for (TimeRange r : log) {
            if (placed) {
                out.add(r);
            } else if (r.touches(pending)) {
                pending = new TimeRange(Math.min(r.from(), pending.from()), Math.max(r.to(), pending.to()));
            } else if (r.to() < pending.from()) {
                out.add(r);
            } else {
                out.add(pending);
                out.add(r);
                placed = true;
            }
        }
        if (!placed) {
            out.add(pending);
        }
        while (out.size() > CAP) {
            int best = 0;
            for (int i = 1; i + 1 < out.size(); i++) {
                if (gap(out, i) < gap(out, best)) {
                    best = i;
                }
            }
            out.set(best, new TimeRange(out.get(best).from(), out.get(best + 1).to()));
            out.remove(best + 1);
        }
        return List.copyOf(out);
    }

    /** Every range of {@code more} folded into {@code log}. */
    public static List<TimeRange> addAll(List<TimeRange> log, List<TimeRange> more) {
        List<TimeRange> out = log;
        for (TimeRange r : more) {
            out = add(out, r);
        }
        return out;
    }

    /** {@code log} without the instants {@code removed} covers. */
    public static List<TimeRange> subtract(List<TimeRange> log, List<TimeRange> removed) {
        List<TimeRange> out = new ArrayList<>(log);
        for (TimeRange cut : removed) {
            List<TimeRange> next = new ArrayList<>(out.size() + 1);
            for (TimeRange r : out) {
                if (!r.overlaps(cut.from(), cut.to())) {
                    next.add(r);
                    continue;
                }
                if (r.from() < cut.from()) {
                    next.add(new TimeRange(r.from(), cut.from()));
                }
                if (cut.to() < r.to()) {
                    next.add(new TimeRange(cut.to(), r.to()));
                }
            }
            out = next;
        }
        return List.copyOf(out);
    }

    private static long gap(List<TimeRange> rs, int i) {
        long g = rs.get(i + 1).from() - rs.get(i).to();
        return g < 0 ? Long.MAX_VALUE : g; // a wrapped difference is a huge gap
    }
}
