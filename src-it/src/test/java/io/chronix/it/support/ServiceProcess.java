package io.chronix.it.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * The service jar ({@code api/target/chronix.jar}) running as a child process, started exactly as
 * a user starts it: {@code java -jar chronix.jar --server.port=… --chronix.data-dir=… [args]}. The
 * child's output is captured for assertions and shown when a test fails.
 */
public final class ServiceProcess implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

    private final Process process;
    private final int port;
    private final Path dataDir;
    private final List<String> output = new CopyOnWriteArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private ServiceProcess(Process process, int port, Path dataDir) {
        this.process = process;
        this.port = port;
        this.dataDir = dataDir;
        Thread.ofPlatform().daemon().name("service-output-" + port).start(this::pump);
    }

    /**
     * Starts the jar on a free port (unless {@code args} sets {@code --server.port}) with
     * {@code dataDir}; does not wait for it to be ready.
     */
    public static ServiceProcess launch(Path dataDir, List<String> args) throws IOException {
        return launch(dataDir, List.of("-Xmx512m"), args);
    }

    /** As {@link #launch(Path, List)}, with {@code jvmArgs} (heap size and the like) for the service's JVM. */
    public static ServiceProcess launch(Path dataDir, List<String> jvmArgs, List<String> args) throws IOException {
        int port = freePort();
        Path jar = Path.of(System.getProperty("chronix.jar", "../api/target/chronix.jar")).toAbsolutePath().normalize();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("service jar not built [jar=" + jar + "]; run ./mvnw package first");
        }
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmArgs);
        cmd.add("-jar");
        cmd.add(jar.toString());
        if (args.stream().noneMatch(a -> a.startsWith("--server.port="))) {
            cmd.add("--server.port=" + port);
        }
        cmd.add("--chronix.data-dir=" + dataDir);
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().remove("CHRONIX_OPERATOR_TOKEN");
        return new ServiceProcess(pb.start(), port, dataDir);
    }

    /** Starts the jar and waits until {@code /actuator/health} answers UP. */
    public static ServiceProcess start(Path dataDir, List<String> args) throws IOException, InterruptedException {
        ServiceProcess p = launch(dataDir, args);
        p.awaitHealthy();
        return p;
    }

    /** As {@link #start(Path, List)}, with {@code jvmArgs} for the service's JVM. */
    public static ServiceProcess start(Path dataDir, List<String> jvmArgs, List<String> args) throws IOException, InterruptedException {
        ServiceProcess p = launch(dataDir, jvmArgs, args);
        p.awaitHealthy();
        return p;
    }

    public int port() {
        return port;
    }

    public Path dataDir() {
        return dataDir;
    }

    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    /** Everything the process printed so far. */
    public String output() {
        return String.join("\n", output);
    }

    public void awaitHealthy() throws InterruptedException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("service exited with " + process.exitValue() + " before it was healthy:\n" + output());
            }
            try {
                HttpResponse<String> r = get("/actuator/health", null);
                if (r.statusCode() == 200 && r.body().contains("\"status\":\"UP\"")) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("service not healthy after " + START_TIMEOUT + ":\n" + output());
    }

    /** Waits for the process to exit by itself (a start-up that must fail) and returns its status. */
    public int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("service still running after " + timeout + ":\n" + output());
        }
        Thread.sleep(100); // let the output pump drain the last lines
        return process.exitValue();
    }

    public HttpResponse<String> get(String path, String bearer) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(uri(path)).GET(), bearer);
    }

    public HttpResponse<String> send(HttpRequest.Builder request, String bearer) throws IOException, InterruptedException {
        request.timeout(Duration.ofSeconds(30));
        if (bearer != null) {
            request.header("Authorization", "Bearer " + bearer);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The generated operator token, as stored in {@code <data>/operator-token}. */
    public String operatorTokenFromFile() throws IOException {
        return Files.readString(dataDir.resolve("operator-token"), StandardCharsets.UTF_8).strip();
    }

    /** Stops the service as an operator would (SIGTERM) and waits for it. */
    public void stop() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }

    /** Kills it without warning (SIGKILL), as a crash would. */
    public void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }

    private void pump() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                output.add(line);
            }
        } catch (IOException ignored) {
            // the process is gone
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
