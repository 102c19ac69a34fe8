package io.chronix.bench.peer;

import io.chronix.bench.cli.Options;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code bench peer}: starts one peer on a fresh directory and keeps it running until this process
 * is stopped (Ctrl-C or SIGTERM stops the peer too), so {@code load} and {@code query} can be pointed
 * at it by hand.
 *
 * <pre>
 * --name questdb|influxdb     --root DIR (default: a new temporary directory)
 * --port N (default 9000 for QuestDB, 8086 for InfluxDB)
 * --questdb-jar FILE (default bench/target/peers/questdb.jar)   --fsync (QuestDB: sync commits)   --heap 2g
 * --influxd PATH (default influxd)
 * </pre>
 */
public final class PeerCommand {
    private PeerCommand() {
    }

    public static void run(Options o) throws Exception {
        String name = o.required("name");
        Path root = o.has("root") ? Path.of(o.required("root")) : Files.createTempDirectory("bench-" + name + "-");
        PeerProcess p = switch (name) {
            case "questdb" -> QuestDbPeer.start(Path.of(o.string("questdb-jar", "bench/target/peers/questdb.jar")), root,
                    o.integer("port", 9000), o.flag("fsync"), o.string("heap", "2g"));
            case "influxdb" -> InfluxDbPeer.start(o.string("influxd", "influxd"), root, o.integer("port", 8086));
            default -> throw new IllegalArgumentException("unknown peer '" + name + "' (questdb, influxdb)");
        };
        o.rejectUnknown();
        Runtime.getRuntime().addShutdownHook(new Thread(p::close));
        System.out.println(name + " running, pid " + p.pid() + ", data in " + root + "; stop with Ctrl-C");
        Thread.currentThread().join();
    }
}
