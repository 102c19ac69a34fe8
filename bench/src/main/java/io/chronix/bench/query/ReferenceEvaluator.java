package io.chronix.bench.query;

import io.chronix.bench.generator.CpuOnlyConfig;
import io.chronix.bench.generator.CpuOnlyGenerator;
import io.chronix.bench.generator.Dataset;
import io.chronix.bench.generator.TickSink;
import io.chronix.bench.generator.TsbsValueSets;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Computes the true answer of each query from the generator's own output, in one streaming pass
 * over the data set (nothing is stored but the aggregates), so checking scales with the answer, not
 * the data. The semantics are those of the SQL each dialect renders: buckets aligned to the Unix
 * epoch, windows {@code [start, end)}, mean as the arithmetic mean of the emitted values, rows
 * ordered by time then hostname (string order, as SQL sorts it).
 */
public final class ReferenceEvaluator {
    private ReferenceEvaluator() {
    }

    /** Generates the data set for {@code config} and returns each instance's reference answer. */
    public static Map<QueryInstance, ResultTable> evaluate(CpuOnlyConfig config, List<QueryInstance> queries) {
        CpuOnlyGenerator generator = new CpuOnlyGenerator(config);
        Dataset dataset = generator.dataset();
        Map<QueryInstance, Accumulator> accumulators = new IdentityHashMap<>();
        for (QueryInstance q : queries) {
            accumulators.put(q, accumulatorFor(q, dataset));
        }
        List<Accumulator> all = List.copyOf(accumulators.values());
        generator.generate(new TickSink() {
            @Override
            public void tick(long timeNanos, double[][] values) {
                for (Accumulator a : all) {
                    a.tick(timeNanos, values);
                }
            }
        });
        Map<QueryInstance, ResultTable> out = new IdentityHashMap<>();
        accumulators.forEach((q, a) -> out.put(q, a.result()));
        return out;
    }

    private static Accumulator accumulatorFor(QueryInstance q, Dataset dataset) {
        return switch (q.kind().family()) {
            case SINGLE_GROUPBY, MAX_ALL -> new BucketAggregate(q, dataset, false, false, "max_");
            case DOUBLE_GROUPBY -> new BucketAggregate(q, dataset, true, true, "mean_");
            case GROUPBY_ORDERBY_LIMIT -> new BucketAggregate(q, dataset, false, false, "max_");
            case HIGH_CPU -> new HighCpu(q, dataset);
            case LASTPOINT -> new LastPoint(dataset);
        };
    }

    private interface Accumulator {
        void tick(long t, double[][] values);

        ResultTable result();
    }

    private static int[] selectedHosts(QueryInstance q, Dataset dataset) {
        if (q.allHosts()) {
            int[] all = new int[dataset.hosts().size()];
            for (int i = 0; i < all.length; i++) {
                all[i] = i;
            }
            return all;
        }
        return q.hosts().stream().mapToInt(Integer::intValue).toArray();
    }

    private static boolean inWindow(QueryInstance q, long t) {
        return t >= q.startNanos() && t < q.endNanos();
    }

    /** max or mean of the first N fields per epoch-aligned bucket, optionally per host. */
    private static final class BucketAggregate implements Accumulator {
        private final QueryInstance q;
        private final Dataset dataset;
        private final int[] hosts;
        private final boolean perHost;
        private final boolean mean;
        private final String prefix;
        private final long bucket;
        private final int metrics;
        /** bucket start → [host slot][metric] running max, or sum; counts for the mean. */
        private final TreeMap<Long, double[][]> aggregates = new TreeMap<>();
        private final TreeMap<Long, long[]> counts = new TreeMap<>();

        BucketAggregate(QueryInstance q, Dataset dataset, boolean perHost, boolean mean, String prefix) {
            this.q = q;
            this.dataset = dataset;
            this.hosts = selectedHosts(q, dataset);
            this.perHost = perHost;
            this.mean = mean;
            this.prefix = prefix;
            this.bucket = q.kind().bucket().toNanos();
            this.metrics = q.kind().metrics();
        }

        @Override
        public void tick(long t, double[][] values) {
            if (!inWindow(q, t)) {
                return;
            }
            long b = Math.floorDiv(t, bucket) * bucket;
            int slots = perHost ? hosts.length : 1;
            double[][] agg = aggregates.computeIfAbsent(b, k -> {
                double[][] a = new double[slots][metrics];
                if (!mean) {
                    for (double[] row : a) {
                        java.util.Arrays.fill(row, Double.NEGATIVE_INFINITY);
                    }
                }
                return a;
            });
            long[] n = counts.computeIfAbsent(b, k -> new long[slots]);
            for (int s = 0; s < hosts.length; s++) {
                int h = hosts[s];
                int slot = perHost ? s : 0;
                for (int m = 0; m < metrics; m++) {
                    double v = values[m][h];
                    if (mean) {
                        agg[slot][m] += v;
                    } else if (v > agg[slot][m]) {
                        agg[slot][m] = v;
                    }
                }
                n[slot]++;
            }
        }

        @Override
        public ResultTable result() {
            List<String> columns = new ArrayList<>();
            columns.add(ResultTable.TIME);
            if (perHost) {
                columns.add("hostname");
            }
            for (String m : q.metrics()) {
                columns.add(prefix + m);
            }
            List<List<Object>> rows = new ArrayList<>();
            for (Map.Entry<Long, double[][]> e : aggregates.entrySet()) {
                long[] n = counts.get(e.getKey());
                for (int slot = 0; slot < e.getValue().length; slot++) {
                    if (n[slot] == 0) {
                        continue;
                    }
                    List<Object> row = new ArrayList<>();
                    row.add(e.getKey());
                    if (perHost) {
                        row.add(dataset.hosts().get(hosts[slot]).hostname());
                    }
                    for (int m = 0; m < metrics; m++) {
                        double v = e.getValue()[slot][m];
                        row.add(mean ? v / n[slot] : v);
                    }
                    rows.add(row);
                }
            }
            Comparator<List<Object>> order = Comparator.comparing(r -> (Long) r.get(0));
            if (perHost) {
                order = order.thenComparing(r -> (String) r.get(1));
            }
            rows.sort(order);
            if (q.kind().family() == QueryKind.Family.GROUPBY_ORDERBY_LIMIT) {
                rows = new ArrayList<>(rows.reversed().subList(0, Math.min(5, rows.size())));
            }
            return new ResultTable(columns, rows);
        }
    }

    /** Every row with usage_user &gt; 90 in the window, for the selected hosts. */
    private static final class HighCpu implements Accumulator {
        private final QueryInstance q;
        private final Dataset dataset;
        private final int[] hosts;
        private final List<List<Object>> rows = new ArrayList<>();

        HighCpu(QueryInstance q, Dataset dataset) {
            this.q = q;
            this.dataset = dataset;
            this.hosts = selectedHosts(q, dataset);
        }

        @Override
        public void tick(long t, double[][] values) {
            if (!inWindow(q, t)) {
                return;
            }
            for (int h : hosts) {
                if (values[0][h] > 90.0) {
                    rows.add(fullRow(dataset, t, h, values));
                }
            }
        }

        @Override
        public ResultTable result() {
            rows.sort(Comparator.<List<Object>, Long>comparing(r -> (Long) r.get(0))
                    .thenComparing(r -> (String) r.get(1)));
            return new ResultTable(fullColumns(), rows);
        }
    }

    /** The last row of each host: every host has a row in every tick, so it is the last tick. */
    private static final class LastPoint implements Accumulator {
        private final Dataset dataset;
        private long last = Long.MIN_VALUE;
        private double[][] lastValues;

        LastPoint(Dataset dataset) {
            this.dataset = dataset;
        }

        @Override
        public void tick(long t, double[][] values) {
            last = t;
            if (lastValues == null) {
                lastValues = new double[values.length][];
            }
            for (int f = 0; f < values.length; f++) {
                lastValues[f] = values[f].clone();
            }
        }

        @Override
        public ResultTable result() {
            List<List<Object>> rows = new ArrayList<>();
            for (int h = 0; h < dataset.hosts().size(); h++) {
                rows.add(fullRow(dataset, last, h, lastValues));
            }
            rows.sort(Comparator.comparing(r -> (String) r.get(1)));
            return new ResultTable(fullColumns(), rows);
        }
    }

    private static List<String> fullColumns() {
        List<String> columns = new ArrayList<>();
        columns.add(ResultTable.TIME);
        columns.add("hostname");
        columns.addAll(TsbsValueSets.FIELDS);
        return columns;
    }

    private static List<Object> fullRow(Dataset dataset, long t, int h, double[][] values) {
        List<Object> row = new ArrayList<>(12);
        row.add(t);
        row.add(dataset.hosts().get(h).hostname());
        for (double[] field : values) {
            row.add(field[h]);
        }
        return row;
    }
}
