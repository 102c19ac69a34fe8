package io.chronix.api.query;

import io.chronix.api.sql.EngineTables;
import io.chronix.api.sql.SqlQuery;
import io.chronix.api.sql.SqlSandbox;
import io.chronix.bench.engine.EngineTickSink;
import io.chronix.bench.generator.CpuOnlyConfig;
import io.chronix.bench.generator.CpuOnlyGenerator;
import io.chronix.bench.query.AnswerChecker;
import io.chronix.bench.query.QueryInstance;
import io.chronix.bench.query.QueryKind;
import io.chronix.bench.query.QueryPlanner;
import io.chronix.bench.query.ReferenceEvaluator;
import io.chronix.bench.query.ResultTable;
import io.chronix.bench.query.dialect.ChronixSqlDialect;
import io.chronix.engine.Chronix;
import io.chronix.engine.EngineConfig;
import io.chronix.engine.maintenance.MaintenanceScheduler;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Query figures, not a test: loads the TSBS cpu-only data set into an engine through its API,
 * flushes it to segments, then runs every TSBS query (a fresh random instance per run, as TSBS
 * does) through the query layer — parse tree analysis, pruned engine scan, Arrow C Data hand-off,
 * DuckDB, JSON answer written to a discarding stream — and prints the median, quartiles and
 * extremes per query, and the median and quartiles of the process's CPU time per query (every
 * thread, DuckDB's native workers included — steadier than wall time on a shared machine). HTTP
 * and security are excluded. Each first answer is checked against the
 * reference evaluator.
 *
 * <p>Args: {@code hosts duration runs warmup threads} (defaults {@code 400 PT24H 15 3 2}).
 */
public final class QueryFigures {

    public static void main(String[] args) throws Exception {
        int hosts = args.length > 0 ? Integer.parseInt(args[0]) : 400;
        Duration duration = args.length > 1 ? Duration.parse(args[1]) : Duration.ofHours(24);
        int runs = args.length > 2 ? Integer.parseInt(args[2]) : 15;
        int warmup = args.length > 3 ? Integer.parseInt(args[3]) : 3;
        int threads = args.length > 4 ? Integer.parseInt(args[4]) : 2;
        CpuOnlyConfig data = CpuOnlyConfig.of(hosts, duration, 123, true);
        Path dir = Files.createTempDirectory("chronix-query-figures");
        try (MaintenanceScheduler scheduler = MaintenanceScheduler.create(1);
             BufferAllocator allocator = new RootAllocator();
             SqlSandbox sandbox = SqlSandbox.open(new SqlSandbox.Limits(threads, 2L << 30));
             Chronix engine = Chronix.open(dir, EngineConfig.defaults().withClock(Clock.fixed(Instant.parse("2026-12-01T00:00:00Z"), ZoneOffset.UTC)), scheduler)) {
            long t0 = System.nanoTime();
            try (EngineTickSink sink = new EngineTickSink(engine, 30)) {
                new CpuOnlyGenerator(data).generate(sink);
            }
            engine.flush();
            System.out.printf("loaded %d rows (%d hosts x %s) in %.1f s; %d segments%n", data.rows(), hosts, duration,
                    (System.nanoTime() - t0) / 1e9, engine.segmentCount());
            EngineTables tables = new EngineTables(engine);
            ChronixSqlDialect dialect = new ChronixSqlDialect(URI.create("http://localhost"), "bench", null, Duration.ofMinutes(1));

            Map<String, String> extra = new LinkedHashMap<>();
            extra.put("trivial (SELECT 1)", "SELECT 1");
            extra.put("count of all rows", "SELECT count(*) FROM cpu");
            extra.put("avg of 10 fields per host per hour, whole day", "SELECT time_bucket(INTERVAL '1 hour', time) AS time, hostname, "
                    + String.join(", ", io.chronix.bench.generator.TsbsValueSets.FIELDS.stream().map(f -> "avg(" + f + ")").toList())
                    + " FROM cpu GROUP BY 1, 2 ORDER BY 1, 2");

            System.out.println("| query | rows out | rows scanned | median ms | p25–p75 ms | min–max ms |");
            System.out.println("|---|---:|---:|---:|---:|---:|");
            // -Dchronix.figures.only=label,label runs only those (e.g. under a profiler)
            String only = System.getProperty("chronix.figures.only");
            java.util.function.Predicate<String> wanted = label -> only == null || List.of(only.split(",")).contains(label);
            for (Map.Entry<String, String> e : extra.entrySet()) {
                if (!wanted.test(e.getKey())) {
                    continue;
                }
                List<String> sqls = new ArrayList<>();
                for (int i = 0; i < runs + warmup; i++) {
                    sqls.add(e.getValue());
                }
                report(e.getKey(), sqls, warmup, sandbox, tables, allocator, null, null, dialect);
            }
            QueryPlanner planner = new QueryPlanner(data, 7);
            for (QueryKind k : QueryKind.all()) {
                if (!wanted.test(k.label())) {
                    continue;
                }
                List<QueryInstance> instances = planner.plan(List.of(k), runs + warmup);
                Map<QueryInstance, ResultTable> reference = ReferenceEvaluator.evaluate(data, instances.subList(0, 1));
                List<String> sqls = instances.stream().map(dialect::render).toList();
                report(k.label(), sqls, warmup, sandbox, tables, allocator, instances.getFirst(), reference.get(instances.getFirst()), dialect);
            }
        } finally {
            try (var walk = Files.walk(dir)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static void report(String label, List<String> sqls, int warmup, SqlSandbox sandbox, EngineTables tables, BufferAllocator allocator,
                               QueryInstance checked, ResultTable reference, ChronixSqlDialect dialect) throws IOException {
        long[] nanos = new long[sqls.size() - warmup];
        long[] cpu = new long[sqls.size() - warmup]; // the process's CPU time (every thread, DuckDB's too)
        long rowsOut = 0;
        long scanned = 0;
        for (int i = 0; i < sqls.size(); i++) {
            boolean check = i == 0 && reference != null;
            OutputStream out = check ? new ByteArrayOutputStream() : OutputStream.nullOutputStream();
            long cpuStart = processCpuNanos();
            long start = System.nanoTime();
            long rows;
            long scan;
            try (SqlQuery q = SqlQuery.prepare(sandbox, tables, sqls.get(i), allocator)) {
                rows = ResultFormat.JSON.write(q.execute(), out);
                scan = q.scans().stream().mapToLong(SqlQuery.TableScan::rows).sum();
            }
            long took = System.nanoTime() - start;
            long cpuTook = processCpuNanos() - cpuStart;
            if (check) {
                AnswerChecker.check(label, reference, dialect.parse(out.toString()), dialect.ordersRows(checked.kind()));
            }
            if (i >= warmup) {
                nanos[i - warmup] = took;
                cpu[i - warmup] = cpuTook;
                rowsOut = rows;
                scanned = scan;
            }
        }
        Arrays.sort(nanos);
        Arrays.sort(cpu);
        System.out.printf("| %s | %d | %d | %.2f | %.2f–%.2f | %.2f–%.2f | %.2f | %.2f–%.2f |%n", label, rowsOut, scanned, ms(nanos, 0.5),
                ms(nanos, 0.25), ms(nanos, 0.75), nanos[0] / 1e6, nanos[nanos.length - 1] / 1e6, ms(cpu, 0.5), ms(cpu, 0.25), ms(cpu, 0.75));
    }

    /** Process CPU time (all threads, native ones included): steadier than wall time on a shared machine. */
    private static final com.sun.management.OperatingSystemMXBean PROCESS =
            (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    private static final Path TASKS = Path.of("/proc/self/task");

    /**
     * The process's CPU time in nanoseconds: on Linux the sum of every thread's {@code schedstat}
     * (nanosecond resolution; the MXBean's figure moves in 10 ms ticks, too coarse for one query),
     * elsewhere the MXBean's.
     */
    private static long processCpuNanos() {
        if (!Files.isDirectory(TASKS)) {
            return PROCESS.getProcessCpuTime();
        }
        long sum = 0;
        try (var tasks = Files.newDirectoryStream(TASKS)) {
            for (Path t : tasks) {
                try {
                    String s = Files.readString(t.resolve("schedstat"));
                    sum += Long.parseLong(s.substring(0, s.indexOf(' ')));
                } catch (IOException | RuntimeException gone) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            return PROCESS.getProcessCpuTime();
        }
        return sum;
    }

    private static double ms(long[] sorted, double q) {
        return sorted[(int) Math.min(sorted.length - 1, Math.round(q * (sorted.length - 1)))] / 1e6;
    }
}
