package io.chronix.api.sql;

import io.chronix.engine.read.BatchListReader;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.TimeStampNanoVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;

/**
 * A figure, not a test: would a small query cost DuckDB less if its plan were kept? Two ways to
 * run one single-groupby statement over {@code rows} rows on one DuckDB thread, alternating, in
 * thread CPU time:
 * <ul>
 * <li>today's: a fresh connection, the batch registered as an Arrow stream, the statement parsed,
 *     bound, planned and executed;</li>
 * <li>a kept plan: one connection holding a temporary table and the statement prepared once; per
 *     query the table is emptied, filled through DuckDB's appender, the prepared statement
 *     executed and the table emptied again (nothing of a tenant's may stay behind).</li>
 * </ul>
 * Both read the answer through JDBC and must agree. The kept statement has a parameter (a bound
 * that keeps every row): without one, DuckDB's JDBC driver runs a prepared statement from its text
 * again. Even so, a profile shows DuckDB binding and planning the kept statement again on every
 * execution (the table it reads was written since), so "executing" here includes a fresh plan.
 * Run with the test classpath
 * (docs/benchmarks.md): {@code java ... io.chronix.api.sql.PooledStatementCpuTime [rows] [runs]}.
 */
public final class PooledStatementCpuTime {

    private static final String QUERY = "SELECT time_bucket(INTERVAL '60 seconds', time) AS time, max(usage_user) AS m FROM cpu"
            + " WHERE hostname IN ('host_43') AND time >= TIMESTAMP '2016-01-01 00:00:00' AND time < TIMESTAMP '2016-01-01 01:00:00'"
            + " GROUP BY 1 ORDER BY 1";
    private static final long T0 = 1_451_606_400_000_000_000L;

    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 360;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3000;
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        Schema schema = new Schema(List.of(Field.nullable("time", new ArrowType.Timestamp(TimeUnit.NANOSECOND, null)),
                Field.nullable("hostname", ArrowType.Utf8.INSTANCE), Field.nullable("usage_user", new ArrowType.Int(64, true))));
        byte[] host = "host_43".getBytes(StandardCharsets.UTF_8);
        try (BufferAllocator allocator = new RootAllocator();
             DuckDBConnection root = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:");
             DuckDBConnection kept = (DuckDBConnection) root.duplicate()) {
            try (Statement s = root.createStatement()) {
                s.execute("SET threads = 1");
            }
            try (Statement s = kept.createStatement()) {
                s.execute("CREATE TEMP TABLE cpu (time TIMESTAMP_NS, hostname VARCHAR, usage_user BIGINT)");
            }
            try (PreparedStatement empty = kept.prepareStatement("DELETE FROM cpu");
                 PreparedStatement query = kept.prepareStatement(QUERY.replace(" GROUP BY", " AND usage_user >= ? GROUP BY"))) {
                long[] today = new long[runs];
                long[] keptPlan = new long[runs];
                long[] emptying = new long[runs];
                long[] appending = new long[runs];
                long[] executing = new long[runs];
                for (int i = -runs / 3; i < runs; i++) { // the first third warms up
                    long c0 = cpu.getCurrentThreadCpuTime();
                    long sumToday = 0;
                    VectorSchemaRoot batch = VectorSchemaRoot.create(schema, allocator);
                    try (batch; DuckDBConnection c = (DuckDBConnection) root.duplicate();
                         ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
                        batch.allocateNew();
                        for (int r = 0; r < rows; r++) {
                            ((TimeStampNanoVector) batch.getVector(0)).set(r, T0 + r * 10_000_000_000L);
                            ((VarCharVector) batch.getVector(1)).setSafe(r, host);
                            ((BigIntVector) batch.getVector(2)).set(r, r % 100);
                        }
                        batch.setRowCount(rows);
                        Data.exportArrayStream(allocator, new BatchListReader(allocator, schema, List.of(batch)), stream);
                        c.registerArrowStream("cpu", stream);
                        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(QUERY)) {
                            while (rs.next()) {
                                sumToday += rs.getLong(2);
                            }
                        }
                    }
                    long c1 = cpu.getCurrentThreadCpuTime();
                    empty.execute();
                    long c2 = cpu.getCurrentThreadCpuTime();
                    try (DuckDBAppender appender = kept.createAppender("temp", "main", "cpu")) {
                        for (int r = 0; r < rows; r++) {
                            appender.beginRow().appendEpochNanos(T0 + r * 10_000_000_000L).append("host_43").append((long) (r % 100)).endRow();
                        }
                    }
                    long c3 = cpu.getCurrentThreadCpuTime();
                    long sumKept = 0;
                    query.setLong(1, Long.MIN_VALUE);
                    try (ResultSet rs = query.executeQuery()) {
                        while (rs.next()) {
                            sumKept += rs.getLong(2);
                        }
                    }
                    long c4 = cpu.getCurrentThreadCpuTime();
                    empty.execute();
                    long c5 = cpu.getCurrentThreadCpuTime();
                    if (sumToday != sumKept) {
                        throw new IllegalStateException("the two ways disagree: " + sumToday + " against " + sumKept);
                    }
                    if (i >= 0) {
                        today[i] = c1 - c0;
                        keptPlan[i] = c5 - c1;
                        emptying[i] = (c2 - c1) + (c5 - c4);
                        appending[i] = c3 - c2;
                        executing[i] = c4 - c3;
                    }
                }
                System.out.printf("%d rows, median thread-CPU µs of %d runs after %d warm-ups, one DuckDB thread%n", rows, runs, runs / 3);
                System.out.printf("today's (register a stream, parse, bind, plan, execute): %d%n", median(today));
                System.out.printf("a kept plan (empty, append, execute prepared, empty):     %d (emptying %d, appending %d, executing %d)%n",
                        median(keptPlan), median(emptying), median(appending), median(executing));
            }
        }
    }

    private static long median(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2] / 1000;
    }
}
