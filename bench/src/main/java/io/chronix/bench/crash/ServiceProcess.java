package io.chronix.bench.crash;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One run of the service's jar on a data directory, started, waited for, and stopped (SIGTERM) or
 * killed (SIGKILL). The crash suite and the live query suite ({@code live.LiveCommand}) start the jar
 * through it.
 */
public final class ServiceProcess {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final Process process;
    private final int port;
    private final long startedNanos = System.nanoTime();

    private ServiceProcess(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /**
     * Starts the jar on {@code data}, listening on {@code port}, its output appended to {@code log}.
     *
     * @param serviceArgs further service arguments ({@code --name=value}), after the data directory and port
     */
    public static ServiceProcess start(String java, Path jar, Path data, int port, List<String> jvmOptions,
                                       List<String> serviceArgs, Path log) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-jar", jar.toString(), "--chronix.data-dir=" + data, "--server.port=" + port));
        cmd.addAll(serviceArgs);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        return new ServiceProcess(p, port);
    }

    public URI base() {
        return URI.create("http://127.0.0.1:" + port);
    }

    /**
     * Waits until readiness answers 200.
     *
     * @return the time from the launch to ready
     * @throws IOException if the process exits first or the time runs out
     */
    public Duration awaitReady(Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        HttpRequest req = HttpRequest.newBuilder(base().resolve("/actuator/health/readiness")).timeout(Duration.ofSeconds(2)).build();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("the service exited with " + process.exitValue() + " before it was ready");
            }
            try {
                if (HTTP.send(req, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return Duration.ofNanos(System.nanoTime() - startedNanos);
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(100);
        }
        throw new IOException("the service was not ready within " + timeout);
    }

    /** SIGKILL, as {@code kill -9}: no shutdown hook runs, nothing is flushed or closed. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(60, TimeUnit.SECONDS);
    }

    /** Stops it the polite way (SIGTERM), waiting up to two minutes before a SIGKILL. */
    public void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }

    /** The embedded PostgreSQL's postmaster on {@code data}, if one runs. */
    static Optional<ProcessHandle> postmaster(Path data) throws IOException {
        try {
            List<String> lines = Files.readAllLines(data.resolve("postgres").resolve("postmaster.pid"));
            if (lines.isEmpty()) {
                return Optional.empty();
            }
            return ProcessHandle.of(Long.parseLong(lines.getFirst().trim())).filter(ProcessHandle::isAlive)
                    .filter(h -> h.info().command().map(c -> c.endsWith("/postgres")).orElse(false));
        } catch (NoSuchFileException | NumberFormatException e) {
            return Optional.empty();
        }
    }
}
