package io.chronix.bench.query;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Compiles the runner's own request path before any target is timed. The runner is a JVM: its first
 * thousands of requests run {@link HttpClient}'s code interpreted, and the target measured first would
 * pay for that in every timed span (TSBS's runner is compiled ahead of time and has no such phase).
 * The warm-up sends each target's own request shapes — the dialect's requests, re-pointed — to a
 * server inside this process that answers a fixed JSON body, so no target sees any of it, and every
 * target is then timed with the same, compiled client. Once per process.
 */
public final class ClientWarmUp {
    /** Requests sent by default: enough for the client's request path to reach compiled code. */
    public static final int DEFAULT_REQUESTS = 5_000;
    private static final AtomicBoolean DONE = new AtomicBoolean();
    /** About the size of a small query's JSON answer. */
    private static final byte[] BODY = answer(60);

    private ClientWarmUp() {
    }

    /**
     * Sends {@code requests} requests, cycling through the {@code shapes} (each re-pointed at a local
     * server; asked for only when the warm-up runs), through {@code client}, unless a warm-up already
     * ran in this process or {@code requests} is 0. Returns the time it took in nanoseconds (0 when
     * skipped).
     */
    public static long run(HttpClient client, Supplier<List<HttpRequest>> shapesOf, int requests)
            throws IOException, InterruptedException {
        if (requests <= 0 || !DONE.compareAndSet(false, true)) {
            return 0;
        }
        List<HttpRequest> shapes = shapesOf.get();
        if (shapes.isEmpty()) {
            return 0;
        }
        long t0 = System.nanoTime();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.createContext("/", exchange -> {
            try (InputStream in = exchange.getRequestBody(); OutputStream out = exchange.getResponseBody()) {
                in.transferTo(OutputStream.nullOutputStream());
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, BODY.length);
                out.write(BODY);
            }
        });
        server.start();
        try {
            URI local = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
            for (int i = 0; i < requests; i++) {
                HttpRequest shape = shapes.get(i % shapes.size());
                URI u = shape.uri();
                URI to = local.resolve(u.getRawPath() + (u.getRawQuery() == null ? "" : "?" + u.getRawQuery()));
                HttpRequest request = HttpRequest.newBuilder(shape, (name, value) -> true).uri(to).build();
                HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() != 200 || response.body().length() != BODY.length) {
                    throw new IOException("client warm-up: the local server answered " + response.statusCode());
                }
            }
        } finally {
            server.stop(0);
        }
        return System.nanoTime() - t0;
    }

    /** A JSON answer of {@code rows} rows of a timestamp and a number, as the targets send them. */
    static byte[] answer(int rows) {
        StringBuilder sb = new StringBuilder("{\"columns\":[{\"name\":\"time\",\"type\":\"TIMESTAMP\"},"
                + "{\"name\":\"v\",\"type\":\"DOUBLE\"}],\"rows\":[");
        for (int i = 0; i < rows; i++) {
            sb.append(i == 0 ? "" : ",").append("[\"2016-01-01T00:").append(i % 60 < 10 ? "0" : "").append(i % 60)
                    .append(":00Z\",").append(40 + i % 50).append(".5]");
        }
        return sb.append("]}").toString().getBytes(StandardCharsets.UTF_8);
    }
}
