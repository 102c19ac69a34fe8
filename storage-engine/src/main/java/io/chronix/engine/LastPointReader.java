package io.chronix.engine;

import io.chronix.engine.catalog.SegmentEntry;
import io.chronix.engine.memtable.LastValue;
import io.chronix.engine.memtable.SeriesRef;
import io.chronix.engine.model.FieldType;
import io.chronix.engine.read.LastPoint;
import io.chronix.engine.read.ScanStatistics;
import io.chronix.engine.read.SeriesLastPoint;
import io.chronix.engine.read.TagPredicate;
import io.chronix.engine.schema.Column;
import io.chronix.engine.schema.MeasurementSchema;
import io.chronix.engine.schema.SchemaRegistry;
import io.chronix.engine.segment.SegmentFile;
import io.chronix.engine.store.MetadataCache;
import io.chronix.engine.store.SegmentStore;

import org.apache.arrow.memory.BufferAllocator;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Answers "the newest point of a series" from the last-value cache ({@link LastValue} on each
 * {@link SeriesRef}) when the entry is complete, and otherwise by a reverse segment scan: the
 * series' segments newest first (by max time), in each only the row group where the series' rows
 * end, stopping once no remaining segment can hold anything as new as the best point found. Points
 * at the same timestamp fold field by field — segments in publish order, then the cache entry
 * (memtable points are later writes than any segment's) — and the result goes back into the cache.
 *
 * <p>Threading: thread-safe.
 */
final class LastPointReader {

    private final SchemaRegistry schema;
    private final MetadataCache metadata;
    private final SegmentStore store;
    private final AtomicLong hits = new AtomicLong();
    private volatile java.util.function.Predicate<SegmentEntry> masked = e -> false;
    private volatile NewestRow maskedRows;

    /** The newest row of a series in one segment, as {@link SegmentStore#newestRow} answers it. */
    @FunctionalInterface
    interface NewestRow {
        Optional<LastPoint> newest(SegmentEntry segment, List<String> fields, List<TagPredicate> exact, BufferAllocator allocator);
    }

    /** Segments for which {@code masked} holds (a tombstone applies) are asked through {@code rows}, which applies it. */
    void masking(java.util.function.Predicate<SegmentEntry> masked, NewestRow rows) {
        this.maskedRows = rows;
        this.masked = masked;
    }
    private final AtomicLong misses = new AtomicLong();

    LastPointReader(SchemaRegistry schema, MetadataCache metadata, SegmentStore store) {
        this.schema = schema;
        this.metadata = metadata;
        this.store = store;
    }

    long hits() {
        return hits.get();
    }

    long misses() {
        return misses.get();
    }

    /**
     * One series' tag values (aligned with its measurement's tag columns, {@code null} where it has
     * none), the same as UTF-8, and newest point. The tag arrays may be the series' own shared ones
     * ({@link SeriesRef#alignedTags}), never to be changed.
     */
    record Latest(String[] tags, byte[][] tagsUtf8, LastValue.Snapshot point) {
    }

    Optional<LastPoint> of(SeriesRef ref, MeasurementSchema ms, BufferAllocator allocator) {
        return Optional.ofNullable(snapshotOf(ref, ms, allocator, new ScanStatistics.Counter())).map(s -> toPoint(ref.measurement(), s));
    }

    /**
     * The newest point of {@code ref} in the cache's own form, or {@code null} if the series has
     * none; {@code stats} counts the segments and row groups a reverse scan reads.
     */
    private LastValue.Snapshot snapshotOf(SeriesRef ref, MeasurementSchema ms, BufferAllocator allocator, ScanStatistics.Counter stats) {
        LastValue lv = ref.lastValue();
        LastValue.State state = lv.state();
        if (state.complete()) {
            hits.incrementAndGet();
            return state.snapshot();
        }
        misses.incrementAndGet();
        List<TagPredicate> exact = new ArrayList<>();
        for (Column c : ms.tags()) {
            String v = ref.tag(c.name());
            exact.add(v == null ? new TagPredicate.IsNull(c.name()) : new TagPredicate.Eq(c.name(), v));
        }
        LastValue.Snapshot snap = state.snapshot();
        long best = snap == null ? Long.MIN_VALUE : snap.timestamp();
        List<SegmentEntry> candidates = new ArrayList<>(metadata.candidates(ref.measurement(), best, Long.MAX_VALUE, exact));
        List<Integer> publishOrder = new ArrayList<>();
        for (int i = 0; i < candidates.size(); i++) {
            publishOrder.add(i);
        }
        publishOrder.sort(Comparator.comparingLong((Integer i) -> candidates.get(i).maxTime()).reversed());
        LastPoint[] found = new LastPoint[candidates.size()];
        for (int i : publishOrder) {
            SegmentEntry e = candidates.get(i);
            if (e.maxTime() < best) {
                break; // sorted by max time, newest first: nothing left can reach the best point
            }
            List<String> fields = new ArrayList<>();
            for (Column c : ms.fields()) {
                if (e.column(c.name()) != null) {
                    fields.add(c.name());
                }
            }
            SegmentFile file = SegmentFile.parse(e.file());
            int groups = store.rowGroupCount(file);
            stats.segmentOpened(e.file(), groups);
            Optional<LastPoint> row;
            if (masked.test(e)) {
                for (int g = 0; g < groups; g++) {
                    stats.rowGroupRead(e.file(), g); // read through the tombstone's mask: a scan of the segment
                }
                row = maskedRows.newest(e, fields, exact, allocator);
            } else {
                row = store.newestRow(file, fields, exact, allocator, g -> stats.rowGroupRead(e.file(), g));
            }
            if (row.isPresent()) {
                found[i] = row.get();
                best = Math.max(best, row.get().timestamp());
            }
        }
        if (best == Long.MIN_VALUE && snap == null) {
            lv.fillEmpty(state.epoch());
            return null;
        }
        // fold the rows at the best timestamp in publish order, later segments winning
        Map<String, Object> fields = new LinkedHashMap<>();
        for (LastPoint p : found) {
            if (p != null && p.timestamp() == best) {
                fields.putAll(p.fields());
            }
        }
        LastValue.Snapshot folded = snapshot(ref.measurement(), best, fields);
        lv.fill(best, folded.bits(), folded.strings(), folded.has(), state.epoch());
        LastValue.Snapshot merged = lv.snapshot();
        // the entry now holds the fold (or something newer written meanwhile); if an eviction raced
        // the scan the entry was not filled, and the scan's own answer stands
        if (merged != null && merged.timestamp() >= best) {
            return merged;
        }
        if (snap != null && snap.timestamp() == best) {
            return mergeInto(snap, folded.bits(), folded.strings(), folded.has());
        }
        return folded;
    }

    /** A point given as field name → value, in the cache's form: value bits (or string) by field ordinal. */
    LastValue.Snapshot snapshot(String measurement, long timestamp, Map<String, Object> fields) {
        int n = schema.fieldCount(measurement);
        long[] bits = new long[n];
        String[] strings = new String[n];
        boolean[] has = new boolean[n];
        for (Map.Entry<String, Object> f : fields.entrySet()) {
            SchemaRegistry.FieldInfo fi = schema.field(measurement, f.getKey());
            has[fi.ordinal()] = true;
            switch (f.getValue()) {
                case Double d -> bits[fi.ordinal()] = Double.doubleToRawLongBits(d);
                case Long l -> bits[fi.ordinal()] = l;
                case Boolean b -> bits[fi.ordinal()] = b ? 1 : 0;
                case String s -> strings[fi.ordinal()] = s;
                default -> throw new IllegalStateException("unexpected field value " + f.getValue().getClass());
            }
        }
        return new LastValue.Snapshot(timestamp, bits, strings, has, false);
    }

    private static LastValue.Snapshot mergeInto(LastValue.Snapshot snap, long[] bits, String[] strings, boolean[] has) {
        int n = Math.max(snap.has().length, has.length);
        long[] b = java.util.Arrays.copyOf(bits, n);
        String[] s = java.util.Arrays.copyOf(strings, n);
        boolean[] h = java.util.Arrays.copyOf(has, n);
        for (int o = 0; o < snap.has().length; o++) {
            if (snap.has()[o]) {
                b[o] = snap.bits()[o];
                s[o] = snap.strings()[o];
                h[o] = true;
            }
        }
        return new LastValue.Snapshot(snap.timestamp(), b, s, h, false);
    }

    /**
     * Every live series of {@code inOrder} (a measurement's series in canonical order) passing
     * {@code predicates} that has a point, in that order, with its newest point.
     */
    List<Latest> ofAll(SeriesRef[] inOrder, MeasurementSchema ms, List<TagPredicate> predicates, BufferAllocator allocator,
            ScanStatistics.Counter stats) {
        String[] tagNames = ms.tags().stream().map(Column::name).toArray(String[]::new);
        List<Latest> out = new ArrayList<>(inOrder.length);
        for (SeriesRef ref : inOrder) {
            if (!ref.isLive() || !TagPredicate.allHold(predicates, ref)) {
                continue;
            }
            LastValue.Snapshot p = snapshotOf(ref, ms, allocator, stats);
            if (p != null) {
                stats.rowAnswered();
                SeriesRef.AlignedTags tags = ref.alignedTags(ms, tagNames);
                out.add(new Latest(tags.values(), tags.utf8(), p));
            }
        }
        return out;
    }

    /** {@code latest} as tag name → value and field name → value. */
    SeriesLastPoint asSeriesLastPoint(MeasurementSchema ms, Latest latest) {
        Map<String, String> tags = new LinkedHashMap<>();
        List<Column> tagColumns = ms.tags();
        for (int t = 0; t < tagColumns.size(); t++) {
            if (latest.tags()[t] != null) {
                tags.put(tagColumns.get(t).name(), latest.tags()[t]);
            }
        }
        return new SeriesLastPoint(tags, toPoint(ms.measurement(), latest.point()));
    }

    private LastPoint toPoint(String measurement, LastValue.Snapshot snap) {
        Map<String, Object> fields = new LinkedHashMap<>();
        for (int o = 0; o < snap.has().length; o++) {
            if (snap.has()[o]) {
                SchemaRegistry.FieldInfo fi = schema.fieldByOrdinal(measurement, o);
                fields.put(fi.name(), value(fi.type(), snap.bits()[o], snap.strings()[o]));
            }
        }
        return new LastPoint(snap.timestamp(), fields);
    }

    static Object value(FieldType type, long bits, String s) {
        return switch (type) {
            case FLOAT -> Double.longBitsToDouble(bits);
            case INTEGER, UNSIGNED -> bits;
            case BOOLEAN -> bits != 0;
            case STRING -> s;
        };
    }
}
