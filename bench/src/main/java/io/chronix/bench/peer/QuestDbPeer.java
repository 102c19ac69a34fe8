package io.chronix.bench.peer;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * QuestDB's {@code io.questdb.ServerMain} in a child JVM, HTTP (line protocol at {@code /write},
 * SQL at {@code /exec}) on 127.0.0.1; PostgreSQL wire, TCP/UDP line protocol and the metrics port
 * off; telemetry off.
 *
 * <p>Durability: QuestDB's default {@code cairo.commit.mode=nosync} acknowledges a write before any
 * fsync; {@code fsync=true} sets {@code sync}, which fsyncs each commit.
 */
public final class QuestDbPeer {
    private QuestDbPeer() {
    }

    public static String durability(boolean fsync) {
        return fsync ? "cairo.commit.mode=sync (fsync per commit)" : "cairo.commit.mode=nosync (default: no fsync before ack)";
    }

    public static PeerProcess start(Path questDbJar, Path root, int httpPort, boolean fsync, String heap)
            throws IOException, InterruptedException {
        if (!Files.isRegularFile(questDbJar)) {
            throw new IOException("QuestDB jar not found at " + questDbJar
                    + " (build with: ./mvnw -Pbench -pl bench -am package -DskipTests)");
        }
        Files.createDirectories(root.resolve("conf"));
        Files.writeString(root.resolve("conf/server.conf"), String.join("\n",
                "http.bind.to=127.0.0.1:" + httpPort,
                "http.min.enabled=false",
                "pg.enabled=false",
                "line.tcp.enabled=false",
                "line.udp.enabled=false",
                "telemetry.enabled=false",
                "cairo.commit.mode=" + (fsync ? "sync" : "nosync"),
                "") );
        // the heap options of QuestDB's own service unit: a maximum, touched at start
        List<String> command = List.of(PeerProcess.currentJava(), "-Xmx" + heap, "-XX:+AlwaysPreTouch",
                "--add-opens=java.base/java.nio=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED",
                "--sun-misc-unsafe-memory-access=allow",
                "-cp", questDbJar.toAbsolutePath().toString(), "io.questdb.ServerMain", "-d", root.toAbsolutePath().toString());
        PeerProcess p = PeerProcess.start("questdb", command, root, root.resolve("questdb.log"));
        try {
            p.awaitReady(URI.create("http://127.0.0.1:" + httpPort + "/exec?query=select%201"), Duration.ofSeconds(60));
        } catch (IOException | InterruptedException e) {
            p.close();
            throw e;
        }
        return p;
    }
}
