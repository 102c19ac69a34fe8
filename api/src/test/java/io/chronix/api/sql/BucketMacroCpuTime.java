package io.chronix.api.sql;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;

/**
 * A figure, not a test: what each of {@link SqlSandbox}'s two definitions of the nanosecond
 * {@code time_bucket} costs, per statement (binding) and per row (bucketing), in thread CPU time on
 * one DuckDB thread (DuckDB then runs on the caller). Each definition gets a plain in-memory
 * instance of its own with only its macros, as the sandbox defines them ({@link
 * SqlSandbox#MACROS_FEW_ROWS} on the serial instance, {@link SqlSandbox#MACROS_MANY_ROWS} on the
 * parallel one), plus DuckDB's own microsecond {@code time_bucket} for scale. Data: {@code rows}
 * TIMESTAMP_NS instants 25 ms apart (400 hosts every 10 s) with a BIGINT value, in a table.
 * Run with the test classpath (docs/benchmarks.md):
 * {@code java ... io.chronix.api.sql.BucketMacroCpuTime [rows] [runs]}.
 */
public final class BucketMacroCpuTime {

    private static final String AGGREGATE = "SELECT %s AS b, avg(v) FROM t GROUP BY 1 ORDER BY 1";
    private static final String BIND = "SELECT %s AS b FROM t LIMIT 0";

    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_728_000;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        record Variant(String name, List<String> macros, String call) {
        }
        List<Variant> variants = List.of(
                new Variant("serial instance's macro (floor to µs, DuckDB's time_bucket)", SqlSandbox.MACROS_FEW_ROWS, "time_bucket(%s, time)"),
                new Variant("parallel instance's macro (CASE, epoch_ns arithmetic)", SqlSandbox.MACROS_MANY_ROWS, "time_bucket(%s, time)"),
                new Variant("DuckDB's own (rounds to µs: not exact)", List.of(), "system.main.time_bucket(%s, time)"));
        System.out.printf("%,d rows, median thread-CPU of %d runs (bucketing: ms per statement; binding: µs per statement)%n", rows, runs);
        System.out.printf("%-62s %-22s %12s %12s%n", "definition", "width", "bucket+avg", "bind");
        for (String width : List.of("INTERVAL '3600 seconds'", "INTERVAL '60 seconds'", "INTERVAL '1 month'")) {
            for (Variant v : variants) {
                try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
                    for (String m : v.macros()) {
                        s.execute(m);
                    }
                    s.execute("SET threads = 1");
                    s.execute("CREATE TABLE t AS SELECT make_timestamp_ns(1451606400000000000 + i * 25000000 + i % 7) AS time,"
                            + " (i % 100)::BIGINT AS v FROM range(" + rows + ") r(i)");
                    String call = v.call().formatted(width);
                    long[] scan = new long[runs];
                    long[] bind = new long[runs];
                    for (int i = -runs / 3; i < runs; i++) { // the first third warms up
                        long t0 = cpu.getCurrentThreadCpuTime();
                        try (ResultSet rs = s.executeQuery(AGGREGATE.formatted(call))) {
                            while (rs.next()) {
                                rs.getString(1);
                            }
                        }
                        long t1 = cpu.getCurrentThreadCpuTime();
                        for (int k = 0; k < 20; k++) {
                            try (PreparedStatement p = c.prepareStatement(BIND.formatted(call)); ResultSet rs = p.executeQuery()) {
                                rs.next();
                            }
                        }
                        long t2 = cpu.getCurrentThreadCpuTime();
                        if (i >= 0) {
                            scan[i] = t1 - t0;
                            bind[i] = (t2 - t1) / 20;
                        }
                    }
                    System.out.printf("%-62s %-22s %12.1f %12d%n", v.name(), width, median(scan) / 1e6, median(bind) / 1000);
                } catch (SQLException e) {
                    System.out.printf("%-62s %-22s %s%n", v.name(), width, e.getMessage().lines().findFirst().orElse(""));
                }
            }
        }
    }

    private static long median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
