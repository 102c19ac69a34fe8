package io.chronix.bench.live;

import io.chronix.bench.cli.Options;
import io.chronix.bench.crash.ServiceProcess;
import io.chronix.bench.e2e.ChronixTarget;
import io.chronix.bench.e2e.HttpCalls;
import io.chronix.bench.generator.CpuOnlyConfig;
import io.chronix.bench.generator.CpuOnlyGenerator;
import io.chronix.bench.generator.Dataset;
import io.chronix.bench.generator.GenerateCommand;
import io.chronix.bench.generator.LineProtocolSink;
import io.chronix.bench.generator.TickSink;
import io.chronix.bench.load.LoadCommand;
import io.chronix.bench.load.LoadConfig;
import io.chronix.bench.load.LoadGenerator;
import io.chronix.bench.load.LoadReport;
import io.chronix.bench.peer.PeerProcess;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * {@code Bench live}: the live query suite (issue 44, item 6). Generates TSBS cpu-only data once,
 * into a line-protocol file and into DuckDB's own in-memory table ({@link DuckDbReference}); starts
 * the service jar on a fresh data directory (or uses {@code --url}), creates a tenant and a
 * namespace through the API, loads the file over HTTP, and at once — no flush, no idle wait, not
 * even a row count — runs the statements of {@code queries.sql} ({@link LiveQuery}), each against
 * Chronix and DuckDB in turn ({@link LiveSuite}). Then (b) stops the service gracefully, starts it
 * again on the same data directory and runs the suite again. Prints a table per phase; exits 1 if
 * any answer was wrong, refused or missing.
 *
 * <pre>
 * live [--jar api/target/chronix.jar] [--port 18097] [--heap 4g] [--jvm "ARGS"] [--work DIR] [--keep-data]
 *      | [--url http://127.0.0.1:8080 --operator-token T]          (a running service: phase (b) is skipped)
 *      [--hosts 400] [--duration 1d] [--seed 123] [--start …] [--interval 10s] [--floats]
 *      [--runs 5] [--queries a,b] [--batch 5000] [--connections 2] [--timeout 5m]
 * </pre>
 */
public final class LiveCommand {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String NAMESPACE = "live";

    private LiveCommand() {
    }

    public static void run(Options o) throws Exception {
        CpuOnlyConfig data = GenerateCommand.config(o, 400);
        String url = o.string("url", null);
        String operator = o.string("operator-token", null);
        Path jar = Path.of(o.string("jar", "api/target/chronix.jar"));
        int port = o.integer("port", 18097);
        List<String> jvm = new ArrayList<>(ChronixTarget.heapOptions(o.string("heap", "4g")));
        if (o.has("jvm")) {
            jvm.addAll(List.of(o.required("jvm").strip().split("\\s+")));
        }
        boolean keepData = o.flag("keep-data");
        Path work = o.has("work") ? Path.of(o.required("work")) : Files.createTempDirectory("chronix-live-");
        int runs = o.integer("runs", 5);
        List<String> only = o.list("queries", List.of());
        int batch = o.integer("batch", LoadConfig.DEFAULT_BATCH_LINES);
        int connections = o.integer("connections", 2);
        Duration timeout = o.duration("timeout", Duration.ofMinutes(5));
        o.rejectUnknown();
        if (runs < 1) {
            throw new IllegalArgumentException("--runs must be at least 1");
        }
        if (url != null && operator == null) {
            throw new IllegalArgumentException("--url needs --operator-token");
        }
        if (url == null && !Files.isRegularFile(jar)) {
            throw new IllegalArgumentException("no service jar at " + jar + " (build it: ./mvnw -q -DskipTests install)");
        }
        List<LiveQuery> queries = select(LiveQuery.suite(), only);
        Files.createDirectories(work);
        PrintStream log = System.err;

        ServiceProcess service = null;
        try (DuckDbReference duck = new DuckDbReference()) {
            Path file = work.resolve("cpu-only.lp");
            long t0 = System.nanoTime();
            try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
                new CpuOnlyGenerator(data).generate(both(new LineProtocolSink(out), duck.filler())); // closes both
            }
            log.printf(Locale.ROOT, "generated %,d rows (%d hosts, %s, seed %d) into %s and DuckDB's table in %.1f s%n",
                    data.rows(), data.hosts(), data.duration(), data.seed(), file, (System.nanoTime() - t0) / 1e9);

            Path dataDir = work.resolve("data");
            Path serviceLog = work.resolve("chronix.log");
            if (url == null) {
                Files.createDirectories(dataDir);
                service = start(jar, dataDir, port, jvm, serviceLog, log);
                url = service.base().toString();
                operator = Files.readString(dataDir.resolve("operator-token")).strip();
            }
            URI base = URI.create(url);
            String token = tenantAndNamespace(base, operator);

            LoadConfig lc = new LoadConfig(base.resolve("/api/v1/namespaces/" + NAMESPACE + "/write?precision=ns"),
                    Map.of("Authorization", "Bearer " + token), batch, connections, false, Duration.ofMinutes(5));
            LoadReport load;
            try (InputStream in = LoadCommand.open(file)) {
                load = new LoadGenerator(lc).run(in);
            }
            log.println(load.summary());

            ChronixSql chronix = new ChronixSql(base, NAMESPACE, token, timeout);
            String what = String.format(Locale.ROOT, "%d hosts, %s, %,d rows, %s fields, seed %d; %d runs a statement, median",
                    data.hosts(), data.duration(), data.rows(), data.integerFields() ? "integer" : "float", data.seed(), runs);
            log.println("(a) the suite, right after the last write was acknowledged:");
            List<LiveSuite.Result> live = LiveSuite.run(queries, chronix, duck, runs, log);
            List<String> findings = new ArrayList<>(schemaFindings(base, token, data.integerFields()));
            LiveSuite.print("(a) live query suite right after the load (no flush, no wait): " + what, live, System.out);

            List<LiveSuite.Result> restarted = List.of();
            if (service != null) {
                service.stop();
                service = start(jar, dataDir, port, jvm, serviceLog, log);
                log.println("(b) the suite, right after the restart was ready:");
                restarted = LiveSuite.run(queries, chronix, duck, runs, log);
                LiveSuite.print("(b) live query suite after a restart on the same data: " + what, restarted, System.out);
            } else {
                System.out.println("\n(b) skipped: --url names a service this run did not start, so it cannot restart it");
            }
            if (service != null) {
                service.stop();
                service = null;
                long leaks = linesContaining(serviceLog, "leaked");
                System.out.printf(Locale.ROOT, "service log: %d line%s saying \"leaked\"%n", leaks, leaks == 1 ? "" : "s");
            }
            for (String f : findings) {
                System.out.println("schema: " + f);
            }
            long bad = Stream.concat(live.stream(), restarted.stream()).filter(r -> r.verdict() != LiveSuite.Verdict.OK).count();
            if (bad > 0 || !findings.isEmpty()) {
                throw new IllegalStateException(bad + " statement runs not answered right" + (findings.isEmpty() ? "" : ", schema differs")
                        + " (above)");
            }
        } finally {
            if (service != null) {
                service.stop();
            }
            if (!keepData) {
                deleteTree(work);
            }
        }
    }

    private static List<LiveQuery> select(List<LiveQuery> suite, List<String> names) {
        if (names.isEmpty()) {
            return suite;
        }
        List<LiveQuery> out = new ArrayList<>();
        for (String n : names) {
            out.add(suite.stream().filter(q -> q.name().equals(n)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no statement named '" + n + "' in the suite")));
        }
        return out;
    }

    private static ServiceProcess start(Path jar, Path dataDir, int port, List<String> jvm, Path serviceLog, PrintStream log)
            throws IOException, InterruptedException {
        ServiceProcess s = ServiceProcess.start(PeerProcess.currentJava(), jar.toAbsolutePath(), dataDir, port, jvm,
                List.of("--server.address=127.0.0.1"), serviceLog);
        Duration ready = s.awaitReady(Duration.ofMinutes(5));
        log.printf(Locale.ROOT, "service ready on %s in %.1f s (data %s, log %s)%n", s.base(), ready.toMillis() / 1e3, dataDir, serviceLog);
        return s;
    }

    /** A new tenant (its admin token) and its namespace {@value #NAMESPACE}, through the operator API. */
    private static String tenantAndNamespace(URI base, String operator) throws IOException, InterruptedException {
        String name = "live-" + Long.toString(System.currentTimeMillis() % 1_000_000_000L, 36);
        JsonNode tenant = JSON.readTree(HttpCalls.send("POST", base.resolve("/api/v1/tenants"), json(operator),
                "{\"name\": \"" + name + "\"}"));
        String token = tenant.get("adminToken").asString();
        HttpCalls.send("POST", base.resolve("/api/v1/namespaces"), json(token), "{\"name\": \"" + NAMESPACE + "\"}");
        return token;
    }

    private static Map<String, String> json(String token) {
        return Map.of("Authorization", "Bearer " + token, "Content-Type", "application/json");
    }

    /**
     * Where the service's {@code cpu} columns ({@code GET …/measurements/cpu}) differ from the
     * reference table's, in name, order or kind; asked after phase (a), so nothing comes between the
     * load and the first statement.
     */
    private static List<String> schemaFindings(URI base, String token, boolean integerFields) throws IOException, InterruptedException {
        JsonNode m = JSON.readTree(HttpCalls.send("GET", base.resolve("/api/v1/namespaces/" + NAMESPACE + "/measurements/cpu"),
                Map.of("Authorization", "Bearer " + token), null));
        List<String> service = new ArrayList<>();
        for (JsonNode c : m.get("columns")) {
            String kind = c.get("kind").asString();
            service.add(c.get("name").asString() + " " + switch (kind) {
                case "time" -> "TIMESTAMP_NS";
                case "tag" -> "VARCHAR";
                default -> c.get("type").asString();
            });
        }
        List<String> reference = DuckDbReference.columns(integerFields);
        return service.equals(reference) ? List.of()
                : List.of("the service's cpu columns " + service + " differ from the reference table's " + reference);
    }

    /** Feeds every tick to both sinks, and closes both. */
    private static TickSink both(TickSink a, TickSink b) {
        return new TickSink() {
            @Override
            public void open(Dataset dataset) {
                a.open(dataset);
                b.open(dataset);
            }

            @Override
            public void tick(long timeNanos, double[][] values) {
                a.tick(timeNanos, values);
                b.tick(timeNanos, values);
            }

            @Override
            public void close() {
                a.close();
                b.close();
            }
        };
    }

    private static long linesContaining(Path file, String text) throws IOException {
        try (Stream<String> lines = Files.lines(file, java.nio.charset.StandardCharsets.ISO_8859_1)) {
            return lines.filter(l -> l.contains(text)).count();
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
