package io.chronix.bench.peer;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * InfluxDB 1.x ({@code influxd}) in a child process, HTTP on 127.0.0.1 ({@code /write},
 * {@code /query}), the meta RPC port on the next-but-one port, usage reporting, the monitor store and
 * continuous queries off, no row or series limits.
 *
 * <p>Durability: {@code wal-fsync-delay = "0s"} (InfluxDB's default) fsyncs the WAL before each write
 * is acknowledged.
 */
public final class InfluxDbPeer {
    private InfluxDbPeer() {
    }

    public static final String DURABILITY = "wal-fsync-delay=0s (default: WAL fsync before ack)";

    public static PeerProcess start(String influxd, Path root, int httpPort) throws IOException, InterruptedException {
        Files.createDirectories(root);
        Path conf = root.resolve("influxdb.conf");
        Files.writeString(conf, String.join("\n",
                "reporting-disabled = true",
                "bind-address = \"127.0.0.1:" + (httpPort + 2) + "\"",
                "[meta]",
                "  dir = \"" + root.resolve("meta") + "\"",
                "[data]",
                "  dir = \"" + root.resolve("data") + "\"",
                "  wal-dir = \"" + root.resolve("wal") + "\"",
                "  wal-fsync-delay = \"0s\"",
                "  query-log-enabled = false",
                "  max-series-per-database = 0",
                "  max-values-per-tag = 0",
                "[http]",
                "  bind-address = \"127.0.0.1:" + httpPort + "\"",
                "  log-enabled = false",
                "  max-row-limit = 0",
                "  max-body-size = 0",
                "[continuous_queries]",
                "  enabled = false",
                "[monitor]",
                "  store-enabled = false",
                "[subscriber]",
                "  enabled = false",
                ""));
        PeerProcess p = PeerProcess.start("influxdb", List.of(influxd, "-config", conf.toString()), root,
                root.resolve("influxd.log"));
        try {
            p.awaitReady(URI.create("http://127.0.0.1:" + httpPort + "/ping"), Duration.ofSeconds(60));
        } catch (IOException | InterruptedException e) {
            p.close();
            throw e;
        }
        return p;
    }
}
