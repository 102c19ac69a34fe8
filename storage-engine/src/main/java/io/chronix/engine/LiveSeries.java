package io.chronix.engine;

import io.chronix.engine.catalog.SegmentEntry;
import io.chronix.engine.memtable.Memtable;
import io.chronix.engine.memtable.SeriesRef;
import io.chronix.engine.memtable.SeriesRegistry;
import io.chronix.engine.segment.SegmentFile;
import io.chronix.engine.segment.SeriesIndex;
import io.chronix.engine.store.SegmentStore;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The engine's exact cardinality: which series hold data anywhere — memtables or segments.
 *
 * <p>At open every segment's series are registered from its {@code .series} sidecar (a file of a
 * few bytes per series; rebuilt from the segment if missing or damaged), so {@link
 * SeriesRegistry#liveSize()} counts series that exist only on disk too, and their last-value
 * entries are marked incomplete (their newest point may be in a segment). The open reads one
 * sidecar per segment and hashes none of the segments themselves.
 *
 * <p>After deletes and retention, {@link #repair} recomputes the live set from the segments left
 * and the memtables, and marks every other series dead.
 */
final class LiveSeries {

    private static final System.Logger LOG = System.getLogger(LiveSeries.class.getName());

    private LiveSeries() {
    }

    /**
     * Registers every series of {@code segments}. Returns false if a segment's series could not be
     * read (logged): the registry may then miss series of a damaged segment.
     */
    static boolean load(Collection<SegmentEntry> segments, SegmentStore store, SeriesRegistry registry) {
        boolean complete = true;
        for (SegmentEntry e : segments) {
            SeriesIndex index;
            try {
                index = store.seriesIndex(SegmentFile.parse(e.file()));
            } catch (RuntimeException ex) {
                LOG.log(Level.WARNING, "series of a segment unreadable; cardinality and last values may miss them [segment=" + e.file()
                        + "]", ex);
                complete = false;
                continue;
            }
            if (index == null) {
                complete = false;
                continue;
            }
            for (SeriesRef ref : refs(index, registry, true)) {
                ref.lastValue().markIncomplete();
            }
        }
        return complete;
    }

    /**
     * Marks live exactly the series of {@code segments} and of the memtables, every other one dead.
     * The caller keeps flushes out (segments and memtables must not trade series meanwhile).
     *
     * @return the live count, or -1 if a segment's series could not be read (nothing was marked dead)
     */
    static long repair(Collection<SegmentEntry> segments, SegmentStore store, SeriesRegistry registry, List<Memtable> memtables) {
        Map<SeriesRef, Boolean> live = new IdentityHashMap<>();
        for (SegmentEntry e : segments) {
            SeriesIndex index;
            try {
                index = store.seriesIndex(SegmentFile.parse(e.file()));
            } catch (RuntimeException ex) {
                LOG.log(Level.WARNING, "live series not repaired: a segment's series are unreadable [segment=" + e.file() + "]", ex);
                return -1;
            }
            if (index == null) {
                return -1;
            }
            for (SeriesRef ref : refs(index, registry, true)) { // resolve revives a series marked dead
                live.put(ref, Boolean.TRUE);
            }
        }
        for (String m : registry.measurements()) {
            for (SeriesRef ref : registry.seriesOf(m)) {
                boolean inMemory = false;
                for (Memtable t : memtables) {
                    inMemory |= t.contains(ref);
                }
                if (!inMemory && !live.containsKey(ref)) {
                    registry.markDead(ref);
                }
            }
        }
        return registry.liveSize();
    }

    /** The registry's series of {@code index} (registered if {@code register}, else only those known). */
    private static List<SeriesRef> refs(SeriesIndex index, SeriesRegistry registry, boolean register) {
        // the sidecar's tags are in the segment's sort order; the registry wants them by name
        List<String> names = index.tagNames();
        Integer[] byName = new Integer[names.size()];
        for (int t = 0; t < byName.length; t++) {
            byName[t] = t;
        }
        java.util.Arrays.sort(byName, java.util.Comparator.comparing(names::get));
        List<SeriesRef> out = new ArrayList<>(index.series().size());
        String[] k = new String[names.size()];
        String[] v = new String[names.size()];
        for (SeriesIndex.Key key : index.series()) {
            int n = 0;
            for (int t : byName) {
                String value = key.tagValues().get(t);
                if (value != null) {
                    k[n] = names.get(t);
                    v[n] = value;
                    n++;
                }
            }
            String[] keys = n == k.length ? k : java.util.Arrays.copyOf(k, n);
            String[] values = n == v.length ? v : java.util.Arrays.copyOf(v, n);
            SeriesRef ref = register ? registry.resolve(index.measurement(), keys, values) : registry.find(index.measurement(), keys, values);
            if (ref != null) {
                out.add(ref);
            }
        }
        return out;
    }
}
