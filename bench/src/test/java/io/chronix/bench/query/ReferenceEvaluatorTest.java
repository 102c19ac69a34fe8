package io.chronix.bench.query;

import io.chronix.bench.generator.CpuOnlyConfig;
import io.chronix.bench.generator.CpuOnlyGenerator;
import io.chronix.bench.generator.Dataset;
import io.chronix.bench.generator.TickSink;
import io.chronix.bench.generator.TsbsValueSets;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The streaming reference must agree with a plain, row-by-row evaluation of the same SQL semantics
 * over all generated rows; and a deliberately wrong answer must be rejected by the checker.
 */
class ReferenceEvaluatorTest {
    private static final CpuOnlyConfig DATA = CpuOnlyConfig.of(12, Duration.ofHours(13), 5, true);

    record Row(long time, int host, double[] fields) {
    }

    private static List<Row> allRows() {
        List<Row> rows = new ArrayList<>();
        new CpuOnlyGenerator(DATA).generate(new TickSink() {
            @Override
            public void tick(long t, double[][] values) {
                for (int h = 0; h < values[0].length; h++) {
                    double[] f = new double[values.length];
                    for (int i = 0; i < values.length; i++) {
                        f[i] = values[i][h];
                    }
                    rows.add(new Row(t, h, f));
                }
            }
        });
        return rows;
    }

    @Test
    void everyQueryMatchesABruteForceEvaluation() {
        List<QueryInstance> plan = new QueryPlanner(DATA, 3).plan(QueryKind.all(), 2);
        Map<QueryInstance, ResultTable> reference = ReferenceEvaluator.evaluate(DATA, plan);
        List<Row> rows = allRows();
        Dataset dataset = new CpuOnlyGenerator(DATA).dataset();
        for (QueryInstance q : plan) {
            ResultTable brute = bruteForce(q, rows, dataset);
            assertThatCode(() -> AnswerChecker.check(q.describe(), reference.get(q), brute, true))
                    .as(q.describe()).doesNotThrowAnyException();
            if (q.kind().family() != QueryKind.Family.HIGH_CPU) { // a host may never pass 90 in 12 h
                assertThat(reference.get(q).size()).as(q.describe()).isPositive();
            }
        }
    }

    @Test
    void aFastWrongAnswerIsRejected() {
        QueryInstance q = new QueryPlanner(DATA, 3).next(QueryKind.CPU_MAX_ALL_8);
        ResultTable right = ReferenceEvaluator.evaluate(DATA, List.of(q)).get(q);
        // the classic wrong answer: the window end taken as inclusive adds a bucket's worth of rows
        QueryInstance widened = new QueryInstance(q.kind(), q.hosts(), q.startNanos(), q.endNanos() + 3_600_000_000_000L);
        ResultTable wrong = ReferenceEvaluator.evaluate(DATA, List.of(widened)).get(widened);
        assertThatThrownBy(() -> AnswerChecker.check("cpu-max-all-8", right, wrong, true))
                .isInstanceOf(WrongAnswerException.class);
        // and a max taken over one host fewer
        QueryInstance fewer = new QueryInstance(q.kind(), q.hosts().subList(0, 7), q.startNanos(), q.endNanos());
        ResultTable partial = ReferenceEvaluator.evaluate(DATA, List.of(fewer)).get(fewer);
        assertThatThrownBy(() -> AnswerChecker.check("cpu-max-all-8", right, partial, true))
                .isInstanceOf(WrongAnswerException.class);
    }

    @Test
    void plannerIsDeterministicAndStaysInsideTheData() {
        List<QueryInstance> a = new QueryPlanner(DATA, 9).plan(QueryKind.all(), 5);
        List<QueryInstance> b = new QueryPlanner(DATA, 9).plan(QueryKind.all(), 5);
        assertThat(a).isEqualTo(b);
        for (QueryInstance q : a) {
            if (q.hasStart()) {
                assertThat(q.startNanos()).isGreaterThanOrEqualTo(DATA.startNanos());
                assertThat(q.startNanos() % 1_000_000_000L).isZero();
                assertThat(q.endNanos() - q.startNanos()).isEqualTo(q.kind().window().toNanos());
            }
            if (q.hasEnd()) {
                assertThat(q.endNanos()).isLessThanOrEqualTo(DATA.endNanos());
            }
            assertThat(q.hosts()).doesNotHaveDuplicates().hasSize(q.kind().hosts());
        }
        assertThatThrownBy(() -> new QueryPlanner(CpuOnlyConfig.of(12, Duration.ofHours(6), 5, true), 1)
                .next(QueryKind.DOUBLE_GROUPBY_1)).hasMessageContaining("window");
    }

    private static ResultTable bruteForce(QueryInstance q, List<Row> rows, Dataset dataset) {
        List<String> metrics = q.metrics();
        List<Row> selected = rows.stream()
                .filter(r -> q.allHosts() || q.hosts().contains(r.host()))
                .filter(r -> r.time() >= q.startNanos() && r.time() < q.endNanos())
                .toList();
        String host0 = "hostname";
        return switch (q.kind().family()) {
            case SINGLE_GROUPBY, MAX_ALL, GROUPBY_ORDERBY_LIMIT -> {
                long width = q.kind().bucket().toNanos();
                TreeMap<Long, double[]> max = new TreeMap<>();
                for (Row r : selected) {
                    double[] m = max.computeIfAbsent(r.time() / width * width, k -> {
                        double[] init = new double[metrics.size()];
                        java.util.Arrays.fill(init, -1);
                        return init;
                    });
                    for (int i = 0; i < metrics.size(); i++) {
                        m[i] = Math.max(m[i], r.fields()[i]);
                    }
                }
                List<String> cols = new ArrayList<>(List.of("time"));
                metrics.forEach(m -> cols.add("max_" + m));
                List<List<Object>> out = new ArrayList<>();
                max.forEach((t, m) -> {
                    List<Object> row = new ArrayList<>(List.of(t));
                    for (double v : m) {
                        row.add(v);
                    }
                    out.add(row);
                });
                if (q.kind().family() == QueryKind.Family.GROUPBY_ORDERBY_LIMIT) {
                    List<List<Object>> last = new ArrayList<>(out.reversed().subList(0, 5));
                    yield new ResultTable(cols, last);
                }
                yield new ResultTable(cols, out);
            }
            case DOUBLE_GROUPBY -> {
                TreeMap<String, double[]> sums = new TreeMap<>();
                Map<String, Long> times = new TreeMap<>();
                for (Row r : selected) {
                    long b = r.time() / 3_600_000_000_000L * 3_600_000_000_000L;
                    String key = String.format("%020d/%s", b, TsbsValueSets.hostname(r.host()));
                    times.put(key, b);
                    double[] s = sums.computeIfAbsent(key, k -> new double[metrics.size() + 1]);
                    for (int i = 0; i < metrics.size(); i++) {
                        s[i] += r.fields()[i];
                    }
                    s[metrics.size()]++;
                }
                List<String> cols = new ArrayList<>(List.of("time", host0));
                metrics.forEach(m -> cols.add("mean_" + m));
                List<List<Object>> out = new ArrayList<>();
                sums.forEach((k, s) -> {
                    List<Object> row = new ArrayList<>(List.of(times.get(k), k.substring(21)));
                    for (int i = 0; i < metrics.size(); i++) {
                        row.add(s[i] / s[metrics.size()]);
                    }
                    out.add(row);
                });
                yield new ResultTable(cols, out);
            }
            case HIGH_CPU -> full(selected.stream().filter(r -> r.fields()[0] > 90.0).toList(), false);
            case LASTPOINT -> {
                long last = rows.getLast().time();
                yield full(rows.stream().filter(r -> r.time() == last).toList(), true);
            }
        };
    }

    private static ResultTable full(List<Row> rows, boolean byHostname) {
        List<String> cols = new ArrayList<>(List.of("time", "hostname"));
        cols.addAll(TsbsValueSets.FIELDS);
        List<List<Object>> out = new ArrayList<>();
        for (Row r : rows) {
            List<Object> row = new ArrayList<>(List.of(r.time(), TsbsValueSets.hostname(r.host())));
            for (double v : r.fields()) {
                row.add(v);
            }
            out.add(row);
        }
        Comparator<List<Object>> byTime = Comparator.comparing(x -> (Long) x.get(0));
        out.sort(byHostname ? Comparator.comparing(x -> (String) x.get(1)) : byTime.thenComparing(x -> (String) x.get(1)));
        return new ResultTable(cols, out);
    }
}
