package io.chronix.api.sql;

import io.chronix.engine.read.ArrowBulk;
import io.chronix.engine.read.BatchSink;
import io.chronix.engine.read.ScanHelpers;
import io.chronix.engine.read.ScanResult;
import io.chronix.engine.read.TagRuns;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampNanoVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Answers an {@link AggregateShape} over a scan's batches in Java, the way DuckDB answers it over
 * the same batches, without DuckDB: DuckDB's fixed costs per statement (binding, planning,
 * registering the stream, about 2 ms of CPU) are most of a small query's time, and its hash
 * aggregate hashes tag strings where a scan hands rows over series by series.
 *
 * <p>What makes the answers the same, each checked against DuckDB on random data
 * ({@code EngineAggregationTest}):
 * <ul>
 *   <li>rows are those of the scan with {@code time} in the shape's exact range (the scan's range
 *       may be a microsecond wider); tag predicates the scan applies exactly;</li>
 *   <li>buckets: a floored modulo on epoch nanoseconds, as the sandbox's macros compute them;</li>
 *   <li>NULLs skipped by every aggregate but {@code count(*)}; an aggregate over no value is NULL,
 *       a count 0; a statement without group keys answers one row even over no rows;</li>
 *   <li>{@code min}/{@code max} of doubles order NaN above every number, and keep the last of
 *       equal values (so of {@code -0.0} and {@code 0.0}, the one seen last), also where one
 *       thread's scan feeds two parts (the settled segments', then the row merge's) merged in
 *       that order;</li>
 *   <li>{@code sum} and {@code avg} of doubles add in scan order. DuckDB adds partial sums in an
 *       order of its own, which changes with its threads and the batches' boundaries, so the last
 *       bits of such a sum may differ between DuckDB's runs and from this one; both are sums of
 *       the same values. {@code avg} of integers sums exactly and divides once, as DuckDB does;
 *       a sum beyond ±2^53, where DuckDB's 128-bit sum and a {@code long} could convert to
 *       {@code double} differently, is left to DuckDB ({@link #answer} returns null);</li>
 *   <li>a run of one thread's batches, or several threads' parts merged (large inputs): then
 *       sums add per part first, and which of equal zeros a min or max keeps depends on the
 *       merge, as with DuckDB's threads;</li>
 *   <li>order: the {@code ORDER BY} keys, NULLs last unless asked first, strings by their UTF-8
 *       bytes (DuckDB's binary collation); groups equal on those keys by the remaining keys.</li>
 * </ul>
 */
public final class EngineAggregation {

    /** Above this magnitude a {@code long} sum may not convert to {@code double} as DuckDB's 128-bit one does. */
    private static final long EXACT_DOUBLE = 1L << 53;

    /**
     * Groups one answer may hold in the Java heap (about 30 bytes each, and 24 more per aggregate):
     * a statement with more, such as microsecond buckets over a year, is DuckDB's, whose memory is
     * bounded by {@code chronix.query.memory-limit} and answers 422 beyond it.
     */
    static final int MAX_GROUPS = 1 << 20;

    private final AggregateShape shape;
    private final int maxGroups;
    private final int bucketOutput;
    private final String[] tagColumns;
    private final State[] states;

    /** Distinct combinations of the group-key tags' values, by id; a null element is NULL. */
    private final List<byte[][]> combos = new ArrayList<>();
    private final Map<TagValues, Integer> comboIds = new HashMap<>();
    /** Groups by (combination, bucket): open addressing, each slot a group index + 1, 0 when free. */
    private int[] slots = new int[64];
    private int[] groupCombo = new int[16];
    private long[] groupBucket = new long[16];
    private int groups;
    /** For each output, the index of its tag among {@link #tagColumns}; -1 for others. */
    private final int[] tagIndex;
    /** The sort: outputs, in order, each with its direction and where its NULLs go. */
    private final int[] sortOutputs;
    private final boolean[] sortDescending;
    private final boolean[] sortNullsFirst;

    private EngineAggregation(AggregateShape shape, int maxGroups) {
        this.shape = shape;
        this.maxGroups = maxGroups;
        List<AggregateShape.Output> outputs = shape.outputs();
        List<Integer> keys = new ArrayList<>();
        List<String> tags = new ArrayList<>();
        int bucket = -1;
        List<State> st = new ArrayList<>();
        for (int i = 0; i < outputs.size(); i++) {
            switch (outputs.get(i)) {
                case AggregateShape.Bucket b -> {
                    keys.add(i);
                    bucket = i;
                }
                case AggregateShape.Tag t -> {
                    keys.add(i);
                    if (!tags.contains(t.column())) {
                        tags.add(t.column());
                    }
                }
                case AggregateShape.Aggregate a -> st.add(new State(a));
            }
        }
        this.bucketOutput = bucket;
        this.tagColumns = tags.toArray(String[]::new);
        this.states = st.toArray(State[]::new);
        this.tagIndex = new int[outputs.size()];
        for (int i = 0; i < outputs.size(); i++) {
            tagIndex[i] = outputs.get(i) instanceof AggregateShape.Tag t ? tags.indexOf(t.column()) : -1;
        }
        // the ORDER BY keys, then the remaining group keys ascending: equal rows are one group, so the order is total
        List<AggregateShape.Order> sort = new ArrayList<>(shape.orders());
        for (int k : keys) {
            if (sort.stream().noneMatch(o -> o.output() == k)) {
                sort.add(new AggregateShape.Order(k, false, false));
            }
        }
        this.sortOutputs = sort.stream().mapToInt(AggregateShape.Order::output).toArray();
        this.sortDescending = new boolean[sort.size()];
        this.sortNullsFirst = new boolean[sort.size()];
        for (int i = 0; i < sort.size(); i++) {
            sortDescending[i] = sort.get(i).descending();
            sortNullsFirst[i] = sort.get(i).nullsFirst();
        }
        if (!shape.grouped()) {
            group(0, 0); // one row even over no rows
        }
    }

    /**
     * The answer as DuckDB would give it, in one batch; null if this shape over these rows is
     * DuckDB's to answer (a sum beyond what a {@code long} holds exactly, a bucket beyond the
     * range of a timestamp, a column the scan did not hand over).
     *
     * <p>The batches are shared out between the caller and {@code helpers} when there are enough
     * rows ({@link ScanHelpers#worthWaking}): each thread aggregates the batches it takes into
     * groups of its own, merged at the end. Sums of doubles then add per thread first, as DuckDB's
     * threads do.
     *
     * @param cancelled polled between batches; when true, {@link QueryCancelledException}
     * @param helpers   threads to borrow; null for the caller alone
     */
    public static ScanResult answer(AggregateShape shape, ScanResult input, BufferAllocator allocator, BooleanSupplier cancelled,
                                    ScanHelpers helpers) {
        return answer(shape, input, allocator, cancelled, helpers, MAX_GROUPS);
    }

    /** @param maxGroups more groups than this (per thread, or merged) leave the answer to DuckDB */
    static ScanResult answer(AggregateShape shape, ScanResult input, BufferAllocator allocator, BooleanSupplier cancelled,
                             ScanHelpers helpers, int maxGroups) {
        List<VectorSchemaRoot> batches = input.batches();
        Accumulation accumulation = new Accumulation(shape, cancelled, maxGroups);
        java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicReference<RuntimeException> failure = new java.util.concurrent.atomic.AtomicReference<>();
        Runnable worker = () -> {
            try {
                BatchSink.Consumer part = accumulation.open();
                for (int i = next.getAndIncrement(); i < batches.size() && failure.get() == null; i = next.getAndIncrement()) {
                    if (!part.accept(batches.get(i))) {
                        break;
                    }
                }
            } catch (RuntimeException e) {
                failure.compareAndSet(null, e);
            }
        };
        if (helpers != null && batches.size() > 1 && helpers.worthWaking(input.rowCount())) {
            helpers.run(batches.size(), worker);
        } else {
            worker.run();
        }
        if (failure.get() != null) {
            throw failure.get();
        }
        return accumulation.finish(allocator);
    }

    /**
     * An aggregation fed batch by batch, as a streamed scan reads them
     * ({@link io.chronix.engine.Chronix#scanUnordered(io.chronix.engine.read.ScanRequest, BufferAllocator, ScanHelpers, BatchSink)}):
     * each thread's consumer adds the batches it is handed to a part of its own, and {@link #finish}
     * merges the parts. Once any part is DuckDB's to answer, every consumer refuses further batches
     * (the scan stops) and {@link #finish} answers null.
     *
     * <p>Threading: {@link #open} is thread-safe; each consumer belongs to the thread that opened it.
     */
    static final class Accumulation implements BatchSink {
        private final AggregateShape shape;
        private final BooleanSupplier cancelled;
        private final int maxGroups;
        private final List<EngineAggregation> parts = new ArrayList<>();
        private volatile boolean refused;

        /** @param cancelled polled before each batch; when true, {@link QueryCancelledException} */
        Accumulation(AggregateShape shape, BooleanSupplier cancelled) {
            this(shape, cancelled, MAX_GROUPS);
        }

        Accumulation(AggregateShape shape, BooleanSupplier cancelled, int maxGroups) {
            this.shape = shape;
            this.cancelled = cancelled;
            this.maxGroups = maxGroups;
        }

        @Override
        public BatchSink.Consumer open() {
            EngineAggregation part = new EngineAggregation(shape, maxGroups);
            synchronized (parts) {
                parts.add(part);
            }
            Batch work = part.new Batch();
            return batch -> {
                if (cancelled.getAsBoolean()) {
                    throw new QueryCancelledException();
                }
                if (refused || !work.add(batch)) {
                    refused = true;
                    return false;
                }
                return true;
            };
        }

        /**
         * The answer as DuckDB would give it over every batch handed to the consumers, in one batch;
         * null if it is DuckDB's to give. Call once the consumers are done.
         */
        ScanResult finish(BufferAllocator allocator) {
            List<EngineAggregation> all;
            synchronized (parts) {
                all = List.copyOf(parts);
            }
            if (refused) {
                return null;
            }
            EngineAggregation a = all.isEmpty() ? new EngineAggregation(shape, maxGroups) : all.getFirst();
            for (EngineAggregation p : all) {
                if (p != a && !a.merge(p)) {
                    return null;
                }
            }
            for (State s : a.states) {
                s.ensure(a.groups);
                if (!s.convertsExactly(a.groups)) {
                    return null;
                }
            }
            return a.result(allocator);
        }
    }

    /** One thread's scratch space for adding batches to its part. */
    private final class Batch {
        private final Runs runs = new Runs();
        private final Scratch scratch = new Scratch();
        private final TagRuns[] tags = new TagRuns[tagColumns.length];
        /** Per row of the batch, whether its tags differ from the row before's ({@link TagRuns#markChanges}). */
        private boolean[] changed = new boolean[0];
        private final long bucketWidth;
        private final long bucketOrigin;

        Batch() {
            for (int k = 0; k < tags.length; k++) {
                tags[k] = new TagRuns();
            }
            AggregateShape.Bucket b = bucketOutput >= 0 ? (AggregateShape.Bucket) shape.outputs().get(bucketOutput) : null;
            bucketWidth = b == null ? 0 : b.width();
            bucketOrigin = b == null ? 0 : b.origin();
        }

        /** Adds the batch's rows; false if the answer is DuckDB's to give. */
        boolean add(VectorSchemaRoot batch) {
            int rows = batch.getRowCount();
            if (rows == 0) {
                return true;
            }
            if (!(batch.getVector(io.chronix.engine.schema.Column.TIME) instanceof TimeStampNanoVector time)) {
                return false;
            }
            for (int k = 0; k < tags.length; k++) {
                if (!(batch.getVector(tagColumns[k]) instanceof VarCharVector v)) {
                    return false;
                }
                tags[k].load(v, rows);
            }
            runs.clear();
            if (tags.length > 0) {
                if (changed.length < rows) {
                    changed = new boolean[rows];
                }
                TagRuns.markChanges(tags, rows, changed);
            }
            if (!assignGroups(scratch.times(time, rows), tags, changed, rows, bucketWidth, bucketOrigin, runs)) {
                return false;
            }
            for (State s : states) {
                s.ensure(groups);
                if (!s.add(batch, rows, runs, scratch)) {
                    return false;
                }
            }
            return true;
        }
    }

    /** Adds another part's groups to this one's; false if an integer sum overflows. */
    private boolean merge(EngineAggregation other) {
        int[] combo = new int[other.combos.size()];
        for (int c = 0; c < combo.length; c++) {
            combo[c] = comboId(other.combos.get(c));
        }
        for (int g = 0; g < other.groups; g++) {
            int target = group(combo.length == 0 ? 0 : combo[other.groupCombo[g]], other.groupBucket[g]);
            if (target < 0) {
                return false;
            }
            for (int k = 0; k < states.length; k++) {
                states[k].ensure(groups);
                if (!states[k].combine(target, other.states[k], g)) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Splits the batch's rows into runs of one group each ({@link Runs}), leaving out rows outside
     * the time range; false if a bucket overflows. A scan hands rows over series by series, so a
     * run is usually a series' rows in one bucket, and the group is looked up once per run.
     */
    private boolean assignGroups(long[] times, TagRuns[] tags, boolean[] changed, int rows, long width, long origin, Runs runs) {
        long from = shape.from();
        long to = shape.to();
        boolean grouped = shape.grouped();
        int combo = 0;
        int lastGroup = -1;
        long bucket = 0;
        long bucketEnd = Long.MIN_VALUE; // the current bucket is [bucket, bucketEnd)
        int lastCombo = -1;
        boolean tagsKnown = false; // whether combo holds the tags of row i - 1
        for (int i = 0; i < rows; i++) {
            long t = times[i];
            if (t < from || t > to) {
                lastGroup = -1; // ends the run
                tagsKnown = false;
                continue;
            }
            if (tags.length > 0) {
                if (!tagsKnown || changed[i]) {
                    combo = comboOf(tags, i);
                }
                tagsKnown = true;
            }
            if (width > 0 && (t < bucket || t >= bucketEnd)) {
                bucket = bucketOf(t, width, origin);
                if (bucket == Long.MIN_VALUE) {
                    return false; // beyond the range of a long: DuckDB's to answer
                }
                bucketEnd = bucket + width;
                if (bucketEnd < bucket) {
                    bucketEnd = Long.MAX_VALUE; // the last bucket before the end of time
                }
                lastGroup = -1; // a new bucket: a new run
            }
            if (lastGroup < 0 || combo != lastCombo) {
                lastGroup = grouped ? group(combo, bucket) : 0;
                if (lastGroup < 0) {
                    return false; // too many groups to hold in the heap: DuckDB's, within its memory limit
                }
                lastCombo = combo;
                runs.start(i, lastGroup);
            }
            runs.extend(i);
        }
        return true;
    }

    /**
     * The start of the bucket holding {@code t}: {@code t - ((t - origin) mod width)}, a floored
     * modulo, as the sandbox's macros compute it; {@code Long.MIN_VALUE} if it overflows a long.
     */
    static long bucketOf(long t, long width, long origin) {
        long since = t - origin;
        if (((t ^ origin) & (t ^ since)) < 0) {
            return Long.MIN_VALUE;
        }
        long start = t - Math.floorMod(since, width);
        return start > t ? Long.MIN_VALUE : start;
    }

    private int comboOf(TagRuns[] tags, int i) {
        byte[][] values = new byte[tags.length][];
        for (int k = 0; k < tags.length; k++) {
            values[k] = tags[k].value(i);
        }
        return comboId(values);
    }

    /** The id of a combination of tag values, added if new. */
    private int comboId(byte[][] values) {
        return comboIds.computeIfAbsent(new TagValues(values), key -> {
            combos.add(key.values());
            return combos.size() - 1;
        });
    }

    /** The group of (combination, bucket), added if new; -1 when {@link #maxGroups} are held already. */
    private int group(int combo, long bucket) {
        int mask = slots.length - 1;
        for (int i = slot(combo, bucket) & mask; ; i = (i + 1) & mask) {
            int g = slots[i] - 1;
            if (g < 0) {
                break;
            }
            if (groupBucket[g] == bucket && groupCombo[g] == combo) {
                return g;
            }
        }
        if (groups == maxGroups) {
            return -1;
        }
        if (groups == groupCombo.length) {
            groupCombo = Arrays.copyOf(groupCombo, groups * 2);
            groupBucket = Arrays.copyOf(groupBucket, groups * 2);
        }
        groupCombo[groups] = combo;
        groupBucket[groups] = bucket;
        groups++;
        if (groups * 2 > slots.length) {
            slots = new int[slots.length * 2];
            for (int g = 0; g < groups; g++) {
                insert(g);
            }
        } else {
            insert(groups - 1);
        }
        return groups - 1;
    }

    private void insert(int g) {
        int mask = slots.length - 1;
        int i = slot(groupCombo[g], groupBucket[g]) & mask;
        while (slots[i] != 0) {
            i = (i + 1) & mask;
        }
        slots[i] = g + 1;
    }

    private static int slot(int combo, long bucket) {
        long h = (bucket + combo * 0x9E3779B97F4A7C15L) * 0xC2B2AE3D27D4EB4FL;
        return (int) (h ^ (h >>> 29) ^ (h >>> 47));
    }

    private ScanResult result(BufferAllocator allocator) {
        Integer[] order = new Integer[groups];
        for (int g = 0; g < groups; g++) {
            order[g] = g;
        }
        Arrays.sort(order, this::compare);
        long first = Math.min(shape.offset(), groups);
        int n = (int) Math.min(groups - first, shape.limit());
        List<Field> fields = new ArrayList<>();
        for (AggregateShape.Output o : shape.outputs()) {
            fields.add(Field.nullable(o.name(), arrowType(o)));
        }
        Schema schema = new Schema(fields);
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        try {
            int stateIndex = 0;
            for (int c = 0; c < shape.outputs().size(); c++) {
                FieldVector v = root.getVector(c);
                v.setInitialCapacity(n);
                v.allocateNew();
                AggregateShape.Output o = shape.outputs().get(c);
                switch (o) {
                    case AggregateShape.Bucket b -> {
                        TimeStampNanoVector t = (TimeStampNanoVector) v;
                        for (int r = 0; r < n; r++) {
                            t.setSafe(r, groupBucket[order[(int) first + r]]);
                        }
                    }
                    case AggregateShape.Tag t -> {
                        int k = tagIndex[c];
                        VarCharVector s = (VarCharVector) v;
                        for (int r = 0; r < n; r++) {
                            byte[] value = combos.get(groupCombo[order[(int) first + r]])[k];
                            if (value == null) {
                                s.setNull(r);
                            } else {
                                s.setSafe(r, value);
                            }
                        }
                    }
                    case AggregateShape.Aggregate a -> {
                        State s = states[stateIndex++];
                        for (int r = 0; r < n; r++) {
                            s.write(v, r, order[(int) first + r]);
                        }
                    }
                }
                v.setValueCount(n);
            }
            root.setRowCount(n);
            return new ScanResult(schema, List.of(root));
        } catch (RuntimeException e) {
            root.close();
            throw e;
        }
    }

    private int compare(int x, int y) {
        for (int i = 0; i < sortOutputs.length; i++) {
            int c = compareKey(sortOutputs[i], x, y, sortDescending[i], sortNullsFirst[i]);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    private int compareKey(int output, int x, int y, boolean descending, boolean nullsFirst) {
        int k = tagIndex[output];
        if (k >= 0) {
            return TagValues.compare(combos.get(groupCombo[x])[k], combos.get(groupCombo[y])[k], descending, nullsFirst);
        }
        int c = Long.compare(groupBucket[x], groupBucket[y]);
        return descending ? -c : c;
    }

    private static ArrowType arrowType(AggregateShape.Output o) {
        return switch (o) {
            case AggregateShape.Bucket b -> new ArrowType.Timestamp(org.apache.arrow.vector.types.TimeUnit.NANOSECOND, null);
            case AggregateShape.Tag t -> ArrowType.Utf8.INSTANCE;
            case AggregateShape.Aggregate a -> integerResult(a) ? new ArrowType.Int(64, true)
                    : new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
        };
    }

    private static boolean integerResult(AggregateShape.Aggregate a) {
        return switch (a.function()) {
            case COUNT_STAR, COUNT -> true;
            case MIN, MAX -> a.integer();
            case SUM, AVG -> false;
        };
    }


    /** A batch's rows as runs {@code [start, end)} of one group each, in row order. */
    private static final class Runs {
        int count;
        int[] start = new int[64];
        int[] end = new int[64];
        int[] group = new int[64];

        void clear() {
            count = 0;
        }

        void start(int row, int g) {
            if (count == start.length) {
                start = Arrays.copyOf(start, count * 2);
                end = Arrays.copyOf(end, count * 2);
                group = Arrays.copyOf(group, count * 2);
            }
            start[count] = row;
            end[count] = row;
            group[count++] = g;
        }

        void extend(int row) {
            end[count - 1] = row + 1;
        }
    }

    /**
     * A batch's column copied into a Java array in one bulk copy: the loops over runs then read
     * plain arrays, without the bounds and reference-count checks of each {@code ArrowBuf} read.
     */
    private static final class Scratch {
        private long[] times = new long[0];
        private long[] longs = new long[0];
        private double[] doubles = new double[0];
        private boolean[] nulls = new boolean[0];

        long[] longs(FieldVector v, int rows) {
            longs = copied(v, rows, longs);
            return longs;
        }

        /** The time column; its own array, as the aggregates' columns reuse {@link #longs}. */
        long[] times(FieldVector v, int rows) {
            times = copied(v, rows, times);
            return times;
        }

        /** The vector's first {@code rows} 64-bit values, in {@code into} if it is large enough. */
        private static long[] copied(FieldVector v, int rows, long[] into) {
            long[] to = into.length < rows ? new long[rows] : into;
            ArrowBulk.longs(v.getDataBuffer(), to, rows);
            return to;
        }

        double[] doubles(FieldVector v, int rows) {
            if (doubles.length < rows) {
                doubles = new double[rows];
            }
            ArrowBulk.doubles(v.getDataBuffer(), doubles, rows);
            return doubles;
        }

        boolean[] nulls(FieldVector v, int rows) {
            nulls = TagRuns.nullsOf(v, rows, nulls);
            return nulls;
        }
    }

    /** One aggregate's running values, per group. */
    private static final class State {
        private final AggregateShape.Aggregate aggregate;
        private long[] counts = new long[16];
        private long[] longs = new long[16];
        private double[] doubles = new double[16];

        State(AggregateShape.Aggregate aggregate) {
            this.aggregate = aggregate;
        }

        void ensure(int groups) {
            if (counts.length < groups) {
                int n = Math.max(groups, counts.length * 2);
                counts = Arrays.copyOf(counts, n);
                longs = Arrays.copyOf(longs, n);
                doubles = Arrays.copyOf(doubles, n);
            }
        }

        /** Adds the runs' rows; false if an integer sum overflows a {@code long}. */
        boolean add(VectorSchemaRoot batch, int rows, Runs runs, Scratch scratch) {
            if (aggregate.function() == AggregateShape.Function.COUNT_STAR) {
                for (int r = 0; r < runs.count; r++) {
                    counts[runs.group[r]] += runs.end[r] - runs.start[r];
                }
                return true;
            }
            FieldVector v = batch.getVector(aggregate.column());
            if (v == null) {
                return false;
            }
            boolean[] isNull = v.getNullCount() > 0 ? scratch.nulls(v, rows) : null;
            if (aggregate.function() == AggregateShape.Function.COUNT) {
                for (int r = 0; r < runs.count; r++) {
                    int n = runs.end[r] - runs.start[r];
                    if (isNull != null) {
                        for (int i = runs.start[r]; i < runs.end[r]; i++) {
                            n -= isNull[i] ? 1 : 0;
                        }
                    }
                    counts[runs.group[r]] += n;
                }
                return true;
            }
            if (aggregate.integer()) {
                return v instanceof BigIntVector && addLongs(scratch.longs(v, rows), isNull, runs);
            }
            if (!(v instanceof Float8Vector)) {
                return false;
            }
            addDoubles(scratch.doubles(v, rows), isNull, runs);
            return true;
        }

        private boolean addLongs(long[] x, boolean[] isNull, Runs runs) {
            AggregateShape.Function f = aggregate.function();
            for (int r = 0; r < runs.count; r++) {
                int g = runs.group[r];
                int from = runs.start[r];
                int to = runs.end[r];
                if (isNull != null) {
                    for (int i = from; i < to; i++) {
                        if (!isNull[i] && !addLong(f, g, x[i])) {
                            return false;
                        }
                    }
                    continue;
                }
                if (f == AggregateShape.Function.MIN || f == AggregateShape.Function.MAX) {
                    addLong(f, g, f == AggregateShape.Function.MIN ? min(x, from, to) : max(x, from, to));
                    counts[g] += to - from - 1;
                    continue;
                }
                // a run's sum cannot overflow when every value is below 2^62 / its length in magnitude.
                // The loop ors together each value's magnitude (v ^ v >> 63: v, or -v - 1 below zero)
                // rather than testing each against the bound: two plain reductions the JIT vectorises,
                // a third of the time of the and-ed comparisons on the double-groupby kinds' runs of
                // 360 values. An or of several values may exceed their greatest: then the exact loop
                // below decides, as it does for a real overflow.
                long bound = Long.MAX_VALUE / 2 / (to - from);
                long sum = 0;
                long magnitudes = 0;
                for (int i = from; i < to; i++) {
                    long v = x[i];
                    sum += v;
                    magnitudes |= v ^ (v >> 63);
                }
                if (magnitudes >= bound) {
                    sum = 0;
                    for (int i = from; i < to; i++) {
                        long next = sum + x[i];
                        if (((sum ^ next) & (x[i] ^ next)) < 0) {
                            return false; // overflows a long: DuckDB's to answer
                        }
                        sum = next;
                    }
                }
                long total = longs[g] + sum;
                if (((longs[g] ^ total) & (sum ^ total)) < 0) {
                    return false;
                }
                longs[g] = total;
                counts[g] += to - from;
            }
            return true;
        }

        /*
         * The least and greatest of x[from, to), to >= from + 1. Written as conditional moves, not
         * Math.min/Math.max: HotSpot compiles the intrinsics into a dependent chain that took three
         * times as long per value here.
         */
        private static long min(long[] x, int from, int to) {
            long m = x[from];
            for (int i = from + 1; i < to; i++) {
                long v = x[i];
                m = m <= v ? m : v;
            }
            return m;
        }

        private static long max(long[] x, int from, int to) {
            long m = x[from];
            for (int i = from + 1; i < to; i++) {
                long v = x[i];
                m = m >= v ? m : v;
            }
            return m;
        }

        private boolean addLong(AggregateShape.Function f, int g, long x) {
            long seen = counts[g]++;
            switch (f) {
                case MIN -> longs[g] = seen == 0 || x < longs[g] ? x : longs[g];
                case MAX -> longs[g] = seen == 0 || x > longs[g] ? x : longs[g];
                default -> {
                    long s = longs[g] + x;
                    if (((longs[g] ^ s) & (x ^ s)) < 0) {
                        return false;
                    }
                    longs[g] = s;
                }
            }
            return true;
        }

        private void addDoubles(double[] x, boolean[] isNull, Runs runs) {
            AggregateShape.Function f = aggregate.function();
            boolean sum = f != AggregateShape.Function.MIN && f != AggregateShape.Function.MAX;
            for (int r = 0; r < runs.count; r++) {
                int g = runs.group[r];
                if (sum && isNull == null) {
                    // the same additions in the same order as the loop below, kept in a local
                    double s = doubles[g];
                    for (int i = runs.start[r]; i < runs.end[r]; i++) {
                        s += x[i];
                    }
                    doubles[g] = s;
                    counts[g] += runs.end[r] - runs.start[r];
                    continue;
                }
                for (int i = runs.start[r]; i < runs.end[r]; i++) {
                    if (isNull != null && isNull[i]) {
                        continue;
                    }
                    long seen = counts[g]++;
                    switch (f) {
                        case MIN -> doubles[g] = seen == 0 || keeps(false, doubles[g], x[i]) ? x[i] : doubles[g];
                        case MAX -> doubles[g] = seen == 0 || keeps(true, doubles[g], x[i]) ? x[i] : doubles[g];
                        default -> doubles[g] += x[i];
                    }
                }
            }
        }

        /** Adds group {@code g} of another part's state to group {@code target}; false if an integer sum overflows. */
        boolean combine(int target, State other, int g) {
            long n = other.counts[g];
            if (n == 0) {
                return true;
            }
            long seen = counts[target];
            counts[target] += n;
            switch (aggregate.function()) {
                case COUNT_STAR, COUNT -> {
                }
                case MIN, MAX -> {
                    boolean max = aggregate.function() == AggregateShape.Function.MAX;
                    if (aggregate.integer()) {
                        long x = other.longs[g];
                        longs[target] = seen == 0 || (max ? x > longs[target] : x < longs[target]) ? x : longs[target];
                    } else {
                        double x = other.doubles[g];
                        // the other part's rows came later (parts merge in the order they were opened, which
                        // on one thread is the scan's order): of equal values it keeps the other's, as one part would
                        doubles[target] = seen == 0 || keeps(max, doubles[target], x) ? x : doubles[target];
                    }
                }
                case SUM, AVG -> {
                    if (aggregate.integer()) {
                        long s = longs[target] + other.longs[g];
                        if (((longs[target] ^ s) & (other.longs[g] ^ s)) < 0) {
                            return false;
                        }
                        longs[target] = s;
                    } else {
                        doubles[target] += other.doubles[g];
                    }
                }
            }
            return true;
        }

        /** Whether every integer sum converts to {@code double} exactly, as it must to divide as DuckDB does. */
        boolean convertsExactly(int groups) {
            if (aggregate.function() != AggregateShape.Function.AVG || !aggregate.integer()) {
                return true;
            }
            for (int g = 0; g < groups; g++) {
                if (longs[g] > EXACT_DOUBLE || longs[g] < -EXACT_DOUBLE) {
                    return false;
                }
            }
            return true;
        }

        /**
         * Whether a min ({@code max} false) or max that holds {@code current} takes {@code next}, seen
         * after it: when {@code next} is at least as small (large), so of equal values the last is
         * kept, as DuckDB keeps it ({@code -0.0} and {@code 0.0} are equal but print differently).
         */
        private static boolean keeps(boolean max, double current, double next) {
            return max ? !greater(current, next) : !greater(next, current);
        }

        /** DuckDB's order of doubles: NaN above everything, equal to itself; {@code -0.0} equal to {@code 0.0}. */
        private static boolean greater(double a, double b) {
            if (Double.isNaN(a)) {
                return !Double.isNaN(b);
            }
            return !Double.isNaN(b) && a > b;
        }

        void write(FieldVector v, int row, int g) {
            long n = counts[g];
            switch (aggregate.function()) {
                case COUNT_STAR, COUNT -> ((BigIntVector) v).setSafe(row, n);
                case MIN, MAX -> {
                    if (n == 0) {
                        v.setNull(row);
                    } else if (aggregate.integer()) {
                        ((BigIntVector) v).setSafe(row, longs[g]);
                    } else {
                        ((Float8Vector) v).setSafe(row, doubles[g]);
                    }
                }
                case SUM -> {
                    if (n == 0) {
                        v.setNull(row);
                    } else {
                        ((Float8Vector) v).setSafe(row, doubles[g]);
                    }
                }
                case AVG -> {
                    if (n == 0) {
                        v.setNull(row);
                    } else {
                        double sum = aggregate.integer() ? (double) longs[g] : doubles[g];
                        ((Float8Vector) v).setSafe(row, sum / n);
                    }
                }
            }
        }
    }
}
