package io.chronix.api.sql;

import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.TimeStampNanoVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import io.chronix.engine.read.BatchListReader;
import org.duckdb.DuckDBConnection;
import org.duckdb.DuckDBResultSet;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;

/**
 * A figure, not a test: what DuckDB itself costs a small query on the locked-down serial instance,
 * phase by phase, in thread CPU time (on one thread DuckDB runs on the caller, so the caller's CPU
 * time is the query's): {@code json_serialize_sql}, a connection, registering one Arrow stream,
 * parse-bind-plan-execute, and reading the answer back as Arrow — the same calls {@link SqlQuery}
 * makes, without the engine scan, HTTP or JSON. Data: one batch of {@code rows} rows of
 * (time, hostname, usage_user). Run with the test classpath (docs/benchmarks.md):
 * {@code java ... io.chronix.api.sql.SqlPhaseCpuTime [rows] [runs]}.
 */
public final class SqlPhaseCpuTime {

    private static final String WHERE = " FROM cpu WHERE hostname IN ('host_43') AND time >= TIMESTAMP '2016-01-01 00:00:00'"
            + " AND time < TIMESTAMP '2016-01-02 00:00:00'";
    private static final List<String> QUERIES = List.of(
            "SELECT 1",
            "SELECT max(usage_user) FROM cpu",
            "SELECT time_bucket(INTERVAL '60 seconds', time) AS time, max(usage_user) AS m" + WHERE + " GROUP BY 1 ORDER BY 1",
            "SELECT system.main.time_bucket(INTERVAL '60 seconds', time) AS time, max(usage_user) AS m" + WHERE + " GROUP BY 1 ORDER BY 1",
            "SELECT time AS time, max(usage_user) AS m" + WHERE + " GROUP BY 1 ORDER BY 1",
            "SELECT DISTINCT ON (hostname) * FROM cpu ORDER BY hostname, time DESC");

    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 360;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 400;
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        Schema schema = new Schema(List.of(
                Field.nullable("time", new ArrowType.Timestamp(TimeUnit.NANOSECOND, null)),
                Field.nullable("hostname", new ArrowType.Utf8()),
                Field.nullable("usage_user", new ArrowType.Int(64, true))));
        try (BufferAllocator allocator = new RootAllocator();
             SqlSandbox sandbox = SqlSandbox.open(new SqlSandbox.Limits(2, 256L << 20))) {
            System.out.printf("%d rows, median thread-CPU µs of %d runs after %d warm-ups; the serial instance%n", rows, runs, runs / 4);
            // "serialize" parses (a scope of its own each run), "kept" is the same text asked again
            System.out.printf("%9s %9s %9s %9s %9s %9s %9s  %s%n", "serialize", "connect", "register", "execute", "fetch", "total", "kept",
                    "statement");
            for (String sql : QUERIES) {
                long[][] phase = new long[6][runs];
                for (int i = -runs / 4; i < runs; i++) {
                    VectorSchemaRoot batch = batch(schema, rows, allocator);
                    long t0 = cpu.getCurrentThreadCpuTime();
                    sandbox.serialize(i + runs, sql); // a fresh scope: DuckDB parses
                    long t1 = cpu.getCurrentThreadCpuTime();
                    sandbox.serialize(-1, sql);
                    long kept = cpu.getCurrentThreadCpuTime() - t1;
                    t1 = cpu.getCurrentThreadCpuTime();
                    DuckDBConnection c = sandbox.connect(rows);
                    long t2 = cpu.getCurrentThreadCpuTime();
                    ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator);
                    Data.exportArrayStream(allocator, new BatchListReader(allocator, schema, List.of(batch)), stream);
                    c.registerArrowStream("cpu", stream);
                    long t3 = cpu.getCurrentThreadCpuTime();
                    Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery(sql);
                    long t4 = cpu.getCurrentThreadCpuTime();
                    try (ArrowReader r = (ArrowReader) ((DuckDBResultSet) rs).arrowExportStream(allocator, 65_536)) {
                        while (r.loadNextBatch()) {
                            r.getVectorSchemaRoot().getRowCount();
                        }
                    }
                    long t5 = cpu.getCurrentThreadCpuTime();
                    rs.close();
                    s.close();
                    c.close();
                    stream.close();
                    batch.close();
                    if (i >= 0) {
                        phase[0][i] = t1 - t0;
                        phase[1][i] = t2 - t1;
                        phase[2][i] = t3 - t2;
                        phase[3][i] = t4 - t3;
                        phase[4][i] = t5 - t4;
                        phase[5][i] = kept;
                    }
                }
                long total = 0;
                StringBuilder line = new StringBuilder();
                for (int k = 0; k < 5; k++) {
                    Arrays.sort(phase[k]);
                    total += phase[k][runs / 2];
                    line.append(String.format("%9d ", phase[k][runs / 2] / 1000));
                }
                Arrays.sort(phase[5]);
                System.out.printf("%s%9d %9d  %s%n", line, total / 1000, phase[5][runs / 2] / 1000,
                        sql.length() > 90 ? sql.substring(0, 90) + "…" : sql);
            }
        }
    }

    private static VectorSchemaRoot batch(Schema schema, int rows, BufferAllocator allocator) {
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        TimeStampNanoVector time = (TimeStampNanoVector) root.getVector(0);
        VarCharVector host = (VarCharVector) root.getVector(1);
        BigIntVector user = (BigIntVector) root.getVector(2);
        time.allocateNew(rows);
        host.allocateNew(rows);
        user.allocateNew(rows);
        byte[] name = "host_43".getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < rows; i++) {
            time.set(i, 1_451_606_400_000_000_000L + i * 10_000_000_000L);
            host.setSafe(i, name);
            user.set(i, i % 100);
        }
        root.setRowCount(rows);
        return root;
    }
}
