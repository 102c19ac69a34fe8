package io.chronix.bench.e2e;

import io.chronix.bench.peer.InfluxDbPeer;
import io.chronix.bench.peer.PeerProcess;
import io.chronix.bench.query.dialect.InfluxQlDialect;
import io.chronix.bench.query.dialect.QueryDialect;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/** InfluxDB 1.x as a peer: {@code /write?db=bench}, InfluxQL over {@code /query}. */
final class InfluxDbTarget implements Target {
    private static final String DB = "bench";
    private final String influxd;
    private final Path root;
    private final int port;
    private final InfluxQlDialect dialect;
    private PeerProcess process;

    InfluxDbTarget(String influxd, Path root, int port, long dataStartNanos, Duration queryTimeout) {
        this.influxd = influxd;
        this.root = root;
        this.port = port;
        this.dialect = new InfluxQlDialect(URI.create("http://127.0.0.1:" + port), DB, dataStartNanos, queryTimeout);
    }

    @Override
    public String name() {
        return "influxdb";
    }

    @Override
    public String durability() {
        return InfluxDbPeer.DURABILITY;
    }

    @Override
    public void start() throws Exception {
        process = InfluxDbPeer.start(influxd, root, port);
        HttpCalls.send("POST", URI.create("http://127.0.0.1:" + port + "/query?q="
                + URLEncoder.encode("CREATE DATABASE " + DB, StandardCharsets.UTF_8)), Map.of(), null);
    }

    @Override
    public URI writeUrl() {
        return URI.create("http://127.0.0.1:" + port + "/write?db=" + DB + "&precision=n");
    }

    @Override
    public Map<String, String> writeHeaders() {
        return Map.of();
    }

    @Override
    public QueryDialect dialect() {
        return dialect;
    }

    @Override
    public void awaitRows(long rows) throws Exception {
        RowCount.await(dialect, "SELECT count(usage_user) FROM cpu", rows, Duration.ofMinutes(2));
    }

    @Override
    public long bytesOnDisk() throws Exception {
        return PeerProcess.bytesUnder(root.resolve("data")) + PeerProcess.bytesUnder(root.resolve("wal"));
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
