package io.chronix.engine;

import io.chronix.engine.memtable.Memtable;
import io.chronix.engine.memtable.RowSink;
import io.chronix.engine.memtable.SeriesRef;
import io.chronix.engine.model.FieldType;
import io.chronix.engine.schema.MeasurementSchema;
import io.chronix.engine.schema.SchemaRegistry;
import io.chronix.engine.segment.SegmentColumns;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a frozen memtable into segment input: per measurement, the rows series by series (series
 * ordered by their tag values over the measurement's tag keys taken in ascending cardinality, an
 * absent tag first — the order {@link SegmentColumns} requires) and in time order, one row per timestamp (the buffers resolve
 * last write wins), cut into chunks of at most {@code maxRows} rows.
 *
 * <p>Builds primitive columns straight off the series buffers; no point object is rebuilt.
 */
final class MemtableFlush {

    private MemtableFlush() {
    }

    /** The chunks of {@code m}, grouped by measurement (sorted by name). */
    static Map<String, List<SegmentColumns>> columns(Memtable m, SchemaRegistry schema, long targetSegmentBytes) {
        Map<String, List<SeriesRef>> byMeasurement = new LinkedHashMap<>();
        for (SeriesRef s : m.series()) {
            byMeasurement.computeIfAbsent(s.measurement(), k -> new ArrayList<>()).add(s);
        }
        Map<String, List<SegmentColumns>> out = new LinkedHashMap<>();
        for (Map.Entry<String, List<SeriesRef>> e : byMeasurement.entrySet()) {
            out.put(e.getKey(), measurement(m, schema, e.getKey(), e.getValue(), targetSegmentBytes));
        }
        return out;
    }

    private static List<SegmentColumns> measurement(Memtable m, SchemaRegistry schema, String measurement, List<SeriesRef> series,
            long targetSegmentBytes) {
        MeasurementSchema ms = schema.schema(measurement).orElseThrow();
        // tags in ascending cardinality (ties by name): the sort order SegmentColumns takes, which
        // keeps a series' rows together and makes the low-cardinality tags' runs long (seed 001)
        String[] byName = ms.tags().stream().map(c -> c.name()).toArray(String[]::new);
        Map<String, Integer> cardinality = new java.util.HashMap<>();
        for (String k : byName) {
            java.util.Set<String> distinct = new java.util.HashSet<>();
            for (SeriesRef s : series) {
                distinct.add(String.valueOf(s.tag(k)));
            }
            cardinality.put(k, distinct.size());
        }
        String[] tagKeys = byName.clone();
        Arrays.sort(tagKeys, java.util.Comparator.comparing((String k) -> cardinality.get(k)).thenComparing(k -> k));
        int fieldCount = schema.fieldCount(measurement);
        FieldType[] types = new FieldType[fieldCount];
        String[] names = new String[fieldCount];
        for (int o = 0; o < fieldCount; o++) {
            SchemaRegistry.FieldInfo fi = schema.fieldByOrdinal(measurement, o);
            types[o] = fi.type();
            names[o] = fi.name();
        }
        // series in SegmentColumns order: tag values over tagKeys, absent first
        String[][] tuples = new String[series.size()][];
        Integer[] order = new Integer[series.size()];
        for (int i = 0; i < series.size(); i++) {
            SeriesRef s = series.get(i);
            tuples[i] = new String[tagKeys.length];
            for (int k = 0; k < tagKeys.length; k++) {
                tuples[i][k] = s.tag(tagKeys[k]);
            }
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> SegmentColumns.compareTuples(tuples[a], tuples[b]));

        long appended = 0;
        for (SeriesRef s : series) {
            appended += m.appendedPoints(s);
        }
        // sized once from what the buffers hold (an upper bound: duplicates merge), so gathering the
        // rows never grows a column by copying it
        Rows rows = new Rows(fieldCount, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(1, appended)));
        for (Integer i : order) {
            rows.series = tuples[i];
            m.read(series.get(i), Long.MIN_VALUE, Long.MAX_VALUE, rows);
        }
        long rowBytes = 8 + 8L * Math.max(1, rows.usedFields()) + 4L * tagKeys.length;
        int maxRows = (int) Math.max(1, Math.min(Integer.MAX_VALUE - 8, targetSegmentBytes / rowBytes));
        List<SegmentColumns> chunks = new ArrayList<>();
        for (int from = 0; from < rows.size; from += maxRows) {
            int to = Math.min(rows.size, from + maxRows);
            chunks.add(rows.chunk(measurement, tagKeys, names, types, from, to));
        }
        return chunks;
    }

    /** Rows gathered from the buffers, primitive columns indexed by field ordinal. */
    private static final class Rows implements RowSink {
        String[] series;
        int size;
        long[] ts;
        String[][] tuples;
        final long[][] bits;
        final String[][] strings;
        final long[][] present;
        final boolean[] used;
        int row;

        Rows(int fields, int capacity) {
            ts = new long[capacity];
            tuples = new String[capacity][];
            bits = new long[fields][];
            strings = new String[fields][];
            present = new long[fields][];
            used = new boolean[fields];
        }

        int usedFields() {
            int n = 0;
            for (boolean u : used) {
                n += u ? 1 : 0;
            }
            return n;
        }

        @Override
        public void beginRow(SeriesRef s, long timestamp) {
            if (size == ts.length) {
                ts = Arrays.copyOf(ts, size * 2);
                tuples = Arrays.copyOf(tuples, size * 2);
            }
            row = size++;
            ts[row] = timestamp;
            tuples[row] = series;
        }

        private void ensure(int o, boolean string) {
            used[o] = true;
            int cap = ts.length;
            if (string) {
                if (strings[o] == null || strings[o].length < cap) {
                    strings[o] = strings[o] == null ? new String[cap] : Arrays.copyOf(strings[o], cap);
                }
            } else if (bits[o] == null || bits[o].length < cap) {
                bits[o] = bits[o] == null ? new long[cap] : Arrays.copyOf(bits[o], cap);
            }
            int words = (cap + 63) >>> 6;
            if (present[o] == null || present[o].length < words) {
                present[o] = present[o] == null ? new long[words] : Arrays.copyOf(present[o], words);
            }
        }

        @Override
        public void bitsField(int ordinal, FieldType type, long v) {
            ensure(ordinal, false);
            bits[ordinal][row] = v;
            present[ordinal][row >>> 6] |= 1L << row;
        }

        @Override
        public void stringField(int ordinal, String value) {
            ensure(ordinal, true);
            strings[ordinal][row] = value;
            present[ordinal][row >>> 6] |= 1L << row;
        }

        @Override
        public void endRow() {
        }

        /**
         * {@code a[from, to)}: the array itself when that is all of it (the common case of one chunk
         * per measurement and no duplicate timestamps; each column goes to exactly one chunk, and the
         * rows are not read again), a copy otherwise.
         */
        private static long[] slice(long[] a, int from, int to) {
            return from == 0 && to == a.length ? a : Arrays.copyOfRange(a, from, to);
        }

        SegmentColumns chunk(String measurement, String[] tagKeys, String[] names, FieldType[] types, int from, int to) {
            int n = to - from;
            SegmentColumns.Builder b = SegmentColumns.builder(measurement, n).time(slice(ts, from, to));
            for (int k = 0; k < tagKeys.length; k++) {
                String[] values = new String[n];
                boolean any = false;
                for (int i = 0; i < n; i++) {
                    values[i] = tuples[from + i][k];
                    any |= values[i] != null;
                }
                if (any) {
                    b.tag(tagKeys[k], values);
                }
            }
            for (int o = 0; o < names.length; o++) {
                if (!used[o]) {
                    continue;
                }
                long[] validity = new long[(n + 63) >>> 6];
                boolean any = false;
                boolean allPresent = true;
                for (int i = 0; i < n; i++) {
                    int r = from + i;
                    if ((present[o][r >>> 6] & (1L << r)) != 0) {
                        validity[i >>> 6] |= 1L << i;
                        any = true;
                    } else {
                        allPresent = false;
                    }
                }
                if (!any) {
                    continue;
                }
                long[] v = allPresent ? null : validity;
                switch (types[o]) {
                    case FLOAT -> {
                        double[] d = new double[n];
                        for (int i = 0; i < n; i++) {
                            d[i] = Double.longBitsToDouble(bits[o][from + i]);
                        }
                        b.floatField(names[o], d, v);
                    }
                    case INTEGER -> b.integerField(names[o], slice(bits[o], from, to), v);
                    case UNSIGNED -> b.unsignedField(names[o], slice(bits[o], from, to), v);
                    case BOOLEAN -> {
                        boolean[] z = new boolean[n];
                        for (int i = 0; i < n; i++) {
                            z[i] = bits[o][from + i] != 0;
                        }
                        b.booleanField(names[o], z, v);
                    }
                    case STRING -> {
                        String[] s = new String[n];
                        for (int i = 0; i < n; i++) {
                            int r = from + i;
                            s[i] = (present[o][r >>> 6] & (1L << r)) != 0 ? strings[o][r] : null;
                        }
                        b.stringField(names[o], s);
                    }
                }
            }
            return b.build();
        }
    }
}
