package io.chronix.engine;

import io.chronix.engine.model.FieldType;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.read.ScanResult;
import io.chronix.engine.rollup.Aggregate;
import io.chronix.engine.rollup.RollupConfig;
import io.chronix.engine.schema.Column;
import io.chronix.engine.schema.MeasurementSchema;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An independent recomputation of a rollup: reads the source's surviving rows with an ordered
 * scan and aggregates them naively (lists of values per series, bucket and field), rendering rows
 * as {@link EngineFixture#render} does, for the target's fields in name order.
 */
final class RollupModel {

    private RollupModel() {
    }

    /** Expected target rows of buckets starting in {@code [from, to)}, sorted as strings. */
    static List<String> expected(Chronix engine, RollupConfig c, long from, long to, BufferAllocator allocator) {
        MeasurementSchema source = engine.schema(c.source()).orElse(null);
        if (source == null) {
            return List.of();
        }
        // series key → bucket start → field → values in time order (with their types)
        TreeMap<String, TreeMap<Long, TreeMap<String, List<long[]>>>> groups = new TreeMap<>();
        Map<String, FieldType> types = new TreeMap<>();
        List<Column> numeric = source.fields().stream()
                .filter(f -> f.type() == FieldType.FLOAT || f.type() == FieldType.INTEGER || f.type() == FieldType.UNSIGNED).toList();
        numeric.forEach(f -> types.put(f.name(), f.type()));
        try (ScanResult r = engine.scanStored(ScanRequest.all(c.source()), allocator, true)) {
            for (VectorSchemaRoot root : r.batches()) {
                TimeStampVector time = (TimeStampVector) root.getVector(Column.TIME);
                for (int row = 0; row < root.getRowCount(); row++) {
                    StringBuilder key = new StringBuilder();
                    for (Column t : source.tags()) {
                        VarCharVector v = (VarCharVector) root.getVector(t.name());
                        key.append(t.name()).append('=').append(v.isNull(row) ? "<null>"
                                : "\"" + new String(v.get(row), StandardCharsets.UTF_8) + "\"").append('|');
                    }
                    long ts = time.get(row);
                    long start = c.bucket().startOf(ts);
                    if (start < from || start >= to) {
                        continue;
                    }
                    for (Column f : numeric) {
                        FieldVector v = root.getVector(f.name());
                        if (v == null || v.isNull(row)) {
                            continue;
                        }
                        long bits = switch (v) {
                            case Float8Vector d -> Double.doubleToRawLongBits(d.get(row));
                            case BigIntVector i -> i.get(row);
                            case UInt8Vector u -> u.get(row);
                            default -> throw new IllegalStateException();
                        };
                        if (f.type() == FieldType.FLOAT && Double.isNaN(Double.longBitsToDouble(bits))) {
                            continue;
                        }
                        groups.computeIfAbsent(key.toString(), k -> new TreeMap<>()).computeIfAbsent(start, k -> new TreeMap<>())
                                .computeIfAbsent(f.name(), k -> new ArrayList<>()).add(new long[] {ts, bits});
                    }
                }
            }
        }
        List<String> out = new ArrayList<>();
        MeasurementSchema target = engine.schema(c.target()).orElseThrow(); // declared with its source
        groups.forEach((series, buckets) -> buckets.forEach((start, fields) -> {
            StringBuilder sb = new StringBuilder("time=" + start + "|" + series);
            for (Column col : target.fields()) {
                String cell = "<null>";
                for (Map.Entry<String, List<long[]>> f : fields.entrySet()) {
                    for (Aggregate a : c.aggregates()) {
                        if (a.targetField(f.getKey()).equals(col.name())) {
                            cell = aggregate(a, types.get(f.getKey()), f.getValue());
                        }
                    }
                }
                sb.append(col.name()).append('=').append(cell).append('|');
            }
            out.add(sb.substring(0, sb.length() - 1));
        }));
        // a target tag the source lacks never gets a value: render it as the scan does
        out.sort(null);
        return out;
    }

    private static String aggregate(Aggregate a, FieldType type, List<long[]> values) {
        double sum = 0;
        long min = values.getFirst()[1];
        long max = min;
        for (long[] v : values) {
            sum += asDouble(type, v[1]);
            if (compare(type, v[1], min) < 0) {
                min = v[1];
            }
            if (compare(type, v[1], max) > 0) {
                max = v[1];
            }
        }
        return switch (a) {
            case AVG -> Double.toString(sum / values.size());
            case SUM -> Double.toString(sum);
            case COUNT -> values.size() + "i";
            case MIN -> render(type, min);
            case MAX -> render(type, max);
            case FIRST -> render(type, values.getFirst()[1]);
            case LAST -> render(type, values.getLast()[1]);
        };
    }

    private static double asDouble(FieldType t, long bits) {
        return switch (t) {
            case FLOAT -> Double.longBitsToDouble(bits);
            case INTEGER -> bits;
            default -> Double.parseDouble(Long.toUnsignedString(bits));
        };
    }

    private static int compare(FieldType t, long a, long b) {
        return switch (t) {
            case FLOAT -> Double.compare(Double.longBitsToDouble(a) + 0.0, Double.longBitsToDouble(b) + 0.0);
            case INTEGER -> Long.compare(a, b);
            default -> Long.compareUnsigned(a, b);
        };
    }

    private static String render(FieldType t, long bits) {
        return switch (t) {
            case FLOAT -> Double.toString(Double.longBitsToDouble(bits));
            case INTEGER -> bits + "i";
            default -> Long.toUnsignedString(bits) + "u";
        };
    }

    /** A scan's rows, sorted as strings. */
    static List<String> sorted(List<String> rows) {
        List<String> out = new ArrayList<>(rows);
        out.sort(null);
        return out;
    }
}
