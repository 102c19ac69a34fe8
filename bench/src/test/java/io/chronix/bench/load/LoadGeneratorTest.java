package io.chronix.bench.load;

import com.sun.net.httpserver.HttpServer;
import io.chronix.bench.generator.CpuOnlyConfig;
import io.chronix.bench.generator.GenerateCommand;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPInputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LoadGeneratorTest {
    private HttpServer server;
    private final ConcurrentLinkedQueue<String> received = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> authorizations = new ConcurrentLinkedQueue<>();
    private final AtomicInteger requests = new AtomicInteger();

    /** A write endpoint that answers {@code failOn}-th request (1-based) with 500, others with 204. */
    private URI serve(int failOn) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/write", exchange -> {
            int n = requests.incrementAndGet();
            InputStream body = exchange.getRequestBody();
            if ("gzip".equals(exchange.getRequestHeaders().getFirst("Content-Encoding"))) {
                body = new GZIPInputStream(body);
            }
            received.add(new String(body.readAllBytes(), StandardCharsets.UTF_8));
            authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
            if (n == failOn) {
                byte[] answer = "{\"title\":\"boom\"}".getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(500, answer.length);
                exchange.getResponseBody().write(answer);
            } else {
                exchange.sendResponseHeaders(204, -1);
            }
            exchange.close();
        });
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/write?precision=ns");
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    private static byte[] data() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        GenerateCommand.write(CpuOnlyConfig.of(10, Duration.ofMinutes(10), 1, true), out); // 600 lines
        return out.toByteArray();
    }

    @Test
    void everyLineArrivesOnceInWholeLineBatchesWithTheHeader() throws Exception {
        URI url = serve(-1);
        byte[] data = data();
        LoadConfig config = new LoadConfig(url, Map.of("Authorization", "Bearer t0k"), 70, 3, false, Duration.ofSeconds(30));
        LoadReport report = new LoadGenerator(config).run(new ByteArrayInputStream(data));
        assertThat(report.rows()).isEqualTo(600);
        assertThat(report.values()).isEqualTo(6000);
        assertThat(report.requests()).isEqualTo(9); // 8 x 70 + 40
        assertThat(report.bodyBytes()).isEqualTo(data.length);
        assertThat(received).allMatch(b -> b.endsWith("\n"));
        assertThat(received.stream().flatMap(String::lines).sorted().toList())
                .isEqualTo(new String(data, StandardCharsets.UTF_8).lines().sorted().toList());
        assertThat(authorizations).containsOnly("Bearer t0k");
        assertThat(report.p50Nanos()).isPositive().isLessThanOrEqualTo(report.p99Nanos());
    }

    @Test
    void gzipBodiesDecompressToTheSameLines() throws Exception {
        URI url = serve(-1);
        byte[] data = data();
        LoadReport report = new LoadGenerator(new LoadConfig(url, Map.of(), 5000, 1, true, Duration.ofSeconds(30)))
                .run(new ByteArrayInputStream(data));
        assertThat(String.join("", received)).isEqualTo(new String(data, StandardCharsets.UTF_8));
        assertThat(report.wireBytes()).isLessThan(report.bodyBytes());
    }

    @Test
    void aNon2xxAnswerFailsTheWholeRunLoudly() throws Exception {
        URI url = serve(3);
        // one line per batch: 600 batches, so "the run stopped" does not depend on how fast this machine is
        LoadConfig config = new LoadConfig(url, Map.of(), 1, 2, false, Duration.ofSeconds(30));
        assertThatThrownBy(() -> new LoadGenerator(config).run(new ByteArrayInputStream(data())))
                .isInstanceOf(LoadFailedException.class)
                .hasMessageContaining("answered 500")
                .hasMessageContaining("boom")
                .satisfies(e -> assertThat(((LoadFailedException) e).status()).isEqualTo(500));
        // the run stopped: far fewer than the 600 batches were sent
        assertThat(requests.get()).isLessThan(300);
    }

    @Test
    void aRefusedConnectionFailsTheRun() {
        LoadConfig config = new LoadConfig(URI.create("http://127.0.0.1:1/write"), Map.of(), 50, 1, false,
                Duration.ofSeconds(5));
        assertThatThrownBy(() -> new LoadGenerator(config).run(new ByteArrayInputStream(data())))
                .isInstanceOf(LoadFailedException.class).hasMessageContaining("failed");
    }

    @Test
    void batcherCountsPointsAndValuesByLineProtocolGrammar() throws IOException {
        String text = String.join("\n", List.of(
                "# a comment",
                "m,t=a\\ b f=1i,g=\"x, y z\",h=2 1",
                "",
                "m f=1",
                "m,t=1 a=1,b=2,c=3")); // no final newline
        LineBatcher batcher = new LineBatcher(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), 2);
        Batch first = batcher.next();
        Batch second = batcher.next();
        assertThat(first.lines()).isEqualTo(2);
        assertThat(first.values()).isEqualTo(4);
        assertThat(second.lines()).isEqualTo(1);
        assertThat(second.values()).isEqualTo(3);
        assertThat(batcher.next()).isNull();
        assertThat(new String(first.body(), StandardCharsets.UTF_8) + new String(second.body(), StandardCharsets.UTF_8))
                .isEqualTo(text);
    }

    @Test
    void percentileIsNearestRank() {
        long[] sorted = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        assertThat(LoadGenerator.percentile(sorted, 0.5)).isEqualTo(5);
        assertThat(LoadGenerator.percentile(sorted, 0.99)).isEqualTo(10);
        assertThat(LoadGenerator.percentile(new long[0], 0.5)).isZero();
    }
}
