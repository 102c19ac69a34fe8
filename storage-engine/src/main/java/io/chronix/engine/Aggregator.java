package io.chronix.engine;

import io.chronix.engine.catalog.SegmentEntry;
import io.chronix.engine.memtable.Memtable;
import io.chronix.engine.memtable.SeriesRef;
import io.chronix.engine.memtable.SeriesRegistry;
import io.chronix.engine.model.FieldType;
import io.chronix.engine.read.AggregateRequest;
import io.chronix.engine.read.AggregateResult;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.read.ScanResult;
import io.chronix.engine.read.TagPredicate;
import io.chronix.engine.schema.Column;
import io.chronix.engine.schema.MeasurementSchema;
import io.chronix.engine.segment.SegmentFile;
import io.chronix.engine.store.SegmentStore;
import io.chronix.engine.summary.FieldAggregate;
import io.chronix.engine.summary.SegmentSummary;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.ByteFunctionHelpers;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Answers {@link AggregateRequest}s: per series, from segment summaries where that is exact and
 * from rows (blocks and memtables, merged as any scan) for the rest.
 *
 * <h2>When a summary may answer</h2>
 * A segment's summary answers for the segment only if the segment lies wholly inside the range and,
 * for every matching series in it, no other source — another segment or a memtable — may hold a
 * value of the field for that series within the time span the summary records for it. Overlap
 * matters because last write wins: a later write at the same timestamp replaces an earlier one, so
 * two summaries of overlapping sources cannot be added (that is the situation before compaction,
 * or with memtable writes into old time). Where another source's span for the series is unknown (no
 * usable summary) its whole time range counts. Skipped segments are left out of the row scan, and
 * the two parts are combined per series; they cover disjoint rows, so counts and sums add.
 *
 * <p>Threading: thread-safe (no state between calls).
 */
final class Aggregator {

    /** The scan hook: decides, on the scan's own snapshot of segments and memtables, which segments it skips. */
    interface SegmentPlanner {
        Set<String> skip(List<SegmentEntry> candidates, List<Memtable> memtables);

        /** As {@link #skip(List, List)}, also given the scan's archived candidates (which may hold the same rows). */
        default Set<String> skip(List<SegmentEntry> candidates, List<Memtable> memtables,
                List<io.chronix.engine.catalog.ArchivedSegment> archived) {
            return skip(candidates, memtables);
        }
    }

    /** The scan the aggregator reads the rest through (the engine's scan with a planner). */
    interface Scanner {
        ScanResult scan(ScanRequest request, BufferAllocator allocator, SegmentPlanner planner);
    }

    private final SegmentStore store;
    private final SeriesRegistry registry;

    Aggregator(SegmentStore store, SeriesRegistry registry) {
        this.store = store;
        this.registry = registry;
    }

    AggregateResult aggregate(AggregateRequest req, MeasurementSchema ms, Scanner scanner, BufferAllocator allocator) {
        Column field = ms.column(req.field()).orElseThrow(() -> new IllegalArgumentException(
                "unknown column [measurement=" + req.measurement() + ", column=" + req.field() + "]"));
        if (field.kind() != Column.Kind.FIELD || field.type() == FieldType.BOOLEAN || field.type() == FieldType.STRING) {
            throw new IllegalArgumentException("aggregates need a numeric field [measurement=" + req.measurement() + ", column="
                    + req.field() + ", type=" + field.type() + "]");
        }
        // series are keyed by their canonical key (SegmentSummary.canonicalKey): a string hashes once
        Map<String, FieldAggregate> bySeries = new HashMap<>();
        Map<String, Map<String, String>> tagsOf = new HashMap<>();
        List<FieldAggregate> fromSummaries = new ArrayList<>();
        List<String> fromSummariesKeys = new ArrayList<>();
        int[] counts = new int[2];
        SegmentPlanner planner = (candidates, memtables) -> {
            Set<String> skip = req.useSummaries() ? plan(req, field.type(), candidates, memtables, fromSummaries, fromSummariesKeys,
                    tagsOf)
                    : Set.of();
            for (SegmentEntry e : candidates) {
                if (e.column(req.field()) != null) {
                    counts[skip.contains(e.file()) ? 0 : 1]++;
                }
            }
            return skip;
        };
        List<String> columns = new ArrayList<>();
        columns.add(Column.TIME);
        ms.tags().forEach(c -> columns.add(c.name()));
        columns.add(req.field());
        try (ScanResult r = scanner.scan(new ScanRequest(req.measurement(), columns, req.from(), req.to(), req.predicates()), allocator,
                planner)) {
            for (VectorSchemaRoot b : r.batches()) {
                fold(b, ms, req.field(), field.type(), bySeries, tagsOf);
            }
        }
        for (int i = 0; i < fromSummaries.size(); i++) {
            bySeries.computeIfAbsent(fromSummariesKeys.get(i), k -> new FieldAggregate(field.type())).merge(fromSummaries.get(i));
        }
        List<Map.Entry<String, FieldAggregate>> entries = new ArrayList<>(bySeries.entrySet());
        entries.removeIf(e -> e.getValue().count() == 0);
        entries.sort((a, b) -> compareSeries(tagsOf.get(a.getKey()), tagsOf.get(b.getKey())));
        List<AggregateResult.Series> out = new ArrayList<>(entries.size());
        for (Map.Entry<String, FieldAggregate> e : entries) {
            out.add(new AggregateResult.Series(tagsOf.get(e.getKey()), e.getValue()));
        }
        return new AggregateResult(out, counts[0], counts[1]);
    }

    /** Chooses the segments answered by summaries (see the class comment) and collects their aggregates. */
    private Set<String> plan(AggregateRequest req, FieldType type, List<SegmentEntry> candidates, List<Memtable> memtables,
            List<FieldAggregate> aggregates, List<String> keys, Map<String, Map<String, String>> tagsOf) {
        record Span(int source, long lo, long hi) {
        }
        Map<String, List<Span>> spans = new HashMap<>();
        List<Span> unknown = new ArrayList<>(); // sources whose per-series spans are unknown: they may hold any series
        Map<Integer, SegmentSummary> summaries = new HashMap<>();
        Map<Integer, Integer> fieldIndex = new HashMap<>();
        for (int i = 0; i < candidates.size(); i++) {
            SegmentEntry e = candidates.get(i);
            if (e.column(req.field()) == null) {
                continue; // holds no value of the field: cannot overlap anything that matters
            }
            SegmentSummary s = store.summary(SegmentFile.parse(e.file())).orElse(null);
            int f = s == null ? -1 : s.fieldIndex(req.field());
            if (f < 0 || s.fields().get(f).type() != type) {
                unknown.add(new Span(i, e.minTime(), e.maxTime()));
                continue;
            }
            for (SegmentSummary.Series series : s.series()) {
                FieldAggregate a = series.aggregates().get(f);
                if (a.count() > 0 && passes(s.tagNames(), series.tagValues(), req.predicates())) {
                    spans.computeIfAbsent(series.key(), k -> new ArrayList<>())
                            .add(new Span(i, a.firstTime(), a.lastTime()));
                }
            }
            if (e.minTime() >= req.from() && e.maxTime() <= req.to()) {
                summaries.put(i, s);
                fieldIndex.put(i, f);
            }
        }
        int source = candidates.size();
        for (Memtable m : memtables) {
            if (m.isEmpty() || m.maxTime() < req.from() || m.minTime() > req.to()) {
                continue;
            }
            for (SeriesRef ref : registry.seriesOf(req.measurement())) {
                if (m.contains(ref)) {
                    TreeMap<String, String> k = new TreeMap<>();
                    for (int t = 0; t < ref.tagCount(); t++) {
                        k.put(ref.tagKey(t), ref.tagValue(t));
                    }
                    spans.computeIfAbsent(SegmentSummary.canonicalKey(k), x -> new ArrayList<>()).add(new Span(source, m.minTime(), m.maxTime()));
                }
            }
            source++;
        }
        // per series, which sources' spans meet another source's span: sort by start, then a span
        // overlaps an earlier one iff the largest end before it reaches it, a later one iff the next
        // start does — O(n log n) per series instead of every pair
        Map<String, Set<Integer>> overlapping = new HashMap<>();
        for (Map.Entry<String, List<Span>> e : spans.entrySet()) {
            List<Span> l = new ArrayList<>(e.getValue());
            l.sort(java.util.Comparator.comparingLong(Span::lo));
            long maxHi = Long.MIN_VALUE;
            Set<Integer> hit = new HashSet<>();
            for (int k = 0; k < l.size(); k++) {
                Span x = l.get(k);
                if (k > 0 && maxHi >= x.lo() || k + 1 < l.size() && l.get(k + 1).lo() <= x.hi()) {
                    hit.add(x.source());
                }
                maxHi = Math.max(maxHi, x.hi());
            }
            overlapping.put(e.getKey(), hit);
        }
        long[][] unknownMerged = merge(unknown.stream().map(x -> new long[] {x.lo(), x.hi()}).toList());
        Set<String> skip = new HashSet<>();
        for (Map.Entry<Integer, SegmentSummary> c : summaries.entrySet()) {
            int i = c.getKey();
            SegmentSummary s = c.getValue();
            int f = fieldIndex.get(i);
            boolean usable = true;
            List<FieldAggregate> mine = new ArrayList<>();
            List<String> mineKeys = new ArrayList<>();
            for (Iterator<SegmentSummary.Series> it = s.series().iterator(); it.hasNext() && usable; ) {
                SegmentSummary.Series series = it.next();
                FieldAggregate a = series.aggregates().get(f);
                if (a.count() == 0 || !passes(s.tagNames(), series.tagValues(), req.predicates())) {
                    continue;
                }
                String k = series.key();
                usable = !overlapping.getOrDefault(k, Set.of()).contains(i) && !meets(unknownMerged, a.firstTime(), a.lastTime());
                mine.add(a);
                mineKeys.add(k);
            }
            if (usable) {
                skip.add(candidates.get(i).file());
                aggregates.addAll(mine);
                keys.addAll(mineKeys);
                for (SegmentSummary.Series series : s.series()) {
                    tagsOf.computeIfAbsent(series.key(), x -> key(s.tagNames(), series.tagValues()));
                }
            }
        }
        return skip;
    }

    /** Sorted, disjoint union of closed intervals. */
    private static long[][] merge(List<long[]> intervals) {
        List<long[]> l = new ArrayList<>(intervals);
        l.sort(java.util.Comparator.comparingLong(x -> x[0]));
        List<long[]> out = new ArrayList<>();
        for (long[] x : l) {
            if (!out.isEmpty() && out.getLast()[1] >= x[0]) {
                out.getLast()[1] = Math.max(out.getLast()[1], x[1]);
            } else {
                out.add(new long[] {x[0], x[1]});
            }
        }
        return out.toArray(long[][]::new);
    }

    /** Whether {@code [lo, hi]} meets one of the sorted disjoint {@code intervals}. */
    private static boolean meets(long[][] intervals, long lo, long hi) {
        int a = 0;
        int b = intervals.length - 1;
        while (a <= b) { // the last interval starting at or before hi
            int m = (a + b) >>> 1;
            if (intervals[m][0] <= hi) {
                a = m + 1;
            } else {
                b = m - 1;
            }
        }
        return b >= 0 && intervals[b][1] >= lo;
    }

    private static boolean passes(List<String> tagNames, List<String> values, List<TagPredicate> predicates) {
        for (TagPredicate p : predicates) {
            int t = tagNames.indexOf(p.key());
            if (!p.test(t < 0 ? null : values.get(t))) {
                return false;
            }
        }
        return true;
    }

    private static Map<String, String> key(List<String> tagNames, List<String> values) {
        Map<String, String> k = new TreeMap<>();
        for (int t = 0; t < tagNames.size(); t++) {
            if (values.get(t) != null) {
                k.put(tagNames.get(t), values.get(t));
            }
        }
        return k;
    }

    /** Adds a scan batch's rows to their series' aggregates (a series' rows come in runs, runs in any order). */
    private static void fold(VectorSchemaRoot b, MeasurementSchema ms, String fieldName, FieldType type,
            Map<String, FieldAggregate> bySeries, Map<String, Map<String, String>> tagsOf) {
        int rows = b.getRowCount();
        List<Column> tagColumns = ms.tags();
        VarCharVector[] tags = new VarCharVector[tagColumns.size()];
        for (int t = 0; t < tags.length; t++) {
            tags[t] = (VarCharVector) b.getVector(tagColumns.get(t).name());
        }
        TimeStampVector time = (TimeStampVector) b.getVector(Column.TIME);
        BaseFixedWidthVector values = (BaseFixedWidthVector) b.getVector(fieldName);
        FieldAggregate current = null;
        for (int row = 0; row < rows; row++) {
            if (current == null || !sameSeries(tags, row - 1, row)) {
                TreeMap<String, String> k = new TreeMap<>();
                for (int t = 0; t < tags.length; t++) {
                    if (!tags[t].isNull(row)) {
                        k.put(tagColumns.get(t).name(), new String(tags[t].get(row), StandardCharsets.UTF_8));
                    }
                }
                String canonical = SegmentSummary.canonicalKey(k);
                tagsOf.putIfAbsent(canonical, k);
                current = bySeries.computeIfAbsent(canonical, x -> new FieldAggregate(type));
            }
            if (!values.isNull(row)) {
                current.add(time.get(row), values.getDataBuffer().getLong((long) row * 8));
            }
        }
    }

    private static boolean sameSeries(VarCharVector[] tags, int a, int b) {
        for (VarCharVector v : tags) {
            boolean na = v.isNull(a);
            if (na != v.isNull(b)) {
                return false;
            }
            if (!na && ByteFunctionHelpers.equal(v.getDataBuffer(), v.getStartOffset(a), v.getEndOffset(a), v.getDataBuffer(),
                    v.getStartOffset(b), v.getEndOffset(b)) == 0) {
                return false;
            }
        }
        return true;
    }

    /** Canonical series order, as {@link SeriesRef#compareTo}: tag pairs sorted by key, compared pair by pair, a prefix first. */
    private static int compareSeries(Map<String, String> a, Map<String, String> b) {
        Iterator<Map.Entry<String, String>> x = a.entrySet().iterator();
        Iterator<Map.Entry<String, String>> y = b.entrySet().iterator();
        while (x.hasNext() && y.hasNext()) {
            Map.Entry<String, String> p = x.next();
            Map.Entry<String, String> q = y.next();
            int c = p.getKey().compareTo(q.getKey());
            if (c == 0) {
                c = p.getValue().compareTo(q.getValue());
            }
            if (c != 0) {
                return c;
            }
        }
        return Boolean.compare(x.hasNext(), y.hasNext());
    }
}
