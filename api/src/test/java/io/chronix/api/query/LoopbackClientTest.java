package io.chronix.api.query;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The warm-up's HTTP client against the JDK's HTTP server: what it sends, answers by length, in
 * chunks and without a body, a connection the server closes, and an answer that is not HTTP.
 */
class LoopbackClientTest {

    /** What the server saw of each request. */
    record Seen(String method, String target, String host, String userAgent, String authorization, String body, int remotePort) {
    }

    HttpServer server;
    final List<Seen> seen = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::answer);
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private void answer(HttpExchange x) throws IOException {
        byte[] body = x.getRequestBody().readAllBytes();
        seen.add(new Seen(x.getRequestMethod(), x.getRequestURI().toString(), x.getRequestHeaders().getFirst("Host"),
                x.getRequestHeaders().getFirst("User-Agent"), x.getRequestHeaders().getFirst("Authorization"),
                new String(body, StandardCharsets.UTF_8), x.getRemoteAddress().getPort()));
        String path = x.getRequestURI().getPath();
        switch (path) {
            case "/length" -> {
                byte[] out = "by length".getBytes(StandardCharsets.UTF_8);
                x.sendResponseHeaders(200, out.length);
                x.getResponseBody().write(out);
            }
            case "/chunks" -> {
                x.sendResponseHeaders(200, 0); // chunked
                OutputStream out = x.getResponseBody();
                for (int i = 0; i < 1000; i++) {
                    out.write(("row " + i + "\n").getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
            }
            case "/empty" -> x.sendResponseHeaders(204, -1);
            case "/close" -> {
                x.getResponseHeaders().add("Connection", "close");
                x.sendResponseHeaders(403, 2);
                x.getResponseBody().write("no".getBytes(StandardCharsets.UTF_8));
            }
            default -> x.sendResponseHeaders(404, -1);
        }
        x.close();
    }

    LoopbackClient client() {
        return new LoopbackClient("127.0.0.1", server.getAddress().getPort(), Duration.ofSeconds(5));
    }

    @Test
    void sendsTheRequestAndReadsAnswersByLengthInChunksAndWithoutABodyOnOneConnection() throws Exception {
        try (LoopbackClient c = client()) {
            LoopbackClient.Response r = c.send("POST", "/length?x=1", "{\"sql\":\"SELECT 1\"}".getBytes(StandardCharsets.UTF_8),
                    "Authorization", "Bearer cx_t", "Content-Type", "application/json");
            assertThat(r.status()).isEqualTo(200);
            assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo("by length");

            r = c.send("GET", "/chunks", null, "Accept", "text/csv");
            assertThat(r.status()).isEqualTo(200);
            StringBuilder expected = new StringBuilder();
            for (int i = 0; i < 1000; i++) {
                expected.append("row ").append(i).append('\n');
            }
            assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo(expected.toString());

            r = c.send("POST", "/empty", new byte[0]);
            assertThat(r.status()).isEqualTo(204);
            assertThat(r.body()).isEmpty();
            assertThat(c.send("GET", "/missing", null).status()).isEqualTo(404);
        }
        int port = server.getAddress().getPort();
        assertThat(seen).hasSize(4);
        assertThat(seen.getFirst()).isEqualTo(new Seen("POST", "/length?x=1", "127.0.0.1:" + port, "chronix-warm-up", "Bearer cx_t",
                "{\"sql\":\"SELECT 1\"}", seen.getFirst().remotePort()));
        assertThat(seen).extracting(Seen::remotePort).as("one kept-alive connection").containsOnly(seen.getFirst().remotePort());
    }

    @Test
    void aConnectionTheServerClosesIsOpenedAgainForTheNextRequest() throws Exception {
        try (LoopbackClient c = client()) {
            LoopbackClient.Response r = c.send("GET", "/close", null);
            assertThat(r.status()).isEqualTo(403);
            assertThat(r.bodyText(10)).isEqualTo("no");
            assertThat(c.send("GET", "/length", null).status()).isEqualTo(200);
        }
        assertThat(seen).extracting(Seen::remotePort).doesNotHaveDuplicates();
    }

    @Test
    void anAnswerThatIsNotHttpIsAnError() throws Exception {
        try (var socket = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread t = Thread.ofVirtual().start(() -> {
                try (var s = socket.accept()) {
                    s.getInputStream().read(new byte[1024]);
                    s.getOutputStream().write("SSH-2.0-OpenSSH\r\n".getBytes(StandardCharsets.UTF_8));
                } catch (IOException ignored) {
                    // the test's assertion is on the client's side
                }
            });
            try (LoopbackClient c = new LoopbackClient("127.0.0.1", socket.getLocalPort(), Duration.ofSeconds(5))) {
                assertThatThrownBy(() -> c.send("GET", "/", null)).isInstanceOf(IOException.class)
                        .hasMessageContaining("not an HTTP/1.1 status line: SSH-2.0-OpenSSH");
            }
            t.join();
        }
    }
}
