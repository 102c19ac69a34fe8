package io.chronix.bench.live;

import java.io.IOException;
import java.io.PrintStream;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Runs the statements one at a time: each statement {@code runs} times, each run first to Chronix
 * and then to DuckDB, every Chronix answer compared with DuckDB's ({@link Answer#difference}). A
 * refusal or a wrong answer is recorded against its statement and the suite goes on.
 */
final class LiveSuite {

    /** A statement's outcome. */
    enum Verdict { OK, WRONG, REFUSED, FAILED }

    /**
     * @param chronixNanos each run's time to Chronix's last byte, in run order (refused runs included)
     * @param duckNanos    each run's time for DuckDB to answer and hand over every row
     * @param rows         rows of DuckDB's answer
     * @param detail       what went wrong first (null when {@code OK})
     */
    record Result(LiveQuery query, long[] chronixNanos, long[] duckNanos, int rows, Verdict verdict, String detail) {
        double chronixMedianMs() {
            return median(chronixNanos) / 1e6;
        }

        double duckMedianMs() {
            return median(duckNanos) / 1e6;
        }

        double ratio() {
            return chronixMedianMs() / Math.max(duckMedianMs(), 1e-3);
        }
    }

    private LiveSuite() {
    }

    static List<Result> run(List<LiveQuery> queries, ChronixSql chronix, DuckDbReference duck, int runs, PrintStream log)
            throws InterruptedException {
        List<Result> out = new ArrayList<>();
        for (LiveQuery q : queries) {
            out.add(runOne(q, chronix, duck, runs));
            Result r = out.getLast();
            log.printf(Locale.ROOT, "  %-34s chronix %9.1f ms  duckdb %8.1f ms  %s%n", q.name(), r.chronixMedianMs(),
                    r.duckMedianMs(), r.verdict() == Verdict.OK ? "ok" : r.verdict() + " " + r.detail());
        }
        return out;
    }

    private static Result runOne(LiveQuery q, ChronixSql chronix, DuckDbReference duck, int runs) throws InterruptedException {
        long[] c = new long[runs];
        long[] d = new long[runs];
        Answer expected = null;
        Verdict verdict = Verdict.OK;
        String detail = null;
        for (int run = 0; run < runs; run++) {
            ChronixSql.Reply reply = null;
            String noAnswer = null;
            long t0 = System.nanoTime();
            try {
                reply = chronix.send(q.sql());
                c[run] = reply.nanos();
            } catch (IOException e) {
                c[run] = System.nanoTime() - t0;
                noAnswer = "no answer: " + e;
            }
            try {
                long t1 = System.nanoTime();
                Answer a = duck.query(q.sql());
                d[run] = System.nanoTime() - t1;
                expected = expected == null ? a : expected;
            } catch (SQLException e) {
                return new Result(q, c, d, 0, Verdict.FAILED, "DuckDB (the reference) failed: " + e.getMessage());
            }
            Verdict v;
            String problem;
            if (reply == null) {
                v = Verdict.FAILED;
                problem = noAnswer;
            } else if (!reply.ok()) {
                v = Verdict.REFUSED;
                problem = reply.refusal();
            } else {
                problem = compare(expected, reply.body(), q.ordered());
                v = problem == null ? Verdict.OK : Verdict.WRONG;
            }
            if (v != Verdict.OK && verdict == Verdict.OK) {
                verdict = v;
                detail = "run " + (run + 1) + ": " + problem;
            }
        }
        return new Result(q, c, d, expected.rows().size(), verdict, detail);
    }

    private static String compare(Answer expected, String body, boolean ordered) {
        Answer actual;
        try {
            actual = ChronixSql.parse(body);
        } catch (RuntimeException e) {
            return "unreadable answer: " + e.getMessage();
        }
        return Answer.difference(expected, actual, ordered);
    }

    /** The table, then the median and the largest ratio over the statements answered right. */
    static void print(String title, List<Result> results, PrintStream out) {
        out.printf(Locale.ROOT, "%n%s%n", title);
        out.printf(Locale.ROOT, "%-34s %8s %11s %11s %10s %9s  %s%n", "query", "rows", "chronix ms", "first ms",
                "duckdb ms", "ratio", "answer");
        List<Double> ratios = new ArrayList<>();
        for (Result r : results) {
            boolean ok = r.verdict() == Verdict.OK;
            if (ok) {
                ratios.add(r.ratio());
            }
            out.printf(Locale.ROOT, "%-34s %8d %11.1f %11.1f %10.2f %9s  %s%n", r.query().name(), r.rows(), r.chronixMedianMs(),
                    r.chronixNanos()[0] / 1e6, r.duckMedianMs(), ok ? times(r.ratio()) : "-",
                    ok ? "OK" : r.verdict());
        }
        long bad = results.size() - ratios.size();
        double[] sorted = ratios.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        out.printf(Locale.ROOT, "median ratio %s, max ratio %s (over the %d of %d statements answered right); wrong %d, refused %d, failed %d%n",
                sorted.length == 0 ? "-" : times(medianOf(sorted)),
                sorted.length == 0 ? "-" : times(sorted[sorted.length - 1]),
                sorted.length, results.size(), count(results, Verdict.WRONG), count(results, Verdict.REFUSED),
                count(results, Verdict.FAILED));
        if (bad > 0) {
            for (Result r : results) {
                if (r.verdict() != Verdict.OK) {
                    out.printf(Locale.ROOT, "  %s %s: %s%n", r.query().name(), r.verdict(), r.detail());
                }
            }
        }
    }

    /** {@code 12.3x}, or {@code 0.04x} below 1, where one decimal would round a faster answer to nothing. */
    private static String times(double ratio) {
        return String.format(Locale.ROOT, ratio < 1 ? "%.2fx" : "%.1fx", ratio);
    }

    private static long count(List<Result> results, Verdict v) {
        return results.stream().filter(r -> r.verdict() == v).count();
    }

    static double median(long[] values) {
        long[] s = values.clone();
        Arrays.sort(s);
        return medianOf(Arrays.stream(s).asDoubleStream().toArray());
    }

    /** The median of sorted values; the mean of the middle two for an even count. */
    static double medianOf(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
