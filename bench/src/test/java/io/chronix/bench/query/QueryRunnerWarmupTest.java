package io.chronix.bench.query;

import com.sun.net.httpserver.HttpServer;
import io.chronix.bench.query.dialect.QueryDialect;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A kind's warm-up ends at its query count or its time, whichever comes first; the timed runs are
 * always all run, and the server's threads are read at the first and the last of them.
 */
class QueryRunnerWarmupTest {

    @Test
    void theWarmUpEndsAtItsTimeAndTheTimedRunsAllRun() throws Exception {
        assertThat(requestsFor(1_000, Duration.ofMillis(200), 5)).as("time up first").isBetween(5 + 5, 5 + 200);
        assertThat(requestsFor(3, Duration.ofSeconds(30), 5)).as("count first").isEqualTo(3 + 5);
        assertThat(requestsFor(3, null, 5)).as("no time limit").isEqualTo(3 + 5);
        assertThat(requestsFor(3, Duration.ZERO, 5)).as("no warm-up at all").isEqualTo(5);
    }

    @Test
    void theJitFigureIsWhatTheCompilerThreadsTookBetweenTheFirstAndTheLastTimedRun() throws Exception {
        // readings 1 s apart, each read once: before the first timed run and after the last
        AtomicInteger readings = new AtomicInteger();
        Supplier<Map<String, Long>> threads = () -> Map.of(io.chronix.bench.peer.ThreadCpu.JIT, readings.incrementAndGet() * 1_000_000_000L);
        List<QueryStats> stats = run(3, 4, runner -> runner.serverThreads(threads), new AtomicInteger());
        assertThat(readings.get()).isEqualTo(2);
        assertThat(stats.getFirst().serverJitNanos()).isEqualTo(1_000_000_000L);
        assertThat(stats.getFirst().serverJitPerRun()).isEqualTo(250_000_000L);

        List<QueryStats> unknown = run(3, 4, runner -> runner.serverThreads(Map::of), new AtomicInteger());
        assertThat(unknown.getFirst().serverJitPerRun()).isEqualTo(-1);
    }

    /** Requests a runner sends for one kind against a server answering each in about 10 ms. */
    private static int requestsFor(int warmup, Duration warmupTime, int runs) throws Exception {
        AtomicInteger requests = new AtomicInteger();
        run(warmup, runs, runner -> runner.warmupTime(warmupTime), requests);
        return requests.get();
    }

    /** One kind's stats from a runner set up by {@code configure}, against a server answering each query in about 10 ms. */
    private static List<QueryStats> run(int warmup, int runs, UnaryOperator<QueryRunner> configure, AtomicInteger requests)
            throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        byte[] body = "1".getBytes(StandardCharsets.UTF_8);
        server.createContext("/", exchange -> {
            requests.incrementAndGet();
            try (OutputStream out = exchange.getResponseBody()) {
                Thread.sleep(10);
                exchange.sendResponseHeaders(200, body.length);
                out.write(body);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        server.start();
        try {
            URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
            QueryInstance q = new QueryInstance(QueryKind.LASTPOINT, List.of(), 0, 1);
            ResultTable answer = new ResultTable(List.of("n"), List.of(List.of(1L)));
            QueryDialect dialect = new FixedAnswerDialect("test", uri, answer);
            List<QueryStats> stats = configure.apply(new QueryRunner(dialect, warmup, runs, false)).run(List.of(q), Map.of(q, answer));
            assertThat(stats).singleElement().satisfies(s -> assertThat(s.failed()).isFalse());
            return stats;
        } finally {
            server.stop(0);
        }
    }
}
