package io.chronix.bench.stall;

import io.chronix.bench.cli.Options;
import io.chronix.bench.peer.PeerProcess;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * {@code stall}: does one tenant's heavy SQL hold up everyone else? Starts the service jar on a
 * fresh data directory (or uses a running service), creates two tenants, then probes {@code GET
 * /ping}, {@code GET /actuator/health/liveness} and a 10-point write of the other tenant one after
 * another, first on an idle service ({@code baseline}) and then while {@code --heavy} queries of the
 * first tenant run ({@code loaded}), and prints each probe's p50, p99 and max latency per phase.
 *
 * <pre>
 * stall [--jar api/target/chronix.jar] [--port 18090] [--jvm "-Xmx1g"] | [--url http://127.0.0.1:8080 --operator-token T]
 *       [--heavy 2] [--heavy-sql "SELECT count(*) FROM range(150000000000)"] [--baseline 5s] [--duration 20s] [--interval 20ms]
 * </pre>
 *
 * <p>The heavy tenant's {@code queryTimeout} is set to the loaded phase's length plus a few
 * seconds, so the service itself ends the heavy queries (408) after the phase. Probes run one at a
 * time over one keep-alive connection, each timed from send to the last byte; a probe that does not
 * answer as expected (204, 200, 204) is counted as an error and its time is still recorded.
 */
public final class StallCommand {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final List<String> PROBES = List.of("ping", "liveness", "write");

    private StallCommand() {
    }

    public static void run(Options o) throws Exception {
        String url = o.string("url", null);
        String operator = o.string("operator-token", null);
        Path jar = Path.of(o.string("jar", "api/target/chronix.jar"));
        int port = o.integer("port", 18090);
        String jvm = o.string("jvm", "-Xmx1g");
        int heavy = o.integer("heavy", 2);
        String heavySql = o.string("heavy-sql", "SELECT count(*) FROM range(150000000000)");
        Duration baseline = o.duration("baseline", Duration.ofSeconds(5));
        Duration duration = o.duration("duration", Duration.ofSeconds(20));
        Duration interval = o.duration("interval", Duration.ofMillis(20));
        o.rejectUnknown();

        PeerProcess service = null;
        Path dataDir = null;
        try {
            if (url == null) {
                dataDir = Files.createTempDirectory("chronix-stall");
                Path data = dataDir.resolve("data");
                Files.createDirectories(data);
                List<String> command = new ArrayList<>(List.of(PeerProcess.currentJava()));
                command.addAll(Arrays.asList(jvm.isBlank() ? new String[0] : jvm.trim().split("\\s+")));
                command.addAll(List.of("-jar", jar.toAbsolutePath().toString(), "--chronix.data-dir=" + data,
                        "--server.port=" + port, "--server.address=127.0.0.1"));
                url = "http://127.0.0.1:" + port;
                System.out.println("starting " + jar + " on " + url + " (data " + data + ")");
                service = PeerProcess.start("chronix", command, dataDir, dataDir.resolve("chronix.log"));
                service.awaitReady(URI.create(url + "/actuator/health"), Duration.ofMinutes(3));
                operator = Files.readString(data.resolve("operator-token")).strip();
            } else if (operator == null) {
                throw new IllegalArgumentException("--url needs --operator-token");
            }
            new Run(URI.create(url), operator, heavy, heavySql, baseline, duration, interval).run();
        } finally {
            if (service != null) {
                service.close();
            }
            if (dataDir != null) {
                deleteTree(dataDir);
            }
        }
    }

    private static final class Run {
        private final URI base;
        private final String operator;
        private final int heavy;
        private final String heavySql;
        private final Duration baseline;
        private final Duration duration;
        private final Duration interval;
        private final HttpClient probes = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        private final HttpClient heavyClient = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        private String heavyToken;
        private String otherToken;
        private long point;

        Run(URI base, String operator, int heavy, String heavySql, Duration baseline, Duration duration, Duration interval) {
            this.base = base;
            this.operator = operator;
            this.heavy = heavy;
            this.heavySql = heavySql;
            this.baseline = baseline;
            this.duration = duration;
            this.interval = interval;
        }

        void run() throws Exception {
            String suffix = Long.toString(System.currentTimeMillis() % 1_000_000_000L, 36);
            Duration heavyTimeout = duration.plusSeconds(3);
            heavyToken = tenant("stall-heavy-" + suffix, "{\"queryTimeout\": \"" + heavyTimeout + "\", \"maxConcurrentQueries\": "
                    + Math.max(heavy, 1) + "}");
            otherToken = tenant("stall-other-" + suffix, null);
            call("POST", "/api/v1/namespaces", heavyToken, "application/json", "{\"name\": \"heavy\"}", 201);
            call("POST", "/api/v1/namespaces", otherToken, "application/json", "{\"name\": \"other\"}", 201);
            // open the other tenant's engine and warm the probes' paths
            for (int i = 0; i < 50; i++) {
                for (String p : PROBES) {
                    probe(p);
                }
            }

            Map<String, List<Long>> idle = probeFor(baseline);

            ConcurrentLinkedQueue<String> outcomes = new ConcurrentLinkedQueue<>();
            List<Thread> heavyThreads = new ArrayList<>();
            long heavyStart = System.nanoTime();
            for (int i = 0; i < heavy; i++) {
                heavyThreads.add(Thread.ofPlatform().name("heavy-" + i).start(() -> {
                    try {
                        HttpResponse<String> r = heavyClient.send(HttpRequest.newBuilder(base.resolve("/api/v1/namespaces/heavy/query"))
                                .timeout(heavyTimeout.plusMinutes(2)).header("Authorization", "Bearer " + heavyToken)
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString("{\"sql\": " + JSON.writeValueAsString(heavySql) + "}")).build(),
                                HttpResponse.BodyHandlers.ofString());
                        outcomes.add(r.statusCode() + " after " + seconds(System.nanoTime() - heavyStart) + " s");
                    } catch (Exception e) {
                        outcomes.add("failed: " + e);
                    }
                }));
            }
            Thread.sleep(500); // the heavy statements are running
            Map<String, List<Long>> loaded = probeFor(duration);
            for (Thread t : heavyThreads) {
                t.join();
            }

            System.out.printf(Locale.ROOT, "%nstall test: %d heavy quer%s (%s) of one tenant; probes one at a time every %d ms%n",
                    heavy, heavy == 1 ? "y" : "ies", heavySql, interval.toMillis());
            System.out.printf(Locale.ROOT, "%-9s %-9s %6s %9s %9s %9s %7s%n", "phase", "probe", "n", "p50 ms", "p99 ms", "max ms", "errors");
            print("baseline", idle);
            print("loaded", loaded);
            System.out.println("heavy queries: " + String.join("; ", outcomes));
        }

        private final Map<String, Integer> errorsByProbe = new LinkedHashMap<>();

        private Map<String, List<Long>> probeFor(Duration d) throws Exception {
            Map<String, List<Long>> times = new LinkedHashMap<>();
            for (String p : PROBES) {
                times.put(p, new ArrayList<>());
                errorsByProbe.put(p, 0);
            }
            long end = System.nanoTime() + d.toNanos();
            int i = 0;
            while (System.nanoTime() < end) {
                String p = PROBES.get(i++ % PROBES.size());
                long t0 = System.nanoTime();
                boolean ok = probe(p);
                times.get(p).add(System.nanoTime() - t0);
                if (!ok) {
                    errorsByProbe.merge(p, 1, Integer::sum);
                }
                Thread.sleep(interval.toMillis());
            }
            return times;
        }

        private void print(String phase, Map<String, List<Long>> times) {
            for (Map.Entry<String, List<Long>> e : times.entrySet()) {
                long[] v = e.getValue().stream().mapToLong(Long::longValue).sorted().toArray();
                System.out.printf(Locale.ROOT, "%-9s %-9s %6d %9.2f %9.2f %9.2f %7d%n", phase, e.getKey(), v.length,
                        millis(percentile(v, 0.50)), millis(percentile(v, 0.99)), millis(v.length == 0 ? 0 : v[v.length - 1]),
                        errorsByProbe.getOrDefault(e.getKey(), 0));
            }
        }

        /** One probe; true if it answered as it should. */
        private boolean probe(String kind) throws InterruptedException {
            try {
                return switch (kind) {
                    case "ping" -> send("GET", "/ping", null, null, null).statusCode() == 204;
                    case "liveness" -> send("GET", "/actuator/health/liveness", null, null, null).statusCode() == 200;
                    case "write" -> {
                        StringBuilder lines = new StringBuilder();
                        long now = System.currentTimeMillis() * 1_000_000L;
                        for (int i = 0; i < 10; i++) {
                            lines.append("probe,host=h").append(i).append(" v=").append(point++).append("i ").append(now + i).append('\n');
                        }
                        yield send("POST", "/api/v1/namespaces/other/write?precision=ns", otherToken, "text/plain",
                                lines.toString()).statusCode() == 204;
                    }
                    default -> throw new IllegalArgumentException(kind);
                };
            } catch (IOException e) {
                return false;
            }
        }

        private HttpResponse<String> send(String method, String path, String token, String type, String body)
                throws IOException, InterruptedException {
            HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofMinutes(2))
                    .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
            if (token != null) {
                b.header("Authorization", "Bearer " + token);
            }
            if (type != null) {
                b.header("Content-Type", type);
            }
            return probes.send(b.build(), HttpResponse.BodyHandlers.ofString());
        }

        private String call(String method, String path, String token, String type, String body, int expected)
                throws IOException, InterruptedException {
            HttpResponse<String> r = send(method, path, token, type, body);
            if (r.statusCode() != expected) {
                throw new IOException(method + " " + path + " answered " + r.statusCode() + ": " + r.body());
            }
            return r.body();
        }

        private String tenant(String name, String quotas) throws IOException, InterruptedException {
            JsonNode t = JSON.readTree(call("POST", "/api/v1/tenants", operator, "application/json",
                    "{\"name\": \"" + name + "\"" + (quotas == null ? "" : ", \"quotas\": " + quotas) + "}", 201));
            return t.get("adminToken").asString();
        }
    }

    static long percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int i = (int) Math.ceil(p * sorted.length) - 1;
        return sorted[Math.clamp(i, 0, sorted.length - 1)];
    }

    private static double millis(long nanos) {
        return nanos / 1e6;
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.1f", nanos / 1e9);
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
