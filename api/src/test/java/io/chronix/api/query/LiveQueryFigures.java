package io.chronix.api.query;

import io.chronix.api.sql.EngineTables;
import io.chronix.api.sql.SqlQuery;
import io.chronix.api.sql.SqlSandbox;
import io.chronix.bench.engine.EngineTickSink;
import io.chronix.bench.generator.CpuOnlyConfig;
import io.chronix.bench.generator.CpuOnlyGenerator;
import io.chronix.engine.Chronix;
import io.chronix.engine.EngineConfig;
import io.chronix.engine.maintenance.MaintenanceScheduler;
import io.chronix.engine.read.BatchListReader;
import io.chronix.engine.read.ScanHelpers;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.read.ScanResult;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.duckdb.DuckDBConnection;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Figures, not a test: loads the TSBS cpu-only data into an engine with no flush (queries follow
 * the writes, as a user's would), then runs a few statements through the query layer as the
 * service runs them — a child allocator bounded like {@code chronix.query.max-scan-bytes} (1 GiB),
 * DuckDB at its default {@code memory_limit} (1 GiB), one scan helper — and prints for each the
 * answer's rows, the median wall time, the query allocator's peak and the process's peak RSS, and
 * the same statement's median over DuckDB's own table of the same rows (loaded once from a full
 * scan) with the ratio.
 *
 * <p>Args: {@code hosts hours runs} (defaults {@code 400 24 3}).
 */
public final class LiveQueryFigures {

    private static final List<String> QUERIES = List.of(
            "SELECT count(*) FROM cpu",
            "SELECT min(time), max(time) FROM cpu",
            "SELECT * FROM cpu QUALIFY row_number() OVER (PARTITION BY hostname ORDER BY time DESC) = 1",
            "SELECT DISTINCT ON (hostname) * FROM cpu ORDER BY hostname, time DESC",
            "SELECT hostname, avg(usage_user), max(usage_system) FROM cpu GROUP BY hostname ORDER BY hostname",
            "SELECT time_bucket(INTERVAL '1 hour', time) AS h, hostname, max(usage_user) FROM cpu GROUP BY ALL ORDER BY ALL",
            "SELECT count(*) FROM cpu a JOIN cpu b USING (hostname, time) WHERE a.usage_user > 90",
            "SELECT * FROM cpu WHERE usage_user > 99 ORDER BY time DESC LIMIT 10");

    public static void main(String[] args) throws Exception {
        int hosts = args.length > 0 ? Integer.parseInt(args[0]) : 400;
        int hours = args.length > 1 ? Integer.parseInt(args[1]) : 24;
        int runs = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        CpuOnlyConfig data = CpuOnlyConfig.of(hosts, Duration.ofHours(hours), 123, true);
        Path dir = Files.createTempDirectory("chronix-live-figures");
        ExecutorService helperPool = Executors.newFixedThreadPool(1);
        try (MaintenanceScheduler scheduler = MaintenanceScheduler.create(1);
             BufferAllocator root = new RootAllocator();
             SqlSandbox sandbox = SqlSandbox.open(new SqlSandbox.Limits(2, 1L << 30));
             Chronix engine = Chronix.open(dir, EngineConfig.defaults().withClock(Clock.fixed(Instant.parse("2026-12-01T00:00:00Z"), ZoneOffset.UTC)), scheduler);
             DuckDBConnection reference = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:")) {
            long t0 = System.nanoTime();
            try (EngineTickSink sink = new EngineTickSink(engine, 30)) {
                new CpuOnlyGenerator(data).generate(sink);
            }
            System.out.printf("loaded %d rows (%d hosts x %d h), no flush, in %.1f s; %d segments%n", data.rows(), hosts, hours,
                    (System.nanoTime() - t0) / 1e9, engine.segmentCount());
            EngineTables tables = new EngineTables(engine, new ScanHelpers(helperPool, 1));
            // what the engine's scan alone costs, every column and time only, handed to a sink that keeps nothing
            for (List<String> columns : List.of(List.<String>of(), List.of("time"))) {
                long[] scanMs = new long[runs];
                for (int r = 0; r < runs; r++) {
                    try (BufferAllocator child = root.newChildAllocator("scan", 0, 1L << 30)) {
                        long s0 = System.nanoTime();
                        engine.scanUnordered(new ScanRequest("cpu", columns, Long.MIN_VALUE, Long.MAX_VALUE, List.of()), child,
                                new ScanHelpers(helperPool, 1), () -> batch -> true);
                        scanMs[r] = (System.nanoTime() - s0) / 1_000_000;
                    }
                }
                java.util.Arrays.sort(scanMs);
                System.out.printf("engine scan alone, %s: median %d ms%n", columns.isEmpty() ? "every column" : "time only", scanMs[runs / 2]);
            }
            int n = QUERIES.size();
            long[] median = new long[n];
            String[] answered = new String[n];
            long[] peak = new long[n];
            long[] rss = new long[n];
            for (int i = 0; i < n; i++) {
                String sql = QUERIES.get(i);
                long[] ms = new long[runs];
                long rows = 0;
                String failure = null;
                for (int r = 0; r < runs && failure == null; r++) {
                    try (BufferAllocator child = root.newChildAllocator("query", 0, 1L << 30)) {
                        long s0 = System.nanoTime();
                        try (SqlQuery q = SqlQuery.prepare(sandbox, tables, sql, child)) {
                            ArrowReader reader = q.execute();
                            rows = 0;
                            while (reader.loadNextBatch()) {
                                rows += reader.getVectorSchemaRoot().getRowCount();
                            }
                        } catch (RuntimeException e) {
                            failure = e.getClass().getSimpleName() + ": " + e.getMessage();
                        }
                        ms[r] = (System.nanoTime() - s0) / 1_000_000;
                        peak[i] = Math.max(peak[i], child.getPeakMemoryAllocation());
                    }
                }
                java.util.Arrays.sort(ms);
                median[i] = ms[runs / 2];
                answered[i] = failure != null ? failure : Long.toString(rows);
                rss[i] = rssPeakMiB();
            }
            if (root.getAllocatedMemory() != 0) {
                System.out.println("LEAK: " + root.getAllocatedMemory() + " bytes still allocated");
            }
            try (Statement s = reference.createStatement(); ScanResult all = engine.scanUnordered(
                    new ScanRequest("cpu", List.of(), Long.MIN_VALUE, Long.MAX_VALUE, List.of()), root);
                 ArrowArrayStream stream = ArrowArrayStream.allocateNew(root)) {
                s.execute("SET threads = 2");
                s.execute("SET memory_limit = '1GB'");
                Data.exportArrayStream(root, new BatchListReader(root, all.schema(), all.batches()), stream);
                reference.registerArrowStream("cpu_scan", stream);
                s.execute("CREATE TABLE cpu AS FROM cpu_scan");
                s.execute("DROP VIEW cpu_scan");
            }
            System.out.println("| statement | rows | median ms | DuckDB's own table ms | ratio | allocator peak MiB | RSS peak so far MiB |");
            System.out.println("|---|---|---|---|---|---|---|");
            for (int i = 0; i < n; i++) {
                String sql = QUERIES.get(i);
                long[] own = new long[runs];
                for (int r = 0; r < runs; r++) {
                    long s0 = System.nanoTime();
                    try (Statement s = reference.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                        while (rs.next()) {
                            // drain
                        }
                    }
                    own[r] = (System.nanoTime() - s0) / 1_000_000;
                }
                java.util.Arrays.sort(own);
                long ownMedian = own[runs / 2];
                System.out.printf("| `%s` | %s | %d | %d | %.1f | %.0f | %d |%n", sql, answered[i], median[i], ownMedian,
                        ownMedian == 0 ? Double.NaN : (double) median[i] / ownMedian, peak[i] / 1048576.0, rss[i]);
            }
        } finally {
            helperPool.shutdownNow();
        }
    }

    private static long rssPeakMiB() throws java.io.IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("\\D", "")) / 1024;
            }
        }
        return -1;
    }
}
