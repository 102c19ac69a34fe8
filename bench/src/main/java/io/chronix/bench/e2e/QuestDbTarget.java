package io.chronix.bench.e2e;

import io.chronix.bench.peer.PeerProcess;
import io.chronix.bench.peer.QuestDbPeer;
import io.chronix.bench.query.dialect.QueryDialect;
import io.chronix.bench.query.dialect.QuestDbDialect;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/** QuestDB as a peer: line protocol over HTTP {@code /write}, SQL over {@code /exec}. */
final class QuestDbTarget implements Target {
    private final Path jar;
    private final Path root;
    private final int port;
    private final boolean fsync;
    private final String heap;
    private final QuestDbDialect dialect;
    private PeerProcess process;

    QuestDbTarget(Path jar, Path root, int port, boolean fsync, String heap, Duration queryTimeout) {
        this.jar = jar;
        this.root = root;
        this.port = port;
        this.fsync = fsync;
        this.heap = heap;
        this.dialect = new QuestDbDialect(URI.create("http://127.0.0.1:" + port), queryTimeout);
    }

    @Override
    public String name() {
        return "questdb";
    }

    @Override
    public String durability() {
        return QuestDbPeer.durability(fsync);
    }

    @Override
    public void start() throws Exception {
        process = QuestDbPeer.start(jar, root, port, fsync, heap);
    }

    @Override
    public URI writeUrl() {
        return URI.create("http://127.0.0.1:" + port + "/write?precision=n");
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
        // WAL tables apply committed rows asynchronously: visible a little after the acknowledgement.
        RowCount.await(dialect, "SELECT count() AS n FROM cpu", rows, Duration.ofMinutes(10));
    }

    @Override
    public long bytesOnDisk() throws Exception {
        return PeerProcess.bytesUnder(root.resolve("db"));
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
