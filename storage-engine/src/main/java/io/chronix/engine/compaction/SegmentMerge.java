package io.chronix.engine.compaction;

import io.chronix.engine.catalog.ColumnStats;
import io.chronix.engine.catalog.SegmentEntry;
import io.chronix.engine.io.FileIO;
import io.chronix.engine.model.FieldType;
import io.chronix.engine.segment.SegmentColumns;
import io.chronix.engine.segment.SegmentFile;
import io.chronix.engine.segment.SegmentMeta;
import io.chronix.engine.segment.SegmentReader;
import io.chronix.engine.segment.SegmentWriter;
import io.chronix.engine.segment.SegmentWriterConfig;
import io.chronix.engine.segment.SeriesIndex;
import io.chronix.engine.segment.SeriesSidecar;
import io.chronix.engine.store.CsxSegmentStore;
import io.chronix.engine.store.SegmentStatistics;
import io.chronix.engine.summary.SummaryBuilder;

import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongPredicate;

/**
 * Merges the segments of one (shard, measurement) group into one segment (seed 001, "Merge
 * Algorithm"), streaming.
 *
 * <h2>Algorithm</h2>
 * <ol>
 *   <li>Unify the schemas: the union of the inputs' tags and fields (a field has one type per
 *       measurement, so types agree); a column an input lacks is NULL in its rows.
 *   <li>Plan the series from the inputs' series tables (the {@code .series} sidecars, rebuilt from
 *       the segment if missing): every distinct tag tuple once, with its row stretch in each input
 *       holding it. The output orders tags by ascending cardinality over the union (ties by name),
 *       as a flush does, and series by their tag values in that order, absent first.
 *   <li>Series by series, a K-way merge by time of the series' stretches (a binary heap keyed on
 *       (time, input age)). Rows of equal time fold field by field: inputs are taken oldest first
 *       (ascending catalog id) and a later non-NULL value overwrites, so the newest write of each
 *       field wins — the rule of the memtable and of {@code RowMerger}. Rows that {@link DeletedRows}
 *       names are dropped before they fold.
 *   <li>Output rows gather into a part of {@code rowGroupRows} rows, handed to
 *       {@link SegmentWriter#open}'s appender (which encodes and writes it as one row group) and
 *       reused. The catalog statistics are folded from those parts — nothing is read back.
 * </ol>
 *
 * <h2>Memory</h2>
 * Each input holds one decoded row group at a time (its row groups are visited in order when the
 * input's series order agrees with the output's, the usual case), plus one output part and the
 * series plan (a few dozen bytes per series and input). So the peak is bounded by K decoded row
 * groups, independent of the inputs' total size. An input whose tags sorted in another order (its
 * flush saw other cardinalities) is still merged correctly but may decode a row group more than once.
 *
 * <p>Threading: one merge, one thread.
 */
public final class SegmentMerge {

    /**
     * What a merge produced.
     *
     * @param entry the output's catalog entry, or {@code null} when every row was deleted
     */
    public record Output(SegmentEntry entry, long rowsIn, long bytesIn, long peakDecodedBytes) {
    }

    private final FileIO io;
    private final Path segmentsDir;
    private final Path tmpDir;
    private final SegmentWriterConfig config;
    private final DeletedRows deleted;
    private final BooleanSupplier stop;
    private final Consumer<String> hook;

    /**
     * @param config how the output is written (the namespace's codecs and row group size)
     * @param stop   polled between output parts; true abandons the merge with a {@link CancellationException}
     * @param hook   test hook, called with {@code "compaction-part-written"} after each output part
     */
    public SegmentMerge(FileIO io, Path segmentsDir, Path tmpDir, SegmentWriterConfig config, DeletedRows deleted,
            BooleanSupplier stop, Consumer<String> hook) {
        this.io = io;
        this.segmentsDir = segmentsDir;
        this.tmpDir = tmpDir;
        this.config = config;
        this.deleted = deleted;
        this.stop = stop;
        this.hook = hook;
    }

    /**
     * Merges {@code group} into segment {@code SegmentFile.of(shard, nanos, outputId)}, published
     * but not yet in the catalog.
     */
    public Output merge(CompactionPicker.Group group, long outputId, long nanos) {
        List<Input> inputs = new ArrayList<>();
        try (RootAllocator allocator = new RootAllocator()) {
            try {
                long rowsIn = 0;
                long bytesIn = 0;
                long wal = 0;
                for (SegmentEntry e : group.segments()) {
                    inputs.add(new Input(e, allocator));
                    rowsIn += e.rowCount();
                    bytesIn += e.sizeBytes();
                    wal = Math.max(wal, e.walSequence());
                }
                Plan plan = new Plan(group.measurement(), inputs);
                SegmentFile file = SegmentFile.of(group.shard(), nanos, outputId);
                SegmentEntry entry;
                try (SegmentWriter.Appender out = SegmentWriter.open(io, tmpDir, segmentsDir, file, config, wal)) {
                    Part part = new Part(plan, Math.max(1, config.rowGroupRows()));
                    for (OutSeries s : plan.series) {
                        mergeSeries(plan, s, inputs, part, out);
                    }
                    part.flush(out);
                    if (out.rows() == 0) {
                        entry = null; // everything was deleted: the appender's close discards the file
                    } else {
                        SegmentMeta meta = out.finish().meta();
                        CsxSegmentStore.writeSummary(io, tmpDir, segmentsDir, file, part.summary, meta.crc());
                        entry = new SegmentEntry(outputId, file.relativeName(), group.shard(), group.measurement(),
                                meta.header().minTime(), meta.header().maxTime(), meta.header().rowCount(),
                                meta.header().seriesCount(), meta.fileSize(), wal, part.stats);
                    }
                }
                return new Output(entry, rowsIn, bytesIn, allocator.getPeakMemoryAllocation());
            } finally {
                inputs.forEach(Input::close);
            }
        }
    }

    // ------------------------------------------------------------------------------ the merge

    private void mergeSeries(Plan plan, OutSeries s, List<Input> inputs, Part part, SegmentWriter.Appender out) {
        int m = s.stretches.size();
        Input[] in = new Input[m];
        long[] pos = new long[m];
        long[] end = new long[m];
        long[] time = new long[m];
        LongPredicate[] dropped = new LongPredicate[m];
        List<String> values = Arrays.asList(s.values);
        int[] heap = new int[m];
        int size = 0;
        for (int k = 0; k < m; k++) {
            Stretch st = s.stretches.get(k);
            in[k] = inputs.get(st.input());
            pos[k] = st.firstRow();
            end[k] = st.firstRow() + st.rowCount();
            dropped[k] = deleted.deletedTimes(in[k].entry, plan.tagNames, values);
            if (pos[k] < end[k]) {
                time[k] = in[k].time(pos[k]);
                heap[size++] = k;
                siftUp(heap, size - 1, time);
            }
        }
        int[] same = new int[m];
        while (size > 0) {
            int k = heap[0];
            long t = time[k];
            int n = 0;
            // every head at time t, oldest input first (the heap breaks ties by input age)
            while (size > 0 && time[heap[0]] == t) {
                same[n++] = heap[0];
                heap[0] = heap[--size];
                siftDown(heap, 0, size, time);
            }
            boolean begun = false;
            for (int i = 0; i < n; i++) {
                int j = same[i];
                if (dropped[j] != null && dropped[j].test(t)) {
                    continue;
                }
                if (!begun) {
                    part.begin(s.values, t);
                    begun = true;
                }
                part.fold(in[j], pos[j]);
            }
            if (begun && part.end()) {
                flushPart(part, out);
            }
            if (n == 1) {
                // one head alone: its rows up to the next head's time need no heap (TWCS inputs
                // rarely overlap in time, so a series' stretches mostly come out as whole runs)
                int j = same[0];
                long bound = size == 0 ? Long.MAX_VALUE : time[heap[0]];
                while (++pos[j] < end[j]) {
                    long tj = in[j].time(pos[j]);
                    if (tj >= bound) {
                        time[j] = tj;
                        heap[size++] = j;
                        siftUp(heap, size - 1, time);
                        break;
                    }
                    if (dropped[j] != null && dropped[j].test(tj)) {
                        continue;
                    }
                    part.begin(s.values, tj);
                    part.fold(in[j], pos[j]);
                    if (part.end()) {
                        flushPart(part, out);
                    }
                }
                continue;
            }
            for (int i = 0; i < n; i++) {
                int j = same[i];
                if (++pos[j] < end[j]) {
                    time[j] = in[j].time(pos[j]);
                    heap[size++] = j;
                    siftUp(heap, size - 1, time);
                }
            }
        }
    }

    private void flushPart(Part part, SegmentWriter.Appender out) {
        if (stop.getAsBoolean()) {
            throw new CancellationException("compaction abandoned: the engine is closing");
        }
        part.flush(out);
        hook.accept("compaction-part-written");
    }

    private static boolean before(int a, int b, long[] time) {
        return time[a] < time[b] || (time[a] == time[b] && a < b);
    }

    private static void siftUp(int[] heap, int i, long[] time) {
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!before(heap[i], heap[parent], time)) {
                return;
            }
            int x = heap[i];
            heap[i] = heap[parent];
            heap[parent] = x;
            i = parent;
        }
    }

    private static void siftDown(int[] heap, int i, int size, long[] time) {
        while (true) {
            int l = 2 * i + 1;
            if (l >= size) {
                return;
            }
            int c = l + 1 < size && before(heap[l + 1], heap[l], time) ? l + 1 : l;
            if (!before(heap[c], heap[i], time)) {
                return;
            }
            int x = heap[i];
            heap[i] = heap[c];
            heap[c] = x;
            i = c;
        }
    }

    // ------------------------------------------------------------------------------ the plan

    private record Stretch(int input, long firstRow, int rowCount) {
    }

    private static final class OutSeries {
        final String[] values;
        final List<Stretch> stretches = new ArrayList<>(2);

        OutSeries(String[] values) {
            this.values = values;
        }
    }

    /** The unified schema, the output tag order and the series with their stretches, in output order. */
    private static final class Plan {
        final String measurement;
        final List<String> tagNames;
        final List<String> fieldNames = new ArrayList<>();
        final List<FieldType> fieldTypes = new ArrayList<>();
        final List<OutSeries> series;

        Plan(String measurement, List<Input> inputs) {
            this.measurement = measurement;
            TreeMap<String, FieldType> fields = new TreeMap<>();
            Set<String> tags = new HashSet<>();
            for (Input in : inputs) {
                for (SegmentMeta.Column c : in.reader.columns()) {
                    switch (c.role()) {
                        case TAG -> tags.add(c.name());
                        case FIELD -> {
                            FieldType had = fields.putIfAbsent(c.name(), c.type());
                            if (had != null && had != c.type()) {
                                throw new IllegalStateException("field has two types across segments [measurement=" + measurement
                                        + ", field=" + c.name() + ", types=" + had + "/" + c.type() + "]");
                            }
                        }
                        case TIME -> { }
                    }
                }
            }
            fields.forEach((k, v) -> {
                fieldNames.add(k);
                fieldTypes.add(v);
            });
            // tag order: ascending cardinality over every input's series, absent counted as a value
            Map<String, Set<String>> distinct = new HashMap<>();
            for (String t : tags) {
                distinct.put(t, new HashSet<>());
            }
            for (Input in : inputs) {
                List<String> names = in.series.tagNames();
                for (SeriesIndex.Key key : in.series.series()) {
                    for (String t : tags) {
                        int i = names.indexOf(t);
                        String v = i < 0 ? null : key.tagValues().get(i);
                        distinct.get(t).add(v == null ? "\u0000absent" : "=" + v);
                    }
                }
            }
            List<String> order = new ArrayList<>(tags);
            order.sort(Comparator.comparing((String t) -> distinct.get(t).size()).thenComparing(t -> t));
            this.tagNames = List.copyOf(order);
            Map<List<String>, OutSeries> byKey = new HashMap<>();
            for (int i = 0; i < inputs.size(); i++) {
                Input in = inputs.get(i);
                List<String> names = in.series.tagNames();
                int[] from = new int[tagNames.size()];
                for (int k = 0; k < from.length; k++) {
                    from[k] = names.indexOf(tagNames.get(k));
                }
                for (SeriesIndex.Key key : in.series.series()) {
                    String[] v = new String[from.length];
                    for (int k = 0; k < from.length; k++) {
                        v[k] = from[k] < 0 ? null : key.tagValues().get(from[k]);
                    }
                    byKey.computeIfAbsent(Arrays.asList(v), x -> new OutSeries(v)).stretches
                            .add(new Stretch(i, key.firstRow(), key.rowCount()));
                }
            }
            List<OutSeries> s = new ArrayList<>(byKey.values());
            s.sort((a, b) -> SegmentColumns.compareTuples(a.values, b.values));
            this.series = s;
            for (Input in : inputs) {
                in.bind(fieldNames);
            }
        }
    }

    // ------------------------------------------------------------------------------ inputs

    /** One input segment, with the one row group it has decoded. */
    private final class Input implements AutoCloseable {
        final SegmentEntry entry;
        final SegmentReader reader;
        final SeriesIndex series;
        final RootAllocator allocator;
        final List<SegmentMeta.RowGroup> groups;
        List<String> projection;
        FieldVector[] fields; // by output field, null where this input lacks the field
        VectorSchemaRoot root;
        TimeStampVector timeVector;
        long groupFirst;
        long groupEnd;

        Input(SegmentEntry entry, RootAllocator allocator) {
            this.entry = entry;
            this.allocator = allocator;
            SegmentFile file = SegmentFile.parse(entry.file());
            this.reader = SegmentReader.open(io, file.resolve(segmentsDir));
            try {
                this.series = SeriesSidecar.loadOrRebuild(io, segmentsDir, tmpDir, file, reader);
            } catch (RuntimeException e) {
                reader.close();
                throw e;
            }
            this.groups = reader.rowGroups();
        }

        void bind(List<String> outFields) {
            projection = new ArrayList<>();
            projection.add(SegmentColumns.TIME);
            for (String f : outFields) {
                if (reader.meta().columnIndex(f) >= 0) {
                    projection.add(f);
                }
            }
            fields = new FieldVector[outFields.size()];
            outIndex = new HashMap<>();
            for (int i = 0; i < outFields.size(); i++) {
                outIndex.put(outFields.get(i), i);
            }
        }

        /** Makes row {@code row} addressable; returns its index in the decoded row group. */
        int seek(long row) {
            if (row < groupFirst || row >= groupEnd || root == null) {
                load(groupOf(row));
            }
            return (int) (row - groupFirst);
        }

        long time(long row) {
            int local = seek(row);
            return timeVector.get(local);
        }

        private int groupOf(long row) {
            int lo = 0;
            int hi = groups.size() - 1;
            while (lo < hi) {
                int mid = (lo + hi + 1) >>> 1;
                if (groups.get(mid).firstRow() <= row) {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            return lo;
        }

        private void load(int g) {
            if (root != null) {
                root.close();
                root = null;
            }
            root = reader.readRowGroup(allocator, g, projection);
            SegmentMeta.RowGroup rg = groups.get(g);
            groupFirst = rg.firstRow();
            groupEnd = rg.firstRow() + rg.rowCount();
            timeVector = (TimeStampVector) root.getVector(SegmentColumns.TIME);
            Arrays.fill(fields, null);
            for (int i = 1; i < projection.size(); i++) {
                fields[outIndex.get(projection.get(i))] = root.getVector(projection.get(i));
            }
        }

        private Map<String, Integer> outIndex;

        @Override
        public void close() {
            if (root != null) {
                root.close();
                root = null;
            }
            reader.close();
        }
    }

    // ------------------------------------------------------------------------------ the output

    /** One output part: primitive columns, reused from part to part (the writer borrows them only during append). */
    private static final class Part {
        final Plan plan;
        final int capacity;
        final long[] time;
        final String[][] tags;
        final double[][] doubles;
        final long[][] longs;      // integers, unsigned bits
        final boolean[][] booleans;
        final String[][] strings;
        final long[][] validity;
        int rows;
        int row = -1;
        List<ColumnStats> stats;
        /** Builds the output's summary as parts are written; null once it cannot (the output then has none). */
        SummaryBuilder summary = new SummaryBuilder();

        Part(Plan plan, int capacity) {
            this.plan = plan;
            this.capacity = capacity;
            time = new long[capacity];
            tags = new String[plan.tagNames.size()][capacity];
            int f = plan.fieldNames.size();
            doubles = new double[f][];
            longs = new long[f][];
            booleans = new boolean[f][];
            strings = new String[f][];
            validity = new long[f][(capacity + 63) >>> 6];
            for (int i = 0; i < f; i++) {
                switch (plan.fieldTypes.get(i)) {
                    case FLOAT -> doubles[i] = new double[capacity];
                    case INTEGER, UNSIGNED -> longs[i] = new long[capacity];
                    case BOOLEAN -> booleans[i] = new boolean[capacity];
                    case STRING -> strings[i] = new String[capacity];
                }
            }
        }

        void begin(String[] seriesValues, long t) {
            row = rows;
            time[row] = t;
            for (int k = 0; k < tags.length; k++) {
                tags[k][row] = seriesValues[k];
            }
            for (String[] s : strings) {
                if (s != null) {
                    s[row] = null;
                }
            }
        }

        /** Folds input {@code in}'s row {@code r} into the current row: its non-NULL fields overwrite. */
        void fold(Input in, long r) {
            int local = in.seek(r);
            FieldVector[] v = in.fields;
            for (int f = 0; f < v.length; f++) {
                FieldVector vec = v[f];
                if (vec == null || vec.isNull(local)) {
                    continue;
                }
                validity[f][row >>> 6] |= 1L << row;
                switch (vec) {
                    case Float8Vector x -> doubles[f][row] = x.get(local);
                    case BigIntVector x -> longs[f][row] = x.get(local);
                    case UInt8Vector x -> longs[f][row] = x.get(local);
                    case BitVector x -> booleans[f][row] = x.get(local) != 0;
                    case VarCharVector x -> strings[f][row] = new String(x.get(local), StandardCharsets.UTF_8);
                    default -> throw new IllegalStateException("unexpected vector " + vec.getClass().getSimpleName());
                }
            }
        }

        /** Ends the current row; true when the part is full. */
        boolean end() {
            rows++;
            return rows == capacity;
        }

        void flush(SegmentWriter.Appender out) {
            if (rows == 0) {
                return;
            }
            SegmentColumns.Builder b = SegmentColumns.builder(plan.measurement, rows).time(time);
            for (int k = 0; k < tags.length; k++) {
                b.tag(plan.tagNames.get(k), tags[k]);
            }
            for (int f = 0; f < validity.length; f++) {
                String name = plan.fieldNames.get(f);
                switch (plan.fieldTypes.get(f)) {
                    case FLOAT -> b.floatField(name, doubles[f], validity[f]);
                    case INTEGER -> b.integerField(name, longs[f], validity[f]);
                    case UNSIGNED -> b.unsignedField(name, longs[f], validity[f]);
                    case BOOLEAN -> b.booleanField(name, booleans[f], validity[f]);
                    case STRING -> b.stringField(name, strings[f]);
                }
            }
            SegmentColumns cols = b.build();
            out.append(cols);
            if (summary != null) {
                try {
                    summary.add(cols); // the output's .summary, from the parts as written
                } catch (IllegalArgumentException e) {
                    summary = null;
                }
            }
            List<ColumnStats> s = SegmentStatistics.of(cols);
            stats = stats == null ? s : SegmentStatistics.combine(stats, s);
            for (long[] v : validity) {
                Arrays.fill(v, 0L);
            }
            rows = 0;
        }
    }
}
