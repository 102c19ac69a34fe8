package io.chronix.bench.e2e;

import io.chronix.bench.peer.PeerProcess;
import io.chronix.bench.query.dialect.ChronixSqlDialect;
import io.chronix.bench.query.dialect.QueryDialect;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Chronix's service jar on a fresh data directory, driven only through the API (shared/API.md): the
 * operator token from {@code <data>/operator-token}, {@code POST /api/v1/tenants} for a tenant and its
 * admin token, {@code POST /api/v1/namespaces} for the namespace, then the write and query
 * endpoints of that namespace (never its flush: queries follow the load as a user's would).
 */
public final class ChronixTarget implements Target {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String NAMESPACE = "bench";

    private final Path jar;
    private final Path dataDir;
    private final int port;
    private final Duration queryTimeout;
    private final List<String> jvmArgs;
    private final String fsyncPolicy;
    private final List<String> extraArgs;
    private PeerProcess process;
    private String token;
    private ChronixSqlDialect dialect;

    /**
     * @param jvmArgs     options for the service's JVM (before {@code -jar}), e.g. a flight recording
     * @param fsyncPolicy the service's default fsync policy ({@code chronix.engine.fsync-policy}), or null for its default
     * @param extraArgs   further service arguments
     */
    ChronixTarget(Path jar, Path dataDir, int port, Duration queryTimeout, List<String> jvmArgs, String fsyncPolicy,
                  List<String> extraArgs) {
        this.jar = jar;
        this.dataDir = dataDir;
        this.port = port;
        this.queryTimeout = queryTimeout;
        this.jvmArgs = List.copyOf(jvmArgs);
        this.fsyncPolicy = fsyncPolicy;
        this.extraArgs = List.copyOf(extraArgs);
    }

    /**
     * The heap options the service's operations guide prescribes, for a heap of {@code size} (a JVM
     * size: {@code 4g}): fixed and touched at start, so neither the collector's pauses nor the
     * requests after a load fault in pages of a heap that grew.
     */
    public static List<String> heapOptions(String size) {
        if (!size.matches("[0-9]+[kKmMgG]?")) {
            throw new IllegalArgumentException("--heap: '" + size + "' is not a JVM heap size (e.g. 4g, 2048m)");
        }
        return List.of("-Xms" + size, "-Xmx" + size, "-XX:+AlwaysPreTouch");
    }

    @Override
    public String name() {
        return "chronix";
    }

    @Override
    public String durability() {
        return fsyncPolicy == null ? "service default (group commit, fsync before ack)" : "fsync policy " + fsyncPolicy;
    }

    private URI base() {
        return URI.create("http://127.0.0.1:" + port);
    }

    @Override
    public void start() throws Exception {
        if (!Files.isRegularFile(jar)) {
            throw new IOException("Chronix service jar not found at " + jar + " (build it: ./mvnw -pl api -am package -DskipTests)");
        }
        Files.createDirectories(dataDir);
        List<String> command = new java.util.ArrayList<>(List.of(PeerProcess.currentJava()));
        command.addAll(jvmArgs);
        command.addAll(List.of("-jar", jar.toAbsolutePath().toString(), "--chronix.data-dir=" + dataDir.toAbsolutePath(),
                "--server.port=" + port, "--server.address=127.0.0.1"));
        if (fsyncPolicy != null) {
            command.add("--chronix.engine.fsync-policy=" + fsyncPolicy);
        }
        command.addAll(extraArgs);
        process = PeerProcess.start("chronix", command, dataDir.getParent(), dataDir.resolveSibling("chronix.log"));
        process.awaitReady(base().resolve("/actuator/health"), Duration.ofMinutes(5)); // start-up warm-ups on a busy two-core machine: over 2 min
        String operator = Files.readString(dataDir.resolve("operator-token")).strip();
        String tenant = HttpCalls.send("POST", base().resolve("/api/v1/tenants"), json(operator),
                "{\"name\":\"bench\",\"adminEmail\":\"bench@example.invalid\",\"adminPassword\":\"bench-password-0123\"}");
        JsonNode created = JSON.readTree(tenant);
        if (!created.has("adminToken")) {
            throw new IOException("tenant creation answered without adminToken: " + tenant);
        }
        token = created.get("adminToken").asString();
        HttpCalls.send("POST", base().resolve("/api/v1/namespaces"), json(token), "{\"name\":\"" + NAMESPACE + "\"}");
        dialect = new ChronixSqlDialect(base(), NAMESPACE, "Bearer " + token, queryTimeout);
    }

    private static Map<String, String> json(String token) {
        return Map.of("Authorization", "Bearer " + token, "Content-Type", "application/json");
    }

    @Override
    public URI writeUrl() {
        return base().resolve("/api/v1/namespaces/" + NAMESPACE + "/write?precision=ns");
    }

    @Override
    public Map<String, String> writeHeaders() {
        return Map.of("Authorization", "Bearer " + token);
    }

    @Override
    public QueryDialect dialect() {
        return dialect;
    }

    @Override
    public void awaitRows(long rows) throws Exception {
        // acknowledged writes are visible at once; a short timeout turns a lost write into a failure
        RowCount.await(dialect, "SELECT count(*) AS n FROM cpu", rows, Duration.ofSeconds(10));
    }

    @Override
    public long bytesOnDisk() throws Exception {
        // the time-series data: every namespace's WAL, segments, sidecars and catalog, and the cold
        // tier's objects. Not the accounts database the service embeds when no PostgreSQL is
        // configured (about 43 MB of PostgreSQL cluster, whatever the data): it holds tenants and
        // tokens, is absent with an external database, and would swamp the figure of a small load.
        return PeerProcess.bytesUnder(dataDir.resolve("namespaces")) + PeerProcess.bytesUnder(dataDir.resolve("cold"));
    }

    @Override
    public long cpuNanos() {
        return process == null ? -1 : process.cpuNanos();
    }

    @Override
    public java.util.Map<String, Long> threadCpuNanos() {
        return process == null ? java.util.Map.of() : process.threadCpuNanos();
    }

    @Override
    public void close() {
        if (process != null) {
            process.close();
        }
    }
}
