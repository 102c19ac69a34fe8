package io.chronix.bench.peer;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A server started as a child process, its output in a log file; ready when an HTTP probe answers
 * 2xx. {@link #close} stops it (SIGTERM, then SIGKILL after a grace period).
 */
public final class PeerProcess implements AutoCloseable {
    private final String name;
    private final Process process;
    private final Path log;

    private PeerProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    public static PeerProcess start(String name, List<String> command, Path workDir, Path log) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        return new PeerProcess(name, pb.start(), log);
    }

    /** Waits until {@code probe} answers 2xx; fails if the process dies or {@code timeout} passes. */
    public void awaitReady(URI probe, Duration timeout) throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException(name + " exited with " + process.exitValue() + " before it was ready; log "
                        + log + ":\n" + tail());
            }
            try {
                HttpResponse<Void> r = client.send(HttpRequest.newBuilder(probe).timeout(Duration.ofSeconds(2)).GET().build(),
                        HttpResponse.BodyHandlers.discarding());
                if (r.statusCode() / 100 == 2) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        throw new IOException(name + " not ready after " + timeout + " (probe " + probe + "); log " + log + ":\n" + tail());
    }

    public long pid() {
        return process.pid();
    }

    /**
     * CPU time the process has used so far (user + system, all its threads, JIT and GC included), or
     * -1 where the platform does not tell.
     */
    public long cpuNanos() {
        return process.toHandle().info().totalCpuDuration().map(java.time.Duration::toNanos).orElse(-1L);
    }

    /**
     * CPU time each kind of thread of the process has used so far ({@link ThreadCpu}), read from
     * {@code /proc}; empty where the platform has none. Threads that ended are not counted, so take
     * differences over a window in which the kinds of interest live throughout (a JVM's compiler and
     * GC threads do; a pool may end threads, which then drop out of "other").
     */
    public java.util.Map<String, Long> threadCpuNanos() {
        return ThreadCpu.ofProcess(process.pid());
    }

    /** The last lines of the log, for error messages. */
    public String tail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Bytes the files under {@code dir} occupy on disk: allocated blocks, as {@code du} counts them,
     * because some targets preallocate sparse files (QuestDB maps column and WAL files far larger than
     * what they hold) and their apparent size says nothing about storage cost. Falls back to apparent
     * sizes where {@code du} is not available.
     */
    public static long bytesUnder(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return 0;
        }
        try {
            Process du = new ProcessBuilder("du", "-s", "-B1", dir.toString()).redirectErrorStream(false).start();
            String out = new String(du.getInputStream().readAllBytes()).trim();
            if (du.waitFor() == 0 && !out.isEmpty()) {
                return Long.parseLong(out.split("\\s+")[0]);
            }
        } catch (IOException | NumberFormatException e) {
            // no du here: fall through to apparent sizes
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return apparentBytesUnder(dir);
    }

    /** Sum of the regular files' sizes under {@code dir}. */
    public static long apparentBytesUnder(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    return 0; // a file removed while walking (compaction, WAL purge) no longer counts
                }
            }).sum();
        }
    }

    /** The java launcher of this JVM, so children run on the same JDK. */
    public static String currentJava() {
        return ProcessHandle.current().info().command().orElse("java");
    }
}
