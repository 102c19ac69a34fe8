package io.chronix.bench.query;

import io.chronix.bench.cli.Options;
import io.chronix.bench.generator.CpuOnlyConfig;
import io.chronix.bench.generator.GenerateCommand;
import io.chronix.bench.peer.ThreadCpu;
import io.chronix.bench.query.dialect.ChronixSqlDialect;
import io.chronix.bench.query.dialect.InfluxQlDialect;
import io.chronix.bench.query.dialect.QueryDialect;
import io.chronix.bench.query.dialect.QuestDbDialect;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code bench query}: runs the query set against a target already loaded with the data set that the
 * same generator options describe, and checks every answer.
 *
 * <pre>
 * --target T         chronix (default) | questdb | influxdb
 * --url URL          base URL (default per target: :8080, :9000, :8086 on 127.0.0.1)
 * --namespace NS     Chronix namespace (default bench)      --auth VALUE   Authorization header (Chronix)
 * --db NAME          InfluxDB database (default bench)
 * --hosts/--duration/--start/--interval/--seed/--floats   the loaded data set (as for generate)
 * --queries a,b      labels (default: all 14)    --query-seed S (default 7)    --instances N (default 3)
 * --warmup N (default 1)   --warmup-time D (a kind's warm-up ends after D; default: no limit)
 * --runs K (default 5)   --keep-going   --print-queries   --timeout D (default 2m)
 * --client-warmup N (default 5000: requests to a local server that compile this runner's client first; 0: none)
 * </pre>
 */
public final class QueryCommand {
    private QueryCommand() {
    }

    public static QueryDialect dialect(String target, Options o, CpuOnlyConfig data, Duration timeout) {
        return switch (target) {
            case "chronix" -> new ChronixSqlDialect(URI.create(o.string("url", "http://127.0.0.1:8080")),
                    o.string("namespace", "bench"), o.string("auth", null), timeout);
            case "questdb" -> new QuestDbDialect(URI.create(o.string("url", "http://127.0.0.1:9000")), timeout);
            case "influxdb" -> new InfluxQlDialect(URI.create(o.string("url", "http://127.0.0.1:8086")),
                    o.string("db", "bench"), data.startNanos(), timeout);
            default -> throw new IllegalArgumentException("unknown target '" + target + "' (chronix, questdb, influxdb)");
        };
    }

    public static List<QueryKind> kinds(Options o) {
        List<String> labels = o.list("queries", List.of());
        return labels.isEmpty() ? QueryKind.all() : labels.stream().map(QueryKind::byLabel).toList();
    }

    public static void run(Options o) throws InterruptedException {
        CpuOnlyConfig data = GenerateCommand.config(o);
        Duration timeout = o.duration("timeout", Duration.ofMinutes(2));
        QueryDialect dialect = dialect(o.string("target", "chronix"), o, data, timeout);
        List<QueryKind> kinds = kinds(o);
        long querySeed = o.longValue("query-seed", 7);
        int instances = o.integer("instances", 3);
        int warmup = o.integer("warmup", 1);
        Duration warmupTime = o.duration("warmup-time", null);
        int runs = o.integer("runs", 5);
        boolean keepGoing = o.flag("keep-going");
        boolean print = o.flag("print-queries");
        long serverPid = o.longValue("server-pid", -1);
        int clientWarmUp = o.integer("client-warmup", ClientWarmUp.DEFAULT_REQUESTS);
        o.rejectUnknown();
        java.util.function.LongSupplier serverCpu = serverCpu(serverPid);

        List<QueryInstance> plan = new QueryPlanner(data, querySeed).plan(kinds, instances);
        long t0 = System.nanoTime();
        Map<QueryInstance, ResultTable> reference = ReferenceEvaluator.evaluate(data, plan);
        System.err.printf("reference answers for %d queries computed in %.2f s%n", plan.size(), (System.nanoTime() - t0) / 1e9);
        if (print) {
            plan.forEach(q -> System.out.println(q.kind().label() + ": " + dialect.render(q)));
        }
        List<QueryStats> stats = new QueryRunner(dialect, warmup, runs, keepGoing, serverCpu).clientWarmUp(clientWarmUp)
                .warmupTime(warmupTime).serverThreads(serverThreads(serverPid)).run(plan, reference);
        QueryRunner.print(dialect.name(), stats, System.out);
        long failed = stats.stream().filter(QueryStats::failed).count();
        if (failed > 0) {
            throw new IllegalStateException(failed + " of " + stats.size() + " queries failed");
        }
    }

    /** The server's CPU by kind of thread, read from {@code /proc}; nothing without {@code --server-pid}. */
    static Supplier<Map<String, Long>> serverThreads(long pid) {
        return pid < 0 ? Map::of : () -> ThreadCpu.ofProcess(pid);
    }

    /** The CPU time so far of the process {@code pid} (a target started by hand), or a supplier of -1 when none is given. */
    static java.util.function.LongSupplier serverCpu(long pid) {
        if (pid < 0) {
            return () -> -1;
        }
        ProcessHandle p = ProcessHandle.of(pid).orElseThrow(() -> new IllegalArgumentException("no process " + pid + " (--server-pid)"));
        return () -> p.info().totalCpuDuration().map(java.time.Duration::toNanos).orElse(-1L);
    }
}
