package io.chronix.api.sql;

import io.chronix.engine.model.FieldType;
import io.chronix.engine.schema.Column;
import io.chronix.engine.schema.MeasurementSchema;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

/**
 * A figure, not a test: the thread CPU time of a new statement's tree and analysis, the work
 * {@link SqlQuery#prepare} does before any scan for a statement it has not seen (TSBS's own shape:
 * every query a new text). Two ways, alternated round by round in one process: {@code text} reads
 * the template's tree with the statement's literals put back into the text
 * ({@link SqlSandbox#serialize(int, String)}, then the analysis reads the JSON), {@code bound}
 * binds the literals into the template's tree read once ({@link SqlSandbox#statementTree}). Each
 * statement is a TSBS single-groupby-1-1-1 (one host, one hour, minute buckets) with a new host and
 * hour. Run with the test classpath (docs/benchmarks.md):
 * {@code java ... io.chronix.api.sql.AnalysisCpuTime [statements per round] [rounds]}.
 */
public final class AnalysisCpuTime {

    public static void main(String[] args) throws Exception {
        int perRound = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 6;
        List<Column> columns = new ArrayList<>(List.of(Column.time()));
        for (String t : List.of("hostname", "region", "datacenter", "rack", "os", "arch", "team", "service", "service_version",
                "service_environment")) {
            columns.add(Column.tag(t));
        }
        for (String f : List.of("usage_user", "usage_system", "usage_idle", "usage_nice", "usage_iowait", "usage_irq",
                "usage_softirq", "usage_steal", "usage_guest", "usage_guest_nice")) {
            columns.add(Column.field(f, FieldType.FLOAT));
        }
        MeasurementSchema schema = new MeasurementSchema("cpu", columns);
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        Random r = new Random(1);
        try (SqlSandbox sandbox = SqlSandbox.open(new SqlSandbox.Limits(2, 256L << 20))) {
            System.out.printf("median thread-CPU ns per new statement (tree + analysis), %d statements a round%n", perRound);
            for (int round = 0; round < rounds; round++) {
                for (boolean bound : new boolean[]{round % 2 == 0, round % 2 != 0}) {
                    long[] ns = new long[perRound];
                    for (int i = 0; i < perRound; i++) {
                        String sql = statement(r);
                        long t0 = cpu.getCurrentThreadCpuTime();
                        StatementAnalysis.Result result = bound
                                ? StatementAnalysis.analyse(sql, sandbox.statementTree(1, sql), Set.of("cpu"), m -> Optional.of(schema),
                                PlainTimestamps::epochNanos)
                                : StatementAnalysis.analyse(sql, sandbox.serialize(1, sql), Set.of("cpu"), m -> Optional.of(schema),
                                PlainTimestamps::epochNanos);
                        ns[i] = cpu.getCurrentThreadCpuTime() - t0;
                        if (result.plans().isEmpty()) {
                            throw new IllegalStateException("no scan planned: " + sql);
                        }
                    }
                    Arrays.sort(ns);
                    System.out.printf("round %d %-5s median %6d  p90 %6d%n", round, bound ? "bound" : "text", ns[perRound / 2],
                            ns[perRound * 9 / 10]);
                }
            }
        }
    }

    private static String statement(Random r) {
        int hour = r.nextInt(23);
        int minute = r.nextInt(60);
        String from = "2016-01-01 %02d:%02d:%02d".formatted(hour, minute, r.nextInt(60));
        String to = "2016-01-01 %02d:%02d:%02d".formatted(hour + 1, minute, r.nextInt(60));
        return "SELECT time_bucket(INTERVAL '60 seconds', time) AS time, max(usage_user) AS max_usage_user FROM cpu"
                + " WHERE hostname IN ('host_" + r.nextInt(4000) + "') AND time >= TIMESTAMP '" + from + "' AND time < TIMESTAMP '"
                + to + "' GROUP BY 1 ORDER BY 1";
    }
}
